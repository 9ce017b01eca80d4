import { type ActsFor, actsForOf, mayActFor } from '../../auth/roles.js';
import type { Executor } from '../../storage/store.js';

/** An active webhook as fan-out needs it: what it listens to, and what its owner may read. */
export interface Subscriber {
  readonly id: string;
  /** What sending needs, for the deliveries fan-out leases to its own process at once. */
  readonly url: string;
  readonly secret: string;
  readonly previous_secret: string | null;
  readonly previous_secret_until: string | null;
  readonly consecutive_failures: number;
  readonly owner_user_id: string;
  readonly answers_promptly: boolean;
  readonly backoff_until: string | null;
  readonly events: ReadonlySet<string>;
  /** The owner's reach now (docs/api/overview.md "Roles"): a role or a managed list changed since creation counts. */
  readonly reach: ActsFor;
  readonly createdAt: string;
}

/** Every active webhook with its owner's reach; paused and disabled ones get nothing (events while paused are missed). */
export async function activeSubscribers(db: Executor): Promise<Subscriber[]> {
  const rows = await db
    .selectFrom('webhooks')
    .innerJoin('users', 'users.id', 'webhooks.owner_user_id')
    .select([
      'webhooks.id',
      'webhooks.events_json',
      'webhooks.created_at',
      'webhooks.url',
      'webhooks.secret',
      'webhooks.previous_secret',
      'webhooks.previous_secret_until',
      'webhooks.consecutive_failures',
      'webhooks.answers_promptly',
      'webhooks.backoff_until',
      'users.id as owner_id',
      'users.role',
      'users.manages_json',
    ])
    .where('webhooks.status', '=', 'active')
    .execute();
  // Read defensively: one malformed row must not stop fan-out for every webhook.
  const list = (json: string): string[] => {
    try {
      const value: unknown = JSON.parse(json);
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  };
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    secret: row.secret,
    previous_secret: row.previous_secret,
    previous_secret_until: row.previous_secret_until,
    consecutive_failures: row.consecutive_failures,
    owner_user_id: row.owner_id,
    answers_promptly: row.answers_promptly === 1,
    backoff_until: row.backoff_until,
    events: new Set(list(row.events_json)),
    reach: actsForOf(row.role, row.owner_id, list(row.manages_json)),
    createdAt: row.created_at,
  }));
}

/**
 * Whose the subject of an event's payload is: the host of a booking or
 * series (`host.user_id`), or the person of their working hours (`user_id`).
 */
export function hostOf(data: unknown): string | undefined {
  const subject = data as { host?: { user_id?: unknown }; user_id?: unknown } | null;
  const host = subject?.host?.user_id ?? subject?.user_id;
  return typeof host === 'string' ? host : undefined;
}

/**
 * The webhooks that get an event: subscribed to its type, existing when it
 * happened (a new webhook does not inherit an undelivered backlog), and owned
 * by someone who may read its subject, by the rule GET /v1/bookings and
 * GET /v1/series filter with. A payload without a host goes to no one.
 */
export function receiversOf(
  subscribers: readonly Subscriber[],
  event: { type: string; createdAt: string; host: string | undefined },
): Subscriber[] {
  const { host } = event;
  if (host === undefined) return [];
  return subscribers.filter((s) => s.events.has(event.type) && s.createdAt <= event.createdAt && mayActFor(s.reach, host));
}
