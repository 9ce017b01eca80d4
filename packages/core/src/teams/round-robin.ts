import type { PoolMember } from '../event-types/resolve-event-type.js';
import type { Executor } from '../storage/store.js';
import { DAY_MS, toTimestamp } from '../time.js';

// Which free host of a round-robin pool takes a booking (docs/api/teams.md
// "Who is chosen"). The rule, in order:
//
//   1. the host with the fewest bookings per unit of weight, counting the one
//      being made: the least (count + 1) / weight, where count is the host's
//      bookings of this type made in the last FAIRNESS_WINDOW_DAYS days that
//      are confirmed or pending (a divisor method, D'Hondt's);
//   2. then the higher priority;
//   3. then the one booked least recently (never booked first);
//   4. then the lower user id, so the rule always names one host.
//
// With every host free, each host's count stays within the pool's size
// minus one (one, for two hosts) of its weight's share of all bookings in
// the window, whatever the weights: the bound docs/api/teams.md publishes
// and round-robin-fairness.test.ts checks over 10,000 bookings.

/** How far back bookings count towards a host's share. */
export const FAIRNESS_WINDOW_DAYS = 30;

/** A host's recent bookings of the type, as the rule weighs them. */
export interface HostLoad {
  readonly count: number;
  /** When the latest of them was made; undefined when none was. */
  readonly lastBookedAt: string | undefined;
}

const NO_LOAD: HostLoad = { count: 0, lastBookedAt: undefined };

/** The hosts in the order the rule prefers them: the first free one takes the booking. */
export function rankHosts<M extends Pick<PoolMember, 'weight' | 'priority'> & { readonly host: { readonly id: string } }>(
  members: readonly M[],
  loads: ReadonlyMap<string, HostLoad>,
): M[] {
  const loadOf = (m: M) => loads.get(m.host.id) ?? NO_LOAD;
  return [...members].sort((a, b) => {
    const la = loadOf(a);
    const lb = loadOf(b);
    // (la + 1) / wa against (lb + 1) / wb, in integers.
    const share = (la.count + 1) * b.weight - (lb.count + 1) * a.weight;
    if (share !== 0) return share;
    if (a.priority !== b.priority) return b.priority - a.priority;
    if (la.lastBookedAt !== lb.lastBookedAt) {
      if (la.lastBookedAt === undefined) return -1;
      // Stryker disable next-line EqualityOperator: equivalent: the two differ here, and one never booked (undefined) compares false either way.
      return lb.lastBookedAt !== undefined && la.lastBookedAt < lb.lastBookedAt ? -1 : 1;
    }
    // Stryker disable next-line EqualityOperator: equivalent: two hosts of a pool never share an id.
    return a.host.id < b.host.id ? -1 : 1;
  });
}

/**
 * The recent bookings of the type per host, for the rule: read in the
 * create's transaction after the hosts' locks, so two creates never weigh
 * the same counts.
 */
export async function recentLoads(
  db: Executor,
  eventTypeId: string,
  hostIds: readonly string[],
  nowMs: number,
): Promise<Map<string, HostLoad>> {
  // Stryker disable next-line ConditionalExpression: PostgreSQL only: without it an empty `in ()`, which SQLite answers with no rows.
  if (hostIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('bookings')
    .select((eb) => ['host_user_id', eb.fn.countAll<number | string>().as('count'), eb.fn.max('created_at').as('last')])
    .where('event_type_id', '=', eventTypeId)
    .where('created_at', '>=', toTimestamp(nowMs - FAIRNESS_WINDOW_DAYS * DAY_MS))
    .where('status', 'in', ['confirmed', 'pending'])
    .where('host_user_id', 'in', hostIds)
    .groupBy('host_user_id')
    .execute();
  return new Map(rows.map((r) => [r.host_user_id, { count: Number(r.count), lastBookedAt: r.last }]));
}
