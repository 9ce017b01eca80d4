import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { owesCalendarWrite, queueCalendarSync } from '../outbox/queue-calendar-sync.js';
import { type EventName, recordEvent } from '../outbox/record-event.js';
import { changesReminders, rescheduleReminders } from '../reminders/schedule-reminders.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { type BookingRow, toBooking } from './booking-rows.js';
import type { Booking } from './booking-view.js';

/**
 * Writes a change to a booking read earlier in the same transaction: version
 * bumped, `updated_at` stamped, and the event recorded beside it. The UPDATE
 * names the version it read, so a writer that got there first is never
 * overwritten (no lost update): this one fails with `409 version_conflict`.
 */
export async function applyBookingChange(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  row: BookingRow,
  change: Partial<Omit<BookingsTable, 'uid' | 'version' | 'updated_at'>>,
  event: EventName,
  payload: (booking: Booking) => Record<string, unknown> = (booking) => ({ ...booking }),
): Promise<Booking> {
  const now = toTimestamp(deps.clock.now());
  // The booking's calendar event follows every change (moved, renamed, removed on cancel).
  const owes = owesCalendarWrite(row, change.calendar_sync_status);
  const stamped = { ...change, ...(owes ? { calendar_sync_status: 'pending' as const } : {}), version: row.version + 1, updated_at: now };
  const result = await trx
    .updateTable('bookings')
    .set(stamped)
    .where('uid', '=', row.uid)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new ScheduleError('version_conflict', 'The booking changed while this request ran; read it and retry.', {
      current_version: row.version + 1,
    });
  }
  if (owes) await queueCalendarSync(trx, row.uid, now);
  // A moved booking moves its co-hosts' blocked time with it (booking_hosts keeps the times for their index).
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent: for a booking without co-hosts, or a change that keeps its times, the update changes no row.
  if (change.start_at !== undefined && row.co_hosts_json !== '[]') {
    await trx
      .updateTable('booking_hosts')
      .set({ start_at: change.start_at, end_at: change.end_at ?? row.end_at })
      .where('booking_uid', '=', row.uid)
      .execute();
  }
  // Its reminders follow a change of its time, status, hosts or attendee (a move moves them, a cancel drops them).
  if (changesReminders(change)) await rescheduleReminders(trx, deps, { ...row, ...stamped });
  const booking = toBooking({ ...row, ...stamped }, 'single');
  await recordEvent(trx, deps, event, booking.uid, payload(booking));
  return booking;
}
