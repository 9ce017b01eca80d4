import type { Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { PENDING_MAIL } from './record-notification.js';

/** What waits to go out: the rows an operator watches grow when delivery stalls. */
export interface Backlog {
  /** Outbox events not dispatched yet (`dispatched_at` null). */
  readonly events: number;
  /** Mail due and still to be sent (`notifications.status` = `pending`); a reminder waiting for its moment is not behind. */
  readonly mail: number;
}

/**
 * A count stops here: its cost must not grow with a backlog nobody drains
 * (webhook delivery stopped or stuck). Past it, the backlog reads as this
 * number: far beyond any alert threshold.
 */
export const BACKLOG_COUNT_CAP = 100_000;

/**
 * Counts the backlog in one statement, each count capped at
 * BACKLOG_COUNT_CAP and served by an index (`outbox_pending`,
 * `notifications_pending`). Bounded in time by the store's own timeouts; it
 * throws when the database does not answer.
 */
export async function countBacklog(store: Store, nowMs: number): Promise<Backlog> {
  const db = store.db;
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom(db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).limit(BACKLOG_COUNT_CAP).as('undispatched'))
        .select(eb.fn.countAll().as('n'))
        .as('events'),
      eb
        .selectFrom(
          db
            .selectFrom('notifications')
            .select('id')
            .where('status', '=', PENDING_MAIL)
            .where('next_attempt_at', '<=', toTimestamp(nowMs))
            .limit(BACKLOG_COUNT_CAP)
            .as('unsent'),
        )
        .select(eb.fn.countAll().as('n'))
        .as('mail'),
    ])
    .executeTakeFirstOrThrow();
  // PostgreSQL returns a count as a string (bigint), SQLite as a number.
  return { events: Number(row.events), mail: Number(row.mail) };
}
