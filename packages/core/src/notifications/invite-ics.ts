// The iCalendar invite a mail carries (RFC 5545 text, iTIP methods of RFC
// 5546). Written here rather than with ical.js: core builds the invite on
// every send, and ical.js is an optional dependency an embedder without
// calendar feeds need not install. The output is checked by parsing it back
// with ical.js in the tests.

import { bookingEventUid } from '../booking-event-uid.js';

const CRLF = '\r\n';
/** RFC 5545 §3.1: a content line is at most 75 octets, the line break not counted. */
const MAX_LINE_OCTETS = 75;

/** The iTIP method: REQUEST adds or moves the event in the recipient's calendar, CANCEL removes it. */
export type InviteMethod = 'REQUEST' | 'CANCEL';

export interface InvitePerson {
  readonly email: string;
  readonly name?: string | undefined;
}

/** One meeting in an invite. */
export interface InviteEvent {
  /** Stable for the meeting across every mail about it: that is how a calendar finds the event to move or remove. */
  readonly uid: string;
  /** Grows with every change; a calendar ignores a message older than what it has. */
  readonly sequence: number;
  /** Instants (ISO 8601); written in UTC, so no VTIMEZONE is needed. */
  readonly start: string;
  readonly end: string;
  /** When this version of the invite was made: the change's time, so that every retry sends the same text. */
  readonly stamp: string;
  readonly summary: string;
  readonly description?: string | undefined;
  readonly location?: string | null | undefined;
  readonly url?: string | null | undefined;
  readonly status: 'CONFIRMED' | 'CANCELLED';
  readonly organizer: InvitePerson;
  readonly attendees: readonly (InvitePerson & { readonly partstat: 'ACCEPTED' | 'NEEDS-ACTION' })[];
  /** Minutes before the start at which the recipient's calendar alarms (a VALARM each, docs/reminders.md). */
  readonly alarms?: readonly number[] | undefined;
}

/** The UID a booking's event has in every calendar: the booking's own id, the same in every mail about it. */
export const inviteUid = bookingEventUid;

/** A TEXT value (§3.3.11): backslash, semicolon, comma and line breaks escaped. */
export function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * A parameter value (§3.2): quoted when it holds `:`, `;` or `,`. A double
 * quote cannot appear in one at all, and control characters are not
 * allowed, so those are replaced.
 */
export function paramValue(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what §3.1 forbids here.
  const clean = value.replace(/"/g, "'").replace(/[\u0000-\u001f\u007f]/g, ' ');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * Folds a content line (§3.1): after at most 75 octets a CRLF and one space,
 * the space counting toward the next line's 75. A line is cut between
 * characters, never inside a UTF-8 sequence (nor between the halves of a
 * surrogate pair), so each piece stays valid UTF-8.
 */
export function foldLine(line: string): string {
  const pieces: string[] = [];
  let piece = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > MAX_LINE_OCTETS) {
      pieces.push(piece);
      piece = ' ';
      octets = 1;
    }
    piece += char;
    octets += size;
  }
  pieces.push(piece);
  return pieces.join(CRLF);
}

/** A UTC DATE-TIME (§3.3.5, form 2): `20260329T010000Z`. */
export function utcDateTime(instant: string): string {
  const iso = new Date(instant).toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

function line(name: string, value: string, params: Record<string, string | undefined> = {}): string {
  const paramText = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, v]) => `;${key}=${paramValue(v)}`)
    .join('');
  return foldLine(`${name}${paramText}:${value}`);
}

function mailto(email: string): string {
  return `mailto:${email}`;
}

function eventLines(event: InviteEvent, stored: StoredEventOptions = {}): string[] {
  const agent = { 'SCHEDULE-AGENT': stored.scheduleAgent };
  return [
    'BEGIN:VEVENT',
    line('UID', escapeText(event.uid)),
    line('SEQUENCE', String(event.sequence)),
    line('DTSTAMP', utcDateTime(event.stamp)),
    line('DTSTART', utcDateTime(event.start)),
    line('DTEND', utcDateTime(event.end)),
    line('SUMMARY', escapeText(event.summary)),
    ...(event.description ? [line('DESCRIPTION', escapeText(event.description))] : []),
    ...(event.location ? [line('LOCATION', escapeText(event.location))] : []),
    // URL is a URI value, not TEXT: written as it is.
    ...(event.url ? [line('URL', event.url)] : []),
    line('STATUS', event.status),
    line('TRANSP', 'OPAQUE'),
    line('ORGANIZER', mailto(event.organizer.email), { CN: event.organizer.name, ...agent }),
    ...event.attendees.map((a) =>
      line('ATTENDEE', mailto(a.email), { CN: a.name, ROLE: 'REQ-PARTICIPANT', PARTSTAT: a.partstat, RSVP: 'FALSE', ...agent }),
    ),
    ...(event.alarms ?? []).flatMap((minutes) => alarmLines(minutes, event.summary)),
    'END:VEVENT',
  ];
}

/** A DISPLAY alarm `minutes` before the start (§3.6.6): the calendar reminds as the mail does. */
function alarmLines(minutes: number, summary: string): string[] {
  return [
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    line('TRIGGER', durationBefore(minutes), { RELATED: 'START' }),
    line('DESCRIPTION', escapeText(summary)),
    'END:VALARM',
  ];
}

/** A negative DURATION (§3.3.6) of whole minutes: -P1D, -PT1H, -PT1H30M, -P1DT2H, -PT0M. */
export function durationBefore(minutes: number): string {
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  const rest = minutes % 60;
  const time = `${hours > 0 ? `${hours}H` : ''}${rest > 0 ? `${rest}M` : ''}`;
  if (days > 0 && time === '') return `-P${days}D`;
  return `-P${days > 0 ? `${days}D` : ''}T${time === '' ? '0M' : time}`;
}

/**
 * A calendar object for one iTIP message: METHOD, then the one meeting's
 * VEVENT, every line folded and ended with CRLF. One meeting only: an iTIP
 * message holds the components of one UID (RFC 5546 §1.4), and a client
 * given several may import only the first (docs/mail.md).
 */
export function inviteCalendar(method: InviteMethod, event: InviteEvent): string {
  return calendarText([`METHOD:${method}`], [event]);
}

/** How a stored event differs from a mailed one. */
export interface StoredEventOptions {
  /**
   * RFC 6638 §7.1 SCHEDULE-AGENT on the ORGANIZER and every ATTENDEE: `CLIENT`
   * tells a server with implicit scheduling that the writer sends the
   * invitations itself. Never in a mailed invite, which is a scheduling
   * message (§7.1 forbids it there).
   */
  readonly scheduleAgent?: 'CLIENT' | undefined;
}

/**
 * A calendar object as a CalDAV calendar stores it: one event and no METHOD,
 * which RFC 4791 §4.1 forbids in a stored object.
 */
export function storedEventCalendar(event: InviteEvent, options: StoredEventOptions = {}): string {
  return calendarText([], [event], options);
}

function calendarText(head: readonly string[], events: readonly InviteEvent[], stored: StoredEventOptions = {}): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//schedule//schedule//EN',
    'CALSCALE:GREGORIAN',
    ...head,
    ...events.flatMap((event) => eventLines(event, stored)),
    'END:VCALENDAR',
  ];
  return lines.join(CRLF) + CRLF;
}
