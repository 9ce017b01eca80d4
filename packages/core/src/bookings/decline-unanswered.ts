import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { owesCalendarWrite, queueCalendarSync } from '../outbox/queue-calendar-sync.js';
import { recordEvent } from '../outbox/record-event.js';
import type { Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { recordBookingMail } from './booking-mail.js';
import { selectBookings, toBooking } from './booking-rows.js';

/** What the mail and the event say of a booking declined because nobody answered in time. */
export const UNANSWERED_REASON = 'The host did not confirm it before its start.';

/**
 * Declines the pending bookings whose deadline (their start,
 * docs/api/choices.md) has come, at most `limit` a pass, each with its
 * `booking.declined` event and mail, in one transaction. The claim is one
 * UPDATE that names `status = 'pending'` again on the row: on PostgreSQL a
 * second process claiming at once waits for the first's row lock, then finds
 * the row declined and skips it; on SQLite writes are serial. So however many
 * processes run the pass, each booking is declined, and reported, once.
 * Availability never waits for this: a pending booking stops blocking time at
 * its deadline by itself (load-host-time.ts).
 */
export async function declineUnanswered(
  deps: { readonly store: Store; readonly clock: Clock; readonly ids: IdGenerator },
  options: { limit?: number } = {},
): Promise<number> {
  const now = toTimestamp(deps.clock.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const pending = trx
      .selectFrom('bookings')
      .select('uid')
      .where('status', '=', 'pending')
      .where('start_at', '<=', now)
      .orderBy('start_at')
      .limit(options.limit ?? 100);
    // On PostgreSQL processes running the pass at once take different bookings rather than wait on each other.
    const due = deps.store.dialect === 'postgres' ? pending.forUpdate().skipLocked() : pending;
    const claimed = await trx
      .with(
        (cte) => cte('due').materialized(),
        () => due,
      )
      .updateTable('bookings')
      .set({
        status: 'declined',
        cancelled_at: now,
        cancellation_reason: null,
        canceled_by: 'deadline',
        version: sql<number>`version + 1`,
        updated_at: now,
      })
      .where('uid', 'in', (eb) => eb.selectFrom('due').select('due.uid'))
      // Checked again on the row itself: another process may have declined (or the host answered) it since the subquery's snapshot.
      .where('status', '=', 'pending')
      .where('start_at', '<=', now)
      .returning('uid')
      .execute();
    if (claimed.length === 0) return 0;
    const rows = await selectBookings(trx)
      .where(
        'bookings.uid',
        'in',
        claimed.map((c) => c.uid),
      )
      .orderBy('bookings.start_at')
      .execute();
    for (const row of rows) {
      if (owesCalendarWrite(row, undefined)) await queueCalendarSync(trx, row.uid, now);
      const booking = toBooking(row, 'single');
      await recordEvent(trx, deps, 'booking.declined', row.uid, { ...booking, reason: UNANSWERED_REASON, declined_by: 'deadline' });
      await recordBookingMail(trx, deps, 'booking_declined', booking, { reason: UNANSWERED_REASON, seriesUid: row.series_uid });
    }
    return rows.length;
  });
}
