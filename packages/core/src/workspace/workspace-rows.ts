import { newBookingRow } from '../bookings/new-booking.js';
import { fingerprintOf } from '../canonical-json.js';
import type { Calendar } from '../event-types/calendar.js';
import { isUuid, stableUuid } from '../ids.js';
import type { BookingsTable } from '../storage/schema.js';
import { parseInstant, toTimestamp } from '../time.js';
import type { EventTypeRef, UserRef } from './workspace-refs.js';
import type { WorkspaceBooking, WorkspaceToken, WorkspaceUser } from './workspace-schema.js';

// One mapper a table: what a workspace entry stores, given the references
// resolved before anything is written (workspace-refs.ts).

/** A calendar account added through the API (its password sealed): the file neither holds nor removes it. */
export function addedThroughApi(calendar: Calendar): calendar is Extract<Calendar, { kind: 'caldav' }> {
  // Stryker disable next-line ConditionalExpression: only a CalDAV account has a password to seal; the kind test narrows the type
  return calendar.kind === 'caldav' && calendar.password_sealed !== undefined;
}

/**
 * A user's row. `storedCalendars` are the calendars stored before this load:
 * the accounts added through the API among them (their passwords sealed)
 * are kept after the file's own, since the file does not hold them and
 * reloading it must not remove them (docs/calendars.md). One the file names
 * by the same id is the file's. The working hours are not in it: they are
 * written as the API writes them, versioned (loadWorkingHours).
 */
export function userRow(user: WorkspaceUser, users: ReadonlyMap<string, UserRef>, storedCalendars: readonly Calendar[]) {
  // Stryker disable next-line ConditionalExpression: only a CalDAV account has an id (the schema strips others'); the test narrows the type
  const fileIds = new Set(user.calendars.map((c) => (c.kind === 'caldav' ? c.id : undefined)));
  const added = storedCalendars.filter((c) => addedThroughApi(c) && !fileIds.has(c.id));
  return {
    username: user.username,
    email: user.email,
    name: users.get(user.username)!.name,
    timezone: user.timezone,
    role: user.role,
    reminders: user.reminders ? 1 : 0,
    manages_json: JSON.stringify(user.manages.map((m) => users.get(m)!.id)),
    calendars_json: JSON.stringify([...user.calendars, ...added]),
  };
}

/** A token's row but for its secret hash and revocation, which depend on what is stored. */
export function tokenRow(token: WorkspaceToken, userId: string) {
  return {
    name: token.name,
    user_id: userId,
    scopes_json: JSON.stringify(token.scopes),
    oauth_client_id: token.oauth_client_id ?? null,
    expires_at: token.expires_at ? toTimestamp(parseInstant(token.expires_at)!.epochMs) : null,
  };
}

/**
 * An imported booking's row, made as every new booking is, then with the
 * file's status and a fingerprint of its entry (`import_hash`). Its host
 * and event type are resolved here; one that cannot be is added to
 * `problems` and gives no row.
 */
export function importedBookingRow(
  booking: WorkspaceBooking,
  index: number,
  users: ReadonlyMap<string, UserRef>,
  eventTypes: readonly EventTypeRef[],
  problems: string[],
  now: string,
): BookingsTable | undefined {
  const at = `bookings[${index}]`;
  const hostFromRef = booking.host ? users.get(booking.host) : undefined;
  if (booking.host && !hostFromRef) {
    problems.push(`${at}.host: no user "${booking.host}"`);
    return undefined;
  }
  const candidates = isUuid(booking.event_type)
    ? eventTypes.filter((e) => e.id === booking.event_type)
    : eventTypes.filter((e) => e.slug === booking.event_type && (!hostFromRef || e.ownerId === hostFromRef.id));
  if (candidates.length !== 1) {
    problems.push(
      `${at}.event_type: ${candidates.length === 0 ? 'no event type' : 'more than one event type (name the host)'} "${booking.event_type}"`,
    );
    return undefined;
  }
  const eventType = candidates[0]!;
  // Every event type's owner is a user: a stored one by its foreign key, a file's one refused unless resolved.
  const host = hostFromRef ?? [...users.values()].find((u) => u.id === eventType.ownerId)!;
  const { attendee } = booking;
  const canceled = booking.status === 'canceled';
  const row = newBookingRow(
    {
      uid: booking.uid ?? stableUuid(`booking:${host.id}:${booking.start}:${attendee.email}`),
      eventType,
      host,
      startMs: parseInstant(booking.start)!.epochMs,
      timezone: booking.timezone,
      // Stored as imports always were: without the file's attendee phone.
      attendee: {
        email: attendee.email,
        name: attendee.name,
        first_name: attendee.first_name,
        last_name: attendee.last_name,
        timezone: attendee.timezone,
      },
      guests: booking.guests,
      location: booking.location ?? { type: 'conference', url: null, value: null },
      metadata: booking.metadata,
      responses: booking.responses,
    },
    now,
  );
  return {
    ...row,
    status: booking.status,
    // A booking made elsewhere is already on its host's calendars, if the host has any.
    calendar_sync_status: host.calendars.length > 0 ? 'synced' : 'not_applicable',
    cancelled_at: canceled ? toTimestamp(parseInstant(booking.cancelled_at ?? booking.start)!.epochMs) : null,
    cancellation_reason: canceled ? (booking.cancellation_reason ?? null) : null,
    import_hash: fingerprintOf(booking),
  };
}
