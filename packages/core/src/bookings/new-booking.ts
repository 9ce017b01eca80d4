import { type Calendar, receivesBookings } from '../event-types/calendar.js';
import type { BookingsTable, CalendarSyncStatus } from '../storage/schema.js';
import { MINUTE_MS, toTimestamp } from '../time.js';
import { bookingTitle, displayName } from './attendee-name.js';

/** Where a booking meets (docs/api `location`). */
export interface BookingLocation {
  readonly type: string;
  readonly url: string | null;
  readonly value: string | null;
}

/** A guest as a booker names one: an email, or an email and a name. */
export type GuestInput = string | { readonly email: string; readonly name?: string | undefined };

/** A new booking as whoever makes it describes it: a create, a series occurrence, a workspace import. */
export interface NewBooking {
  readonly uid: string;
  readonly eventType: { readonly id: string; readonly name: string; readonly durationMinutes: number };
  readonly host: { readonly id: string; readonly name: string; readonly calendars: readonly Calendar[] };
  /** The other hosts who meet the attendee (a collective type's, round robin's fixed hosts); none when not given. */
  readonly coHosts?: readonly { readonly id: string; readonly username: string; readonly email: string }[];
  readonly startMs: number;
  /** The booking's zone; when not given, the attendee's, else UTC. */
  readonly timezone?: string | undefined;
  readonly attendee: {
    readonly email: string;
    readonly name?: string | undefined;
    readonly first_name?: string | undefined;
    readonly last_name?: string | undefined;
    /** The attendee's own zone; when not given, the booking's. */
    readonly timezone?: string | undefined;
    readonly phone?: string | undefined;
    readonly sms_opt_in?: boolean | undefined;
  };
  readonly guests?: readonly GuestInput[];
  readonly location: BookingLocation;
  /** `pending` for a type that requires the host's confirmation; `confirmed` when not given. */
  readonly status?: 'confirmed' | 'pending';
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly responses?: Readonly<Record<string, unknown>> | undefined;
  /** For an occurrence: its series, the pattern instant it holds and the held occurrence it replaces. */
  readonly occurrence?: {
    readonly seriesUid: string;
    readonly patternInstantMs: number;
    readonly rescheduledFromUid: string | null;
  };
}

/**
 * Where a new booking of this host stands with its calendars
 * (docs/calendars.md "Bookings written back"): a CalDAV account that
 * receives bookings gets it written after commit (`pending` until then); a
 * static calendar is kept by the service itself, so the booking is on it as
 * it commits (`synced`); a host whose calendars take no bookings, or who has
 * none, has nothing to sync (`not_applicable`).
 */
export function syncStatusFor(host: { readonly calendars: readonly Calendar[] }): CalendarSyncStatus {
  const receiving = host.calendars.filter(receivesBookings);
  if (receiving.some((c) => c.kind === 'caldav')) return 'pending';
  return receiving.length > 0 ? 'synced' : 'not_applicable';
}

/**
 * The row of a new booking, whoever makes it: confirmed (or pending, when said), version 1, created
 * `now`, nothing canceled or imported. The booker is the first and only
 * attendee; phone and SMS consent are kept with them, though the Booking
 * view does not show them.
 */
export function newBookingRow(booking: NewBooking, now: string): BookingsTable {
  const { attendee, occurrence } = booking;
  const name = displayName(attendee);
  const timezone = booking.timezone ?? attendee.timezone ?? 'UTC';
  return {
    uid: booking.uid,
    version: 1,
    event_type_id: booking.eventType.id,
    host_user_id: booking.host.id,
    title: bookingTitle(booking.eventType.name, booking.host.name, name),
    status: booking.status ?? 'confirmed',
    start_at: toTimestamp(booking.startMs),
    end_at: toTimestamp(booking.startMs + booking.eventType.durationMinutes * MINUTE_MS),
    timezone,
    attendee_email: attendee.email,
    attendees_json: JSON.stringify([
      {
        email: attendee.email,
        name,
        timezone: attendee.timezone ?? timezone,
        // Kept only when given: JSON leaves out what is undefined.
        phone: attendee.phone,
        sms_opt_in: attendee.sms_opt_in,
      },
    ]),
    guests_json: JSON.stringify((booking.guests ?? []).map((g) => (typeof g === 'string' ? { email: g } : g))),
    location_json: JSON.stringify(booking.location),
    metadata_json: JSON.stringify(booking.metadata ?? {}),
    responses_json: booking.responses ? JSON.stringify(booking.responses) : null,
    calendar_sync_status: syncStatusFor(booking.host),
    calendar_event_id: '',
    rescheduled_from_uid: occurrence?.rescheduledFromUid ?? null,
    cancelled_at: null,
    cancellation_reason: null,
    no_show_at: null,
    no_show_reason: null,
    series_uid: occurrence?.seriesUid ?? null,
    pattern_instant: occurrence ? toTimestamp(occurrence.patternInstantMs) : null,
    moved_by_invitee: 0,
    import_hash: null,
    canceled_by: null,
    co_hosts_json: JSON.stringify((booking.coHosts ?? []).map((h) => ({ user_id: h.id, username: h.username, email: h.email }))),
    created_at: now,
    updated_at: now,
  };
}
