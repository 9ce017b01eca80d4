import type { Principal } from '../auth/principal.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { blockingBookings, loadHostTime, policyOf } from '../availability/load-host-time.js';
import { checkStart } from '../availability/slot-rules.js';
import type { Clock } from '../clock.js';
import type { ConferenceLinks } from '../conference-links.js';
import { ScheduleError } from '../errors.js';
import { bookingLocationOf } from '../event-types/booking-location.js';
import { checkAnswers } from '../event-types/questions.js';
import { type EventTypeWithHost, resolveEventType } from '../event-types/resolve-event-type.js';
import type { IdGenerator } from '../ids.js';
import { outboxRow } from '../outbox/record-event.js';
import { notificationRows } from '../outbox/record-notification.js';
import { lockHost } from '../storage/host-lock.js';
import type { Dialect, Executor } from '../storage/store.js';
import { MINUTE_MS, parseInstant, toTimestamp } from '../time.js';
import { type CreateBookingBody, eventTypeRefOf } from './booking-input.js';
import { bookingMail } from './booking-mail.js';
import { toBooking } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { newBookingRow } from './new-booking.js';
import { writeNewBooking } from './write-new-booking.js';

export interface BookingWriteDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly calendars: CalendarReader;
  readonly conferenceLinks: ConferenceLinks;
  readonly dialect: Dialect;
}

/**
 * Refuses a start the host is not free at, with the reason in `details`
 * (docs/api/choices.md: grid, working hours, notice and horizon all answer
 * `409 slot_unavailable`, as `GET /v1/slots` would not list it).
 */
export function unavailable(reason: string): ScheduleError {
  return new ScheduleError('slot_unavailable', 'The host is not free at this time.', { reason });
}

/**
 * True when no booking of the host that blocks time (confirmed, or pending
 * before its deadline) overlaps the slot widened by its buffers. Run inside the write transaction: it takes the host's lock first,
 * so that this check and the write that follows are one step. This is the
 * check that makes double booking impossible; earlier reads only give the
 * caller a precise reason.
 */
export async function isStillFree(
  trx: Executor,
  deps: { readonly dialect: Dialect; readonly clock: Clock },
  hostId: string,
  eventType: Pick<EventTypeWithHost, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
  slot: { startMs: number; endMs: number },
  exceptUid?: string,
): Promise<boolean> {
  await lockHost(trx, deps.dialect, hostId);
  return (await blockingBookings(trx, hostId, widen(eventType, slot), deps.clock.now(), exceptUid)).length === 0;
}

/** The time a booking of this event type keeps the host from other bookings: the slot and its buffers. */
function widen(
  eventType: Pick<EventTypeWithHost, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
  slot: { startMs: number; endMs: number },
): { startMs: number; endMs: number } {
  return {
    startMs: slot.startMs - eventType.bufferBeforeMinutes * MINUTE_MS,
    endMs: slot.endMs + eventType.bufferAfterMinutes * MINUTE_MS,
  };
}

/** isStillFree, refusing with `409 slot_unavailable` when the slot was taken. */
export async function assertStillFree(...args: Parameters<typeof isStillFree>): Promise<void> {
  if (!(await isStillFree(...args))) throw unavailable('slot_busy');
}

/** Validates a create against the event type and the host's time, before any write. */
export async function prepareBooking(
  deps: BookingWriteDeps & { db: Executor },
  principal: Principal,
  body: CreateBookingBody,
): Promise<{ eventType: EventTypeWithHost; startMs: number; endMs: number }> {
  const eventType = await resolveEventType(deps.db, principal, eventTypeRefOf(body));
  checkAnswers(eventType.questions, body.responses);
  if (eventType.status !== 'on') throw new ScheduleError('event_type_inactive', 'This event type is not taking bookings.', {});
  const startMs = parseInstant(body.start)!.epochMs;
  if (startMs < deps.clock.now()) throw new ScheduleError('slot_in_past', 'The start is in the past.', {});
  const endMs = startMs + eventType.durationMinutes * MINUTE_MS;
  // The host's bookings are checked once, in the write under the host's lock (insertBooking).
  const time = await loadHostTime(deps, policyOf(eventType), eventType.host, { startMs, endMs }, { withBookings: false });
  const check = checkStart(time, startMs);
  if (!check.available) throw unavailable(check.reason);
  return { eventType, startMs, endMs };
}

/**
 * Inserts the booking, with its event and mail, once the slot is confirmed
 * free: `booking.created` and `booking_created`, or for an event type that
 * requires confirmation a `pending` booking with `booking.requested` and
 * `booking_requested` (the host asked to answer, the attendee told to wait).
 */
export async function insertBooking(
  trx: Executor,
  deps: BookingWriteDeps,
  body: CreateBookingBody,
  prepared: { eventType: EventTypeWithHost; startMs: number; endMs: number },
): Promise<Booking> {
  const { eventType, startMs, endMs } = prepared;
  const uid = deps.ids.uuid();
  const utm = Object.fromEntries(
    (['utm_source', 'utm_medium', 'utm_campaign'] as const).filter((k) => body[k] !== undefined).map((k) => [k, body[k]]),
  );
  const row = newBookingRow(
    {
      uid,
      eventType,
      host: eventType.host,
      startMs,
      timezone: body.timezone,
      attendee: body.attendee,
      guests: body.guests,
      location: bookingLocationOf(eventType.location, deps.conferenceLinks, uid),
      metadata: { ...body.metadata, ...utm },
      responses: body.responses,
      status: eventType.requiresConfirmation ? 'pending' : 'confirmed',
    },
    toTimestamp(deps.clock.now()),
  );
  // The view is built from what is written; reading the row back would only repeat it.
  const booking = toBooking(
    { ...row, host_username: eventType.host.username, host_email: eventType.host.email, event_type_slug: eventType.slug },
    // Stryker disable next-line StringLiteral: only 'list' changes the view (no responses); any other value gives this single view.
    'single',
  );
  // Stryker disable next-line ObjectLiteral: speed only: without these bookingMail reads the same host, event type name and mail setting itself (the line's StringLiteral mutant is killed).
  const requested = eventType.requiresConfirmation;
  const mail = await bookingMail(trx, requested ? 'booking_requested' : 'booking_created', booking, {
    eventTypeName: eventType.name,
    host: eventType.host,
    attendeeMail: eventType.attendeeMail,
  });
  await lockHost(trx, deps.dialect, eventType.host.id);
  const written = await writeNewBooking(
    trx,
    deps.dialect,
    { row, event: outboxRow(deps, requested ? 'booking.requested' : 'booking.created', uid, booking), mail: notificationRows(deps, mail) },
    widen(eventType, { startMs, endMs }),
  );
  if (!written) throw unavailable('slot_busy');
  return booking;
}
