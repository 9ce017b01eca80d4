import type { Principal } from '../auth/principal.js';
import { loadHostTime, policyOf } from '../availability/load-host-time.js';
import { checkStart } from '../availability/slot-rules.js';
import { ScheduleError } from '../errors.js';
import { type EventTypeWithHost, eventTypeById, findHost, type HostRecord } from '../event-types/resolve-event-type.js';
import type { Executor } from '../storage/store.js';
import { parseInstant, toTimestamp } from '../time.js';
import { applyBookingChange } from './apply-change.js';
import type { RescheduleBookingBody } from './booking-input.js';
import { recordBookingMail } from './booking-mail.js';
import type { BookingRow } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { assertStillFree, type BookingWriteDeps, unavailable } from './create-booking.js';
import { findVisibleBooking } from './find-booking.js';

export interface PreparedMove {
  readonly row: BookingRow;
  readonly eventType: EventTypeWithHost;
  readonly host: HostRecord;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * Checks a reschedule before any write (docs/api/endpoints.md "The Booking object", docs/api/choices.md
 * "Bookings"): the booking is confirmed, has not started, its event type
 * allows rescheduling, and the host is free at the new start for the same
 * duration (the booking's own time does not count against it).
 */
export async function prepareMove(
  deps: BookingWriteDeps & { db: Executor },
  principal: Principal,
  uid: string,
  body: RescheduleBookingBody,
): Promise<PreparedMove> {
  const row = await findVisibleBooking(deps.db, principal, uid);
  if (row.status !== 'confirmed') throw new ScheduleError('booking_already_cancelled', 'Only a confirmed booking can be rescheduled.', {});
  const nowMs = deps.clock.now();
  if (Date.parse(row.start_at) <= nowMs) {
    throw new ScheduleError('booking_in_past', 'The booking has already started or finished.', { start_at: row.start_at });
  }
  const [eventType, host] = await Promise.all([eventTypeById(deps.db, row.event_type_id), findHost(deps.db, row.host_user_id)]);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,ObjectLiteral: unreachable, kept for the types: the row was just read through inner joins on both, and no writer deletes an event type or a user
  if (!eventType || !host) throw new ScheduleError('booking_not_found', 'No booking with this uid.', { uid });
  if (!eventType.allowReschedule) throw new ScheduleError('reschedule_not_allowed', 'This event type does not allow rescheduling.', {});
  const startMs = parseInstant(body.start)!.epochMs;
  if (startMs < nowMs) throw new ScheduleError('slot_in_past', 'The new start is in the past.', {});
  const endMs = startMs + (Date.parse(row.end_at) - Date.parse(row.start_at));
  const policy = { ...policyOf(eventType), durationMinutes: (endMs - startMs) / 60_000 };
  const time = await loadHostTime(deps, policy, host, { startMs, endMs }, { exceptBookingUid: row.uid });
  const check = checkStart(time, startMs);
  if (!check.available) throw unavailable(check.reason);
  return { row, eventType, host, startMs, endMs };
}

/** Moves the booking in place: same uid, new start and end, version bumped, `booking.rescheduled` recorded. */
export async function moveBooking(
  trx: Executor,
  deps: BookingWriteDeps,
  principal: Principal,
  move: PreparedMove,
  body: RescheduleBookingBody,
): Promise<Booking> {
  await assertStillFree(trx, deps, move.host.id, move.eventType, move, move.row.uid);
  // Read again under the lock: a cancel or another move may have landed since the checks.
  const row = await findVisibleBooking(trx, principal, move.row.uid);
  if (row.status !== 'confirmed') throw new ScheduleError('booking_already_cancelled', 'Only a confirmed booking can be rescheduled.', {});
  const change = {
    start_at: toTimestamp(move.startMs),
    end_at: toTimestamp(move.endMs),
    timezone: body.timezone ?? row.timezone,
    // An occurrence moved here stays in its series as "moved" (docs/api/series.md "Owed, held and moved");
    // only a series reads the flag, so a booking outside one may carry it too.
    moved_by_invitee: 1,
  };
  const booking = await applyBookingChange(trx, deps, row, change, 'booking.rescheduled', (booking) => ({
    ...booking,
    previous_start_at: row.start_at,
    previous_end_at: row.end_at,
    reason: body.reason ?? null,
  }));
  await recordBookingMail(trx, deps, 'booking_rescheduled', booking, {
    previous: { start_at: row.start_at, end_at: row.end_at },
    reason: body.reason ?? null,
    seriesUid: row.series_uid,
    eventTypeName: move.eventType.name,
    host: move.host,
  });
  return booking;
}
