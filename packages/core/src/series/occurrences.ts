import { applyBookingChange } from '../bookings/apply-change.js';
import { type BookingRow, selectBookings, toBooking } from '../bookings/booking-rows.js';
import type { Booking } from '../bookings/booking-view.js';
import { insertBookingRow } from '../bookings/insert-booking-row.js';
import { newBookingRow } from '../bookings/new-booking.js';
import type { Clock } from '../clock.js';
import type { ConferenceLinks } from '../conference-links.js';
import { bookingLocationOf } from '../event-types/booking-location.js';
import type { EventTypeLocation } from '../event-types/event-type-fields.js';
import type { HostRecord } from '../event-types/resolve-event-type.js';
import type { IdGenerator } from '../ids.js';
import { recordEvent } from '../outbox/record-event.js';
import { insertNotificationRows } from '../outbox/record-notification.js';
import { reminderRows } from '../reminders/schedule-reminders.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { mailOccurrence, type OccurrenceMail } from './occurrence-mail.js';
import type { SeriesDeps } from './series-deps.js';
import type { SeriesAttendee } from './series-rows.js';
import type { Occurrence } from './series-view.js';

// Occurrences are ordinary bookings (docs/api): these are the few things a
// series does to its bookings, each in the caller's transaction.

/** What every occurrence of one series shares. */
export interface OccurrenceTemplate {
  readonly seriesUid: string;
  readonly eventType: {
    readonly id: string;
    readonly slug: string;
    readonly name: string;
    readonly durationMinutes: number;
    readonly location: EventTypeLocation;
  };
  readonly host: Pick<HostRecord, 'id' | 'username' | 'email' | 'name' | 'timezone' | 'calendars'>;
  readonly attendee: SeriesAttendee;
  readonly timezone: string;
  readonly locationUrl: string | null;
}

/** One occurrence to book: where the pattern put it, and the held one it replaces. */
export interface OccurrenceSlot {
  readonly patternInstantMs: number;
  readonly rescheduledFromUid: string | null;
}

export type OccurrenceDeps = Pick<SeriesDeps, 'clock' | 'ids' | 'conferenceLinks'>;

/**
 * docs/api/choices.md: an occurrence carries the series' fixed link as
 * `link`, else what its event type's location gives a booking
 * (booking-location.ts): by default its own generated conference link.
 */
export function occurrenceLocation(
  links: ConferenceLinks,
  template: Pick<OccurrenceTemplate, 'locationUrl' | 'eventType'>,
  bookingUid: string,
) {
  return template.locationUrl !== null
    ? { type: 'link' as const, url: template.locationUrl, value: null }
    : bookingLocationOf(template.eventType.location, links, bookingUid);
}

/** Books one occurrence (already checked free under the host's lock), records `booking.created`, and queues the attendee's invite. */
export async function bookOccurrence(
  trx: Executor,
  deps: OccurrenceDeps,
  template: OccurrenceTemplate,
  slot: OccurrenceSlot,
  mail: OccurrenceMail,
): Promise<Occurrence> {
  const uid = deps.ids.uuid();
  const { attendee } = template;
  const row = newBookingRow(
    {
      uid,
      eventType: template.eventType,
      host: template.host,
      startMs: slot.patternInstantMs,
      timezone: template.timezone,
      attendee: { email: attendee.email, name: attendee.name, phone: attendee.phone ?? undefined },
      location: occurrenceLocation(deps.conferenceLinks, template, uid),
      occurrence: { seriesUid: template.seriesUid, patternInstantMs: slot.patternInstantMs, rescheduledFromUid: slot.rescheduledFromUid },
    },
    toTimestamp(deps.clock.now()),
  );
  await insertBookingRow(trx, row);
  await insertNotificationRows(trx, reminderRows(deps, row, mail.reminders));
  const booking = toBooking(
    { ...row, host_username: template.host.username, host_email: template.host.email, event_type_slug: template.eventType.slug },
    // Stryker disable next-line StringLiteral: equivalent: toBooking only tells 'list' apart (no responses), so any other detail reads as 'single'.
    'single',
  );
  await recordEvent(trx, deps, 'booking.created', uid, { ...booking, series_uid: template.seriesUid });
  await mailOccurrence(trx, deps, mail, 'booking_created', booking);
  return { uid, start_at: row.start_at, end_at: row.end_at, status: 'confirmed' };
}

/** Which series action canceled an occurrence; kept on the booking so an end's notice lists exactly its own. */
export type CanceledBy = 'pause' | 'update' | 'end';

/** Cancels one occurrence for a series action, version bumped and `booking.canceled` recorded; the booking as it now is. */
export async function cancelOccurrence(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  row: BookingRow,
  canceledBy: CanceledBy,
  reason: string,
): Promise<Booking> {
  return applyBookingChange(
    trx,
    deps,
    row,
    { status: 'canceled', cancelled_at: toTimestamp(deps.clock.now()), cancellation_reason: reason, canceled_by: canceledBy },
    'booking.canceled',
    (booking) => ({ ...booking, reason, series_uid: row.series_uid }),
  );
}

/** The series' confirmed occurrences that have not started, in start order. */
export async function futureOccurrences(db: Executor, seriesUid: string, nowMs: number): Promise<BookingRow[]> {
  return selectBookings(db)
    .where('bookings.series_uid', '=', seriesUid)
    .where('bookings.status', '=', 'confirmed')
    .where('bookings.start_at', '>', toTimestamp(nowMs))
    .orderBy('bookings.start_at')
    .orderBy('bookings.uid')
    .execute();
}

/** One occurrence as it is now, read inside the step that changes it. */
export async function currentOccurrence(trx: Executor, uid: string): Promise<BookingRow | undefined> {
  return selectBookings(trx).where('bookings.uid', '=', uid).executeTakeFirst();
}

/**
 * The pattern instants the series holds: those of its confirmed occurrences,
 * past or future, moved by the invitee or not (docs/api/choices.md: "an occurrence
 * holds the pattern instant it was booked for, even after the invitee moved it").
 */
export async function heldInstants(db: Executor, seriesUid: string): Promise<number[]> {
  const rows = await db
    .selectFrom('bookings')
    .select('pattern_instant')
    .where('series_uid', '=', seriesUid)
    .where('status', '=', 'confirmed')
    .execute();
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent: a booking gets series_uid only from newBookingRow with an occurrence, which sets pattern_instant with it and nothing clears it, so no row here has it null (the check is for the nullable column's type).
  return rows.flatMap((r) => (r.pattern_instant === null ? [] : [Date.parse(r.pattern_instant)]));
}

/**
 * The occurrences an end canceled, for its notice: their instants, and each
 * booking's uid and version (the canceling one), kept in the notice's record.
 */
export async function endedOccurrences(
  db: Executor,
  seriesUid: string,
): Promise<{ start_at: string; end_at: string; uid: string; sequence: number; location_url: string | null }[]> {
  const rows = await db
    .selectFrom('bookings')
    .select(['start_at', 'end_at', 'uid', 'version', 'location_json'])
    .where('series_uid', '=', seriesUid)
    .where('canceled_by', '=', 'end')
    .orderBy('start_at')
    .orderBy('uid')
    .execute();
  return rows.map((r) => ({
    start_at: r.start_at,
    end_at: r.end_at,
    uid: r.uid,
    sequence: r.version,
    location_url: (JSON.parse(r.location_json) as { url: string | null }).url,
  }));
}
