import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { applyBookingChange } from './apply-change.js';
import { type BookingRow, toBooking } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { findVisibleBooking } from './find-booking.js';

/** The body of `POST /v1/bookings/:uid/no-show`. */
export const noShowBodySchema = z.object({
  reason: z
    .string()
    .max(1024, 'must be at most 1024 characters')
    .optional()
    .meta({ description: 'Why it counts as a no-show; kept on the booking.' }),
});
export type NoShowBody = z.output<typeof noShowBodySchema>;

type Deps = { clock: Clock; ids: IdGenerator };

/**
 * The booking a no-show mark may change: one the caller sees, at the
 * version If-Match names when sent, confirmed, and started (its start at
 * or before now): before that nobody can have failed to come.
 */
async function markable(trx: Executor, deps: Deps, principal: Principal, uid: string, ifMatch: IfMatch | undefined): Promise<BookingRow> {
  const row = await findVisibleBooking(trx, principal, uid);
  if (ifMatch !== undefined && !matchesVersion(ifMatch, row.version)) {
    throw new ScheduleError('version_conflict', `The booking is at version ${row.version}.`, { current_version: row.version });
  }
  // Canceled, declined, or pending (never confirmed, so declined at its start): no meeting took place to miss.
  if (row.status !== 'confirmed') {
    throw new ScheduleError('booking_already_cancelled', 'Only a confirmed booking has attendance to record.', { status: row.status });
  }
  if (Date.parse(row.start_at) > deps.clock.now()) {
    throw new ScheduleError('booking_not_started', 'The booking has not started yet, so nobody can have missed it.', {
      start_at: row.start_at,
    });
  }
  return row;
}

/**
 * Records that the attendee did not come (docs/api/endpoints.md "No-shows"):
 * `no_show_at` now, the reason if given, `booking.no_show` recorded. A
 * booking already marked is answered as it is: the mark is safe to repeat,
 * and the first time and reason stand (clear it to record another).
 */
export async function markNoShow(
  trx: Executor,
  deps: Deps,
  principal: Principal,
  uid: string,
  ifMatch: IfMatch | undefined,
  body: NoShowBody,
): Promise<Booking> {
  const row = await markable(trx, deps, principal, uid, ifMatch);
  if (row.no_show_at !== null) return toBooking(row, 'single');
  const change = { no_show_at: toTimestamp(deps.clock.now()), no_show_reason: body.reason ?? null };
  return applyBookingChange(trx, deps, row, change, 'booking.no_show');
}

/** Takes a no-show mark back: both fields null, `booking.no_show_cleared` recorded; a booking without one is answered as it is. */
export async function clearNoShow(
  trx: Executor,
  deps: Deps,
  principal: Principal,
  uid: string,
  ifMatch: IfMatch | undefined,
): Promise<Booking> {
  const row = await markable(trx, deps, principal, uid, ifMatch);
  if (row.no_show_at === null) return toBooking(row, 'single');
  return applyBookingChange(trx, deps, row, { no_show_at: null, no_show_reason: null }, 'booking.no_show_cleared');
}
