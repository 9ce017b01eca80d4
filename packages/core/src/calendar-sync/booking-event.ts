import type { Booking } from '../bookings/booking-view.js';
import { type InviteEvent, inviteUid, storedEventCalendar } from '../notifications/invite-ics.js';

/** The host as their calendar's event names them. */
export interface EventHost {
  readonly name: string;
  readonly email: string;
}

/**
 * The calendar object of a booking's event: the UID every mail about the
 * booking carries too (so a calendar that got an invite by mail and this
 * event sees one meeting), SEQUENCE from the booking's version, the host as
 * organizer, the attendee and guests, where to meet, and the booking form's
 * answers in the description, everyone marked SCHEDULE-AGENT=CLIENT. Stamped
 * with `updated_at`, so writing the same state twice writes the same text.
 */
export function bookingEventText(booking: Booking, host: EventHost): string {
  const attendee = booking.attendees[0];
  const where = booking.location.url ?? booking.location.value;
  const event: InviteEvent = {
    uid: inviteUid(booking.uid),
    sequence: booking.version,
    start: booking.start_at,
    end: booking.end_at,
    stamp: booking.updated_at,
    summary: booking.title,
    description: description(booking),
    location: where,
    url: booking.location.url,
    status: 'CONFIRMED',
    organizer: { email: host.email, name: host.name },
    attendees: [
      ...(attendee ? [{ email: attendee.email, name: attendee.name, partstat: 'ACCEPTED' as const }] : []),
      ...booking.guests.map((g) => ({ email: g.email, name: g.name, partstat: 'NEEDS-ACTION' as const })),
    ],
  };
  // Servers with implicit scheduling (RFC 6638: Nextcloud/SabreDAV, iCloud, Fastmail) would otherwise mail
  // their own invitation and cancellation on top of this service's (docs/calendars.md).
  return storedEventCalendar(event, { scheduleAgent: 'CLIENT' });
}

/** Who booked, where to join, and each answer of the booking form on its own line. */
function description(booking: Booking): string {
  const attendee = booking.attendees[0];
  const lines = [attendee ? `Booked by ${attendee.name} <${attendee.email}>` : 'Booked'];
  if (booking.location.url) lines.push(`Join: ${booking.location.url}`);
  for (const [question, answer] of Object.entries(booking.responses ?? {})) {
    lines.push(`${question}: ${typeof answer === 'string' ? answer : JSON.stringify(answer)}`);
  }
  return lines.join('\n');
}
