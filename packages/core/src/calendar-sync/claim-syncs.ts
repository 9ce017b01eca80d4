import type { Clock } from '../clock.js';
import type { Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/** A queued calendar write this process holds the lease of. */
export interface ClaimedSync {
  readonly booking_uid: string;
  readonly generation: number;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly href: string | null;
  readonly etag: string | null;
  readonly account_user_id: string | null;
  readonly account_url: string | null;
  readonly account_username: string | null;
  /** Every write about this attempt names it, so a process whose lease ran out writes nothing. */
  readonly lease: string;
}

/**
 * Claims due calendar writes, oldest due first. As with webhook deliveries:
 * on PostgreSQL the rows are locked FOR UPDATE SKIP LOCKED, so processes
 * claiming at once take different rows without waiting, and the lock
 * re-checks that the row is still due and unleased; on SQLite the one UPDATE
 * is atomic. A process that dies holding a lease lets it run out, and the
 * write is claimed again (the UID-named object makes that retry harmless).
 */
export async function claimDueSyncs(
  deps: { store: Store; clock: Clock },
  options: { lease: string; leaseMs: number; limit: number },
): Promise<ClaimedSync[]> {
  const { store } = deps;
  const db = store.db;
  const nowMs = deps.clock.now();
  const now = toTimestamp(nowMs);
  const candidates = await db
    .selectFrom('calendar_syncs')
    .select('booking_uid')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(options.limit)
    .execute();
  if (candidates.length === 0) return [];
  const uids = candidates.map((row) => row.booking_uid);
  const claimed = await db
    .updateTable('calendar_syncs')
    .set({ lease: options.lease, locked_until: toTimestamp(nowMs + options.leaseMs) })
    .where(
      'booking_uid',
      'in',
      store.dialect === 'postgres'
        ? db
            .selectFrom('calendar_syncs')
            .select('booking_uid')
            .where('booking_uid', 'in', uids)
            .where('status', '=', 'pending')
            .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
            .forUpdate()
            .skipLocked()
        : uids,
    )
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning(['booking_uid', 'generation', 'attempts', 'href', 'etag', 'account_user_id', 'account_url', 'account_username', 'lease'])
    .execute();
  return claimed.map((row) => ({ ...row, lease: options.lease }));
}
