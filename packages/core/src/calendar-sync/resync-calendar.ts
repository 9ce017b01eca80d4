import type { Principal } from '../auth/principal.js';
import { findVisibleBooking } from '../bookings/find-booking.js';
import type { Clock } from '../clock.js';
import { queueCalendarSync, requeueCalendarSyncs } from '../outbox/queue-calendar-sync.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { CalendarResync } from './resync-input.js';

/** Failed syncs one call queues again, oldest first: one statement each way, however many a host has. */
export const RESYNC_BATCH = 500;

/** Marks bookings `pending` again; `updated_at` moves with the status, so the catch-up sweep sees them. */
async function markPending(trx: Executor, bookingUids: readonly string[], now: string): Promise<void> {
  // Stryker disable next-line ConditionalExpression: SQLite takes an empty IN list, PostgreSQL refuses it (the nothing-failed test there pins it).
  if (bookingUids.length === 0) return;
  await trx.updateTable('bookings').set({ calendar_sync_status: 'pending', updated_at: now }).where('uid', 'in', bookingUids).execute();
}

/**
 * Queues a booking's event to be written again, whatever became of the last
 * write: a `failed` one after its cause was fixed, a `synced` one whose event
 * was deleted in the calendar, one booked before the host had a calendar.
 * The write brings the calendar in line with the booking as it is now
 * (written, or removed for a canceled booking). A booking the caller may not
 * see answers `404 booking_not_found`, like an unknown one.
 */
export async function resyncBooking(trx: Executor, clock: Clock, principal: Principal, uid: string): Promise<CalendarResync> {
  const row = await findVisibleBooking(trx, principal, uid);
  const now = toTimestamp(clock.now());
  await queueCalendarSync(trx, row.uid, now);
  await markPending(trx, [row.uid], now);
  return { queued: 1, remaining: 0 };
}

/**
 * Queues again every `failed` calendar write of a host's bookings, the
 * oldest `batch` of them; `remaining` counts the rest. Each gets the whole
 * retry schedule again.
 */
export async function resyncFailed(trx: Executor, clock: Clock, hostUserId: string, batch = RESYNC_BATCH): Promise<CalendarResync> {
  const failedOfHost = () =>
    trx
      .selectFrom('calendar_syncs')
      .innerJoin('bookings', 'bookings.uid', 'calendar_syncs.booking_uid')
      .where('calendar_syncs.status', '=', 'failed')
      .where('bookings.host_user_id', '=', hostUserId);
  const uids = (
    await failedOfHost()
      .select('calendar_syncs.booking_uid')
      .orderBy('calendar_syncs.updated_at')
      .orderBy('calendar_syncs.booking_uid')
      .limit(batch)
      .execute()
  ).map((row) => row.booking_uid);
  const now = toTimestamp(clock.now());
  await requeueCalendarSyncs(trx, uids, now);
  await markPending(trx, uids, now);
  const left = await failedOfHost()
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .executeTakeFirstOrThrow();
  return { queued: uids.length, remaining: Number(left.n) };
}
