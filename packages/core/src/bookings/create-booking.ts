import type { Principal } from '../auth/principal.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { loadHostTime, policyOf, takenTimes, withHostBookings } from '../availability/load-host-time.js';
import { checkStart, type HostTime } from '../availability/slot-rules.js';
import type { Clock } from '../clock.js';
import type { ConferenceLinks } from '../conference-links.js';
import { ScheduleError } from '../errors.js';
import { bookingLocationOf } from '../event-types/booking-location.js';
import { checkAnswers } from '../event-types/questions.js';
import { type EventTypeWithHost, resolveEventType } from '../event-types/resolve-event-type.js';
import type { HoldReader } from '../holds/held-times.js';
import { ownHolds } from '../holds/holder.js';
import { useHold } from '../holds/use-hold.js';
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
import { writeBookingRows, writeNewBooking } from './write-new-booking.js';

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
 * before its deadline), and no live hold of anyone but the reader, overlaps
 * the slot widened by its buffers. Run inside the write transaction: it
 * takes the host's lock first, so that this check and the write that follows
 * are one step. This is the check that makes double booking impossible;
 * earlier reads only give the caller a precise reason.
 */
export async function isStillFree(
  trx: Executor,
  dialect: Dialect,
  hostId: string,
  eventType: Pick<EventTypeWithHost, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
  slot: { startMs: number; endMs: number },
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<boolean> {
  await lockHost(trx, dialect, hostId);
  return (await takenTimes(trx, hostId, widen(eventType, slot), reader)).length === 0;
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

/**
 * Under the host's lock, for a type with limits or seats: the host's
 * bookings read now, judged by the same checkStart as the reads before
 * (`409 slot_unavailable` with its reason when refused).
 */
export async function assertStillBookable(
  trx: Executor,
  time: HostTime,
  host: EventTypeWithHost['host'],
  slot: { startMs: number; endMs: number },
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<void> {
  const check = checkStart(await withHostBookings(trx, time, host, slot, reader), slot.startMs);
  if (!check.available) throw unavailable(check.reason);
}

/** Validates a create against the event type and the host's time, before any write. */
export async function prepareBooking(
  deps: BookingWriteDeps & { db: Executor },
  principal: Principal,
  body: CreateBookingBody,
): Promise<PreparedBooking> {
  const eventType = await resolveEventType(deps.db, principal, eventTypeRefOf(body));
  checkAnswers(eventType.questions, body.responses);
  if (eventType.status !== 'on') throw new ScheduleError('event_type_inactive', 'This event type is not taking bookings.', {});
  const startMs = parseInstant(body.start)!.epochMs;
  const nowMs = deps.clock.now();
  if (startMs < nowMs) throw new ScheduleError('slot_in_past', 'The start is in the past.', {});
  const endMs = startMs + eventType.durationMinutes * MINUTE_MS;
  const holdId = body.hold_id;
  const policy = policyOf(eventType);
  // A hold vouches for the host's time as of when it was made; the write uses it up or refuses (holds/use-hold.ts).
  // A type with limits or seats is judged again in the write whatever vouches for it, from this time.
  const time =
    holdId === undefined || policy.limits !== undefined
      ? await loadHostTime(deps, policy, eventType.host, { startMs, endMs }, { withBookings: false })
      : undefined;
  if (time !== undefined && holdId === undefined) {
    // The host's bookings and holds are checked once, in the write under the host's lock (insertBooking).
    const check = checkStart(time, startMs);
    if (!check.available) throw unavailable(check.reason);
  }
  return { eventType, startMs, endMs, holder: ownHolds(principal), holdId, time };
}

/** A create checked before its write: the event type, the slot, the hold it turns into, and the host's time read. */
export interface PreparedBooking {
  readonly eventType: EventTypeWithHost;
  readonly startMs: number;
  readonly endMs: number;
  /** The caller's holds leave their time free for this booking (holds/holder.ts). */
  readonly holder: string;
  readonly holdId?: string | undefined;
  /** Without bookings; undefined when a hold vouches for a type without limits or seats. */
  readonly time: HostTime | undefined;
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
  prepared: PreparedBooking,
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
  const nowMs = deps.clock.now();
  if (prepared.holdId !== undefined)
    await useHold(trx, prepared.holder, prepared.holdId, { eventTypeId: eventType.id, startMs, endMs, nowMs });
  const reader = { nowMs, holder: prepared.holder };
  const event = outboxRow(deps, requested ? 'booking.requested' : 'booking.created', uid, booking);
  const write = { row, event, mail: notificationRows(deps, mail) };
  if (prepared.time?.policy.limits !== undefined) {
    // Limits and seats count the type's bookings, which the one-statement check cannot: a sequential check, under the same lock.
    await assertStillBookable(trx, prepared.time, eventType.host, { startMs, endMs }, reader);
    await writeBookingRows(trx, write);
    return booking;
  }
  const written = await writeNewBooking(trx, deps.dialect, write, widen(eventType, { startMs, endMs }), reader);
  if (!written) throw unavailable('slot_busy');
  return booking;
}
