import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { lockHost } from '../storage/host-lock.js';
import type { Dialect, Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { applyBookingChange } from './apply-change.js';
import type { CancelBookingBody } from './booking-input.js';
import { recordBookingMail } from './booking-mail.js';
import type { BookingRow } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { findVisibleBooking } from './find-booking.js';

type AnswerDeps = { readonly clock: Clock; readonly ids: IdGenerator; readonly dialect: Dialect };

/**
 * The pending booking the host answers, read under the host's lock. Only
 * whoever may act for the host answers: anyone else, the booking page's
 * visitor too, is told `404 booking_not_found`, as for a booking they cannot
 * see. A booking that is not pending, or whose answer was due by its start
 * (the deadline, docs/api/choices.md), is `409 booking_not_pending`.
 */
async function pendingForHost(
  trx: Executor,
  deps: AnswerDeps,
  principal: Principal,
  uid: string,
  ifMatch: IfMatch | undefined,
): Promise<BookingRow> {
  const seen = await findVisibleBooking(trx, principal, uid);
  if (!mayActFor(principal.actsFor, seen.host_user_id)) throw new ScheduleError('booking_not_found', 'No booking with this uid.', { uid });
  // The lock orders this answer with the host's creates: a create either saw the booking pending (and holding
  // its time) or runs after the answer. Confirming changes no time, so nothing else needs checking again.
  await lockHost(trx, deps.dialect, seen.host_user_id);
  const row = await findVisibleBooking(trx, principal, uid);
  if (ifMatch !== undefined && !matchesVersion(ifMatch, row.version)) {
    throw new ScheduleError('version_conflict', `The booking is at version ${row.version}.`, { current_version: row.version });
  }
  if (row.status !== 'pending') {
    throw new ScheduleError('booking_not_pending', `Only a pending booking can be confirmed or declined; this one is ${row.status}.`, {
      status: row.status,
    });
  }
  // Past its deadline a pending booking no longer holds its time (availability/load-host-time.ts), so
  // confirming it now could double-book; it is declined, by the pass or already in effect.
  if (Date.parse(row.start_at) <= deps.clock.now()) {
    throw new ScheduleError('booking_not_pending', 'The answer was due by the booking start; it is declined.', {
      status: 'declined',
    });
  }
  return row;
}

/**
 * `POST /v1/bookings/:uid/confirm`: a pending booking becomes confirmed. It
 * held its time from its create, so nothing about the time is checked again:
 * a confirm can never double-book. Its calendar event is written now
 * (docs/api/choices.md), and both sides are mailed the confirmation.
 */
export async function confirmBooking(
  trx: Executor,
  deps: AnswerDeps,
  principal: Principal,
  uid: string,
  ifMatch: IfMatch | undefined,
): Promise<Booking> {
  const row = await pendingForHost(trx, deps, principal, uid, ifMatch);
  const booking = await applyBookingChange(trx, deps, row, { status: 'confirmed' }, 'booking.confirmed');
  await recordBookingMail(trx, deps, 'booking_confirmed', booking, { seriesUid: row.series_uid });
  return booking;
}

/**
 * `POST /v1/bookings/:uid/decline`: a pending booking becomes declined, its
 * time free at once. The reason is kept in `cancellation_reason` and the
 * time in `cancelled_at`, as for a cancel.
 */
export async function declineBooking(
  trx: Executor,
  deps: AnswerDeps,
  principal: Principal,
  uid: string,
  ifMatch: IfMatch | undefined,
  body: CancelBookingBody,
): Promise<Booking> {
  const row = await pendingForHost(trx, deps, principal, uid, ifMatch);
  const reason = body.reason ?? null;
  const booking = await applyBookingChange(
    trx,
    deps,
    row,
    { status: 'declined', cancelled_at: toTimestamp(deps.clock.now()), cancellation_reason: reason, canceled_by: 'host' },
    'booking.declined',
    (booking) => ({ ...booking, reason, declined_by: 'host' }),
  );
  await recordBookingMail(trx, deps, 'booking_declined', booking, { reason, seriesUid: row.series_uid });
  return booking;
}
