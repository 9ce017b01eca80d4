import type { Selectable } from 'kysely';
import type { Clock } from '../clock.js';
import { PENDING_MAIL } from '../outbox/record-notification.js';
import type { NotificationsTable } from '../storage/schema.js';
import type { Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';

export type ClaimedMail = Selectable<NotificationsTable>;

/** The ids of the oldest due mail, read from the partial index `notifications_pending`; locked on PostgreSQL, skipping rows others hold. */
export function dueMail(store: Store, now: string, limit: number) {
  const due = store.db
    .selectFrom('notifications')
    .select('id')
    .where('status', '=', PENDING_MAIL)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('created_at')
    .limit(limit);
  return store.dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
}

/**
 * Claims up to `limit` due mails, oldest due first, in one statement: their
 * next attempt moves `leaseMs` ahead, so no other dispatcher sees them as
 * due until the claim runs out (a dispatcher that dies frees its mail that
 * way). On PostgreSQL the rows are locked FOR UPDATE SKIP LOCKED, so
 * processes claiming at once take different mail without waiting on each
 * other; on SQLite the one UPDATE is atomic. The rows come back oldest first.
 */
export async function claimDueMail(
  deps: { store: Store; clock: Clock },
  options: { limit: number; leaseMs: number },
): Promise<ClaimedMail[]> {
  const { store } = deps;
  const db = store.db;
  const nowMs = deps.clock.now();
  const now = toTimestamp(nowMs);
  const due = dueMail(store, now, options.limit);
  const claimed = await db
    // Materialized, so the limit is applied once. As a plain subquery PostgreSQL may run it again for
    // each row it updates, and each run, skipping the row just claimed, would claim one more.
    .with(
      (cte) => cte('due').materialized(),
      () => due,
    )
    .updateTable('notifications')
    .set({ next_attempt_at: toTimestamp(nowMs + options.leaseMs) })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    // Checked again on the row itself: on PostgreSQL another claim may have moved it since the subquery's snapshot.
    .where('status', '=', PENDING_MAIL)
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .execute();
  // RETURNING keeps no order. A batch is sent at once, so its order only needs to be the same every time.
  return claimed.sort((a, b) => (a.created_at === b.created_at ? compare(a.id, b.id) : compare(a.created_at, b.created_at)));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
