import type { Executor } from '../storage/store.js';
import type { Booking } from './booking-view.js';

/** Bookings joined with what their view shows of the host and event type. */
export function selectBookings(db: Executor) {
  return (
    db
      .selectFrom('bookings')
      .innerJoin('users as host', 'host.id', 'bookings.host_user_id')
      .innerJoin('event_types', 'event_types.id', 'bookings.event_type_id')
      .selectAll('bookings')
      .select(['host.username as host_username', 'host.email as host_email'])
      // The notices a cancel and a reschedule are held to (booking-notice.ts), read with the booking rather than after it.
      .select(['event_types.cancel_notice_minutes', 'event_types.reschedule_notice_minutes'])
      // An archived type's slug column holds `~<id>`; the slug it had is shown (event-type-rows.ts).
      .select((eb) => eb.fn.coalesce('event_types.archived_slug', 'event_types.slug').as('event_type_slug'))
  );
}

export type BookingRow = Awaited<ReturnType<ReturnType<typeof selectBookings>['executeTakeFirstOrThrow']>>;

/** What the view of a booking reads: a new booking's row has no notices read with it, and needs none. */
type ShownRow = Omit<BookingRow, 'cancel_notice_minutes' | 'reschedule_notice_minutes'>;

/** The docs/api Booking of a row, as a list or a single booking shows it (responsesIn). */
export function toBooking(row: ShownRow, detail: 'list' | 'single'): Booking {
  return {
    uid: row.uid,
    version: row.version,
    event_type_id: row.event_type_id,
    event_type_slug: row.event_type_slug,
    title: row.title,
    status: row.status,
    start_at: row.start_at,
    end_at: row.end_at,
    timezone: row.timezone,
    host: hostOf(row),
    hosts: [hostOf(row), ...coHostsOf(row)],
    // Stored attendees may carry more (phone, SMS consent); the view shows what docs/api names.
    attendees: (JSON.parse(row.attendees_json) as Booking['attendees']).map(({ email, name, timezone }) => ({ email, name, timezone })),
    guests: JSON.parse(row.guests_json),
    location: JSON.parse(row.location_json),
    metadata: JSON.parse(row.metadata_json),
    responses: responsesIn(row, detail),
    calendar_sync_status: row.calendar_sync_status,
    calendar_event_id: row.calendar_event_id,
    rescheduled_from_uid: row.rescheduled_from_uid,
    cancelled_at: row.cancelled_at,
    cancellation_reason: row.cancellation_reason,
    no_show_at: row.no_show_at,
    no_show_reason: row.no_show_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The row as it reads once `host` hosts the booking: a change of host writes
 * `host_user_id`, and the view built from the row read before it must show
 * the new host's name and email, not the joined ones it leaves.
 */
export function hostedBy(row: BookingRow, host: { readonly id: string; readonly username: string; readonly email: string }): BookingRow {
  return { ...row, host_user_id: host.id, host_username: host.username, host_email: host.email };
}

const hostOf = (row: ShownRow): Booking['host'] => ({ user_id: row.host_user_id, username: row.host_username, email: row.host_email });

/** The booking's other hosts (bookings.co_hosts_json), as they were when booked. */
export function coHostsOf(row: Pick<ShownRow, 'co_hosts_json'>): Booking['hosts'] {
  return JSON.parse(row.co_hosts_json) as Booking['hosts'];
}

/** `responses` is null in lists and populated (an empty object when none were given) on a single booking. */
function responsesIn(row: ShownRow, detail: 'list' | 'single'): Booking['responses'] {
  switch (detail) {
    case 'list':
      return null;
    case 'single':
      return JSON.parse(row.responses_json ?? '{}');
  }
}
