import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { applyBookingChange } from './apply-change.js';
import type { CancelBookingBody } from './booking-input.js';
import { recordBookingMail } from './booking-mail.js';
import { assertNotice } from './booking-notice.js';
import { toBooking } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { findVisibleBooking } from './find-booking.js';

/**
 * Cancels a booking that has not started (docs/api/endpoints.md "The Booking object"). A booking
 * already canceled (or declined: it is over as well) is answered as it is,
 * unchanged: cancel is safe to repeat. A pending one is canceled as a
 * confirmed one is: the attendee withdraws the request.
 * One that has started or finished is `409 booking_in_past`; one starting
 * sooner than its event type's cancel notice, `409 cancel_notice`.
 */
export async function cancelBooking(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  principal: Principal,
  uid: string,
  body: CancelBookingBody,
): Promise<Booking> {
  const row = await findVisibleBooking(trx, principal, uid);
  if (row.status === 'canceled' || row.status === 'declined') return toBooking(row, 'single');
  const nowMs = deps.clock.now();
  if (Date.parse(row.start_at) <= nowMs) {
    throw new ScheduleError('booking_in_past', 'The booking has already started or finished.', { start_at: row.start_at });
  }
  assertNotice('cancel', principal, row, row.cancel_notice_minutes, nowMs, body.override_notice);
  const booking = await applyBookingChange(
    trx,
    deps,
    row,
    { status: 'canceled', cancelled_at: toTimestamp(nowMs), cancellation_reason: body.reason ?? null },
    'booking.canceled',
    (booking) => ({ ...booking, reason: body.reason ?? null }),
  );
  await recordBookingMail(trx, deps, 'booking_canceled', booking, { reason: body.reason ?? null, seriesUid: row.series_uid });
  return booking;
}
