import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { PoolMember } from '../event-types/resolve-event-type.js';
import type { Executor } from '../storage/store.js';
import type { Interval } from './busy.js';
import type { CalendarReader } from './calendar-reader.js';
import { loadHostTime } from './load-host-time.js';
import { checkStart, freeSlots, type HostTime, type SlotPolicy, type StartRules, type Unavailable } from './slot-rules.js';

// A team type's availability (docs/api/teams.md) is its hosts' own, each
// read and judged exactly as a single host's: a start is free for the team
// when every fixed host (all of a collective pool) is free at it and, when
// the pool has hosts to choose from, at least one of those is. Nothing here
// decides whether a host is free; it only combines the answers of
// slot-rules.ts.

/** One host of a pool with their time read for a window. */
export interface MemberTime {
  readonly member: PoolMember;
  readonly time: HostTime;
}

/** How many hosts' time is read at once: a pool of 500 must not take every connection of the store's pool. */
const READ_CONCURRENCY = 8;

/**
 * Reads every active host's time, as loadHostTime reads one. A host to
 * choose from whose conflict calendar cannot be read is left out (free
 * nowhere), so one broken calendar never takes a whole team's slots down;
 * when every host's calendar fails, or a fixed host's (who must attend), the
 * team's answer is `503 availability_unavailable` as a single host's would be.
 */
export async function loadTeamTime(
  deps: { db: Executor; clock: Clock; calendars: CalendarReader },
  policy: SlotPolicy,
  pool: readonly PoolMember[],
  range: Interval,
  options: Parameters<typeof loadHostTime>[4] = {},
): Promise<MemberTime[]> {
  const read: (MemberTime | ScheduleError)[] = [];
  // Stryker disable next-line EqualityOperator: equivalent: one more pass at i = length reads an empty batch.
  for (let i = 0; i < pool.length; i += READ_CONCURRENCY) {
    const batch = pool.slice(i, i + READ_CONCURRENCY).map(async (member) => {
      const time = await readHost(deps, policy, member, range, options);
      return time instanceof ScheduleError ? time : { member, time };
    });
    read.push(...(await Promise.all(batch)));
  }
  const members = read.filter((m): m is MemberTime => !(m instanceof ScheduleError));
  const failure = read.find((m) => m instanceof ScheduleError);
  const fixedFailure = read.find((m, i) => m instanceof ScheduleError && pool[i]!.fixed);
  if (fixedFailure !== undefined) throw fixedFailure;
  if (members.length === 0 && failure !== undefined) throw failure;
  return members;
}

/**
 * The starts the team is free at over `range`, in order. First the starts
 * every fixed host is free at: each fixed host's freeSlots, each judging only
 * the starts all before them left (none read once none is left). Then, when
 * the pool has hosts to choose from, the union of their freeSlots within
 * those, read host by host (READ_CONCURRENCY at once). A host to choose from
 * is not read at all once every start they could offer (their working hours
 * on the grid, within notice and the future limit, as if nothing else were
 * booked) is listed already: such a host cannot add a start. A big pool is
 * then read only until its starts are covered, a few hosts in practice. An
 * unreadable calendar leaves its host out, as loadTeamTime does.
 */
export async function listTeamSlots(
  deps: { db: Executor; clock: Clock; calendars: CalendarReader },
  policy: SlotPolicy,
  pool: readonly PoolMember[],
  range: Interval,
  options: Parameters<typeof loadHostTime>[4] = {},
): Promise<Interval[]> {
  const common = await startsOfFixed(deps, policy, pool, range, options);
  const rotating = pool.filter((m) => !m.fixed);
  // Stryker disable next-line ConditionalExpression: speed only: with no start in common, every host to choose from is skipped (couldAdd) and the list is empty alike.
  if (common !== undefined && (rotating.length === 0 || common.size === 0)) return [...common.values()];
  const inCommon = (start: number) => common === undefined || common.has(start);
  const byStart = new Map<number, Interval>();
  const nowMs = deps.clock.now();
  // Hosts with the same hours and zone could offer the same starts: worked out once per kind.
  const offerable = new Map<string, Interval[]>();
  const couldAdd = (member: PoolMember) => {
    const key = `${member.host.timezone}|${JSON.stringify(member.host.schedule)}`;
    let starts = offerable.get(key);
    // Stryker disable next-line ConditionalExpression: speed only: working the starts out again gives the same starts.
    if (starts === undefined) {
      starts = freeSlots(
        // Stryker disable next-line ArrayDeclaration: equivalent: an entry with no times (the mutant's string) overlaps no start.
        { policy: { ...policy, limits: undefined }, schedule: member.host.schedule, zone: member.host.timezone, busy: [], nowMs },
        range,
      );
      offerable.set(key, starts);
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator: speed only: a host read who can add no start in common adds none (freeSlots below asks inCommon again).
    return starts.some((s) => !byStart.has(s.startMs) && inCommon(s.startMs));
  };
  let anyRead = false;
  let failure: ScheduleError | undefined;
  // Stryker disable next-line EqualityOperator: equivalent: one more pass at i = length reads an empty batch.
  for (let i = 0; i < rotating.length; i += READ_CONCURRENCY) {
    // Stryker disable next-line MethodExpression: speed only: reading a host who cannot add a start adds none.
    const batch = rotating.slice(i, i + READ_CONCURRENCY).filter(couldAdd);
    const times = await Promise.all(batch.map((member) => readHost(deps, policy, member, range, options)));
    for (const time of times) {
      if (time instanceof ScheduleError) {
        failure = time;
        continue;
      }
      anyRead = true;
      for (const slot of freeSlots(time, range, (start) => !byStart.has(start) && inCommon(start))) byStart.set(slot.startMs, slot);
    }
  }
  if (!anyRead && failure !== undefined) throw failure;
  return [...byStart.values()].sort((a, b) => a.startMs - b.startMs);
}

/**
 * The starts every fixed host of the pool is free at, by start, in order;
 * undefined for a pool without fixed hosts. A fixed host's unreadable
 * calendar is the team's `503`: they must attend, so nothing is known.
 */
async function startsOfFixed(
  deps: { db: Executor; clock: Clock; calendars: CalendarReader },
  policy: SlotPolicy,
  pool: readonly PoolMember[],
  range: Interval,
  options: Parameters<typeof loadHostTime>[4],
): Promise<Map<number, Interval> | undefined> {
  const fixed = pool.filter((m) => m.fixed);
  let common: Map<number, Interval> | undefined;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent: one more pass at i = length reads an empty batch; reading on once no start is left leaves none.
  for (let i = 0; i < fixed.length && common?.size !== 0; i += READ_CONCURRENCY) {
    // Stryker disable next-line MethodExpression: equivalent: judging hosts judged already leaves the same starts in common.
    const times = await Promise.all(fixed.slice(i, i + READ_CONCURRENCY).map((member) => readHost(deps, policy, member, range, options)));
    for (const time of times) {
      if (time instanceof ScheduleError) throw time;
      const left: Map<number, Interval> | undefined = common;
      const free = freeSlots(time, range, left === undefined ? undefined : (start) => left.has(start));
      common = new Map(free.map((slot) => [slot.startMs, slot]));
    }
  }
  return common;
}

/** One host's time, or the refusal of a conflict calendar that could not be read (any other failure is thrown). */
async function readHost(
  deps: { db: Executor; clock: Clock; calendars: CalendarReader },
  policy: SlotPolicy,
  member: PoolMember,
  range: Interval,
  options: Parameters<typeof loadHostTime>[4],
): Promise<HostTime | ScheduleError> {
  try {
    return await loadHostTime(deps, policy, member.host, range, options);
  } catch (error) {
    if (error instanceof ScheduleError && error.code === 'availability_unavailable') return error;
    throw error;
  }
}

/** The starts these hosts are free at as a team, in order: every fixed host's, and one of the others' when there are others. */
export function teamFreeSlots(members: readonly MemberTime[], range: Interval): Interval[] {
  const fixed = members.filter((m) => m.member.fixed);
  const rotating = members.filter((m) => !m.member.fixed);
  let common: Map<number, Interval> | undefined;
  for (const { time } of fixed) {
    const left: Map<number, Interval> | undefined = common;
    common = new Map(
      freeSlots(time, range, left === undefined ? undefined : (start) => left.has(start)).map((slot) => [slot.startMs, slot]),
    );
  }
  if (common !== undefined && rotating.length === 0) return [...common.values()];
  const byStart = new Map<number, Interval>();
  for (const { time } of rotating)
    for (const slot of freeSlots(time, range)) if (common?.has(slot.startMs) ?? true) byStart.set(slot.startMs, slot);
  return [...byStart.values()].sort((a, b) => a.startMs - b.startMs);
}

/** The hosts free at a start, in the pool's order. */
export function freeMembersAt(members: readonly MemberTime[], startMs: number, endMs?: number, rules?: StartRules): MemberTime[] {
  return members.filter(({ time }) => checkStart(time, startMs, endMs, rules).available);
}

/**
 * Whether the team is free at a start: every fixed host, and some host to
 * choose from when the pool has any; if not, why, as checkStart says it.
 * The reasons before `slot_busy` (status, past, notice, horizon) are the
 * type's and alike for every host, so the first host's reason is the team's;
 * a pool with no active host is `slot_busy`.
 */
export function teamCheck(
  members: readonly MemberTime[],
  startMs: number,
  endMs?: number,
): { available: true } | { available: false; reason: Unavailable } {
  const rotating = members.filter((m) => !m.member.fixed);
  for (const { time } of members.filter((m) => m.member.fixed)) {
    const check = checkStart(time, startMs, endMs);
    if (!check.available) return check;
  }
  if (rotating.length === 0 && members.length > 0) return { available: true };
  let first: Unavailable | undefined;
  for (const { time } of rotating) {
    const check = checkStart(time, startMs, endMs);
    if (check.available) return check;
    first ??= check.reason;
  }
  return { available: false, reason: first ?? 'slot_busy' };
}
