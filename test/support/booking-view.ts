import { expect } from 'vitest';
import { EVENT_TYPES, type FixtureBooking, USER_EMAILS, USERNAMES } from './workspace.js';

/** ISO 8601 UTC with milliseconds (docs/api/overview.md "Instants, dates and zones"). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The docs/api Booking an imported fixture booking must show as, field by
 * field. `responses` is null in lists and populated (an object) on a single
 * booking. Fields the spec leaves to the implementation (the title text, the
 * calendar event id) are checked for type only; timestamps for their format.
 */
export function expectedBooking(b: FixtureBooking, detail: 'list' | 'single', version = 1): Record<string, unknown> {
  return {
    uid: b.uid,
    version,
    event_type_id: b.eventTypeId,
    event_type_slug: EVENT_TYPES[b.host].slug,
    title: expect.any(String),
    status: b.status,
    start_at: b.startAt,
    end_at: b.endAt,
    timezone: 'Europe/London',
    host: { user_id: b.hostId, username: USERNAMES[b.host], email: USER_EMAILS[b.host] },
    hosts: [{ user_id: b.hostId, username: USERNAMES[b.host], email: USER_EMAILS[b.host] }],
    attendees: [{ email: b.attendeeEmail, name: b.attendeeName, timezone: 'Europe/London' }],
    guests: [],
    location: { type: 'conference', url: null, value: null },
    metadata: b.metadata,
    responses: detail === 'list' ? null : (b.responses ?? {}),
    // docs/workspace.md: a host without calendars has `not_applicable`.
    calendar_sync_status: 'not_applicable',
    calendar_event_id: expect.any(String),
    rescheduled_from_uid: null,
    cancelled_at: b.cancelledAt,
    cancellation_reason: b.cancellationReason,
    no_show_at: null,
    no_show_reason: null,
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: expect.stringMatching(TIMESTAMP),
  };
}

/** Fixture bookings in the order a `sort` puts them (ties by uid, as any keyset order must break them somehow). */
export function sortedByStart(bookings: readonly FixtureBooking[], direction: 'asc' | 'desc'): FixtureBooking[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...bookings].sort((a, b) => sign * (a.startAt.localeCompare(b.startAt) || a.uid.localeCompare(b.uid)));
}

export function uids(items: readonly { uid: string }[]): string[] {
  return items.map((i) => i.uid);
}
