import type { Principal } from '../auth/principal.js';
import { type CreateBookingBody, createBookingBodySchema } from '../bookings/booking-input.js';
import type { Booking } from '../bookings/booking-view.js';
import { ScheduleError } from '../errors.js';
import { holderOf } from '../holds/holder.js';
import type { HoldsTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { parseBody } from '../validation/parse-body.js';
import { addDays, dateIn, localTime, startOfDate } from './local-time.js';
import { readOptionId } from './option-id.js';
import type { BookTimeBody } from './times-input.js';
import type { BookingWarning } from './times-view.js';

/** What `book_time` books, from an option's id, and the hold it uses up if any. */
export interface ChosenOption {
  readonly body: CreateBookingBody;
  /** The option's hold, live: the others of its `find_times` are released once it is booked. */
  readonly hold: HoldsTable | undefined;
}

function notAnOption(): ScheduleError {
  return new ScheduleError('validation_error', 'option_id: not an option_id find_times gave.', { fields: ['option_id'] });
}

/**
 * The create an option stands for. A held option's id is its hold's: the
 * caller's own (anyone else's is `404 hold_not_found`), booked with the
 * hold while it lives; once expired, the same start is booked without it,
 * which succeeds while the time is still free. An unheld option's id names
 * the event type and the start.
 */
export async function chosenOption(db: Executor, principal: Principal, body: BookTimeBody, nowMs: number): Promise<ChosenOption> {
  const attendee = { ...body.attendee, timezone: body.attendee.timezone ?? 'UTC' };
  const common = { attendee, guests: body.guests, responses: body.responses };
  const option = readOptionId(body.option_id);
  if (option === undefined) throw notAnOption();
  if ('eventTypeId' in option) {
    return {
      body: parseBody(createBookingBodySchema, { event_type_id: option.eventTypeId, start: option.start, ...common }),
      hold: undefined,
    };
  }
  // A caller without a holder (a booking page's visitor, who has no booking scope) has no holds: no row is ''.
  const hold = await db
    .selectFrom('holds')
    .selectAll()
    .where('id', '=', option.holdId)
    // Stryker disable next-line StringLiteral: equivalent: no hold has any holder but its caller's.
    .where('holder', '=', holderOf(principal) ?? '')
    .executeTakeFirst();
  if (hold === undefined)
    throw new ScheduleError('hold_not_found', 'No hold with this option_id; find_times again.', { option_id: body.option_id });
  const live = hold.expires_at > toTimestamp(nowMs);
  const create = { event_type_id: hold.event_type_id, start: hold.start_at, ...(live ? { hold_id: hold.id } : {}), ...common };
  return { body: parseBody(createBookingBodySchema, create), hold: live ? hold : undefined };
}

/** The other holds of the same `find_times`: the caller's, of its event type, made in the same instant. */
export async function releaseSiblingHolds(trx: Executor, hold: HoldsTable): Promise<void> {
  await trx
    .deleteFrom('holds')
    .where('holder', '=', hold.holder)
    .where('event_type_id', '=', hold.event_type_id)
    .where('created_at', '=', hold.created_at)
    .execute();
}

/**
 * What a model should tell its user about a booking just made: the same
 * attendee already has another meeting with this host on that day (in the
 * attendee's zone), which is most often a double booking by mistake.
 */
export async function bookingWarnings(db: Executor, booking: Booking): Promise<BookingWarning[]> {
  // A booking has its booker as its one attendee (bookings/booking-view.ts).
  const attendee = booking.attendees[0]!;
  const day = dateIn(Date.parse(booking.start_at), attendee.timezone);
  const from = startOfDate(day, attendee.timezone);
  const to = startOfDate(addDays(day, 1), attendee.timezone);
  const others = await db
    .selectFrom('bookings')
    .select(['uid', 'start_at', 'attendee_email'])
    .where('host_user_id', '=', booking.host.user_id)
    .where('start_at', '>=', toTimestamp(from))
    .where('start_at', '<', toTimestamp(to))
    .where('status', 'in', ['confirmed', 'pending'])
    .where('uid', '!=', booking.uid)
    .orderBy('start_at')
    .execute();
  // An address's case says nothing of who it is; the day's bookings of one host are few, so they are compared here.
  const same = others.filter((other) => other.attendee_email.toLowerCase() === attendee.email.toLowerCase());
  return same.map((other) => ({
    code: 'attendee_booked_same_day' as const,
    message: `${attendee.email} already meets ${booking.host.username} that day: booking ${other.uid} at ${localTime(Date.parse(other.start_at), attendee.timezone)}.`,
  }));
}
