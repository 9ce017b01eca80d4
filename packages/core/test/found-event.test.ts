import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { foundEventUid, withFoundAlarms } from '../src/calendar-sync/adapters/found-event.js';
import { storedEventCalendar } from '../src/notifications/invite-ics.js';

// What the calendar sync reads of an event found at a booking's name
// (docs/calendars.md "When the calendar app changed the event"), as calendar
// apps save it: a zone first, the UID anywhere, alarms and other parts inside.

const lines = (...rows: string[]) => `${rows.join('\r\n')}\r\n`;

/** What this service writes: one VEVENT, UID first, no alarm. */
const OURS = lines(
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//schedule//schedule//EN',
  'BEGIN:VEVENT',
  'UID:b1@schedule',
  'DTSTAMP:20260601T080000Z',
  'DTSTART:20260603T110000Z',
  'DTEND:20260603T113000Z',
  'SUMMARY:Call',
  'END:VEVENT',
  'END:VCALENDAR',
);

/** The same event as a calendar app saved it: a VTIMEZONE first, the UID after other properties, an alarm and a location component added. */
const SAVED_BY_AN_APP = lines(
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Apple Inc.//macOS 15//EN',
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:STANDARD',
  'DTSTART:19701025T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'END:VTIMEZONE',
  'BEGIN:VEVENT',
  'DTSTAMP:20260601T090000Z',
  'SUMMARY:Renamed in the app',
  'UID:b1@schedule',
  'DTSTART;TZID=Europe/Berlin:20260602T120000',
  'DTEND;TZID=Europe/Berlin:20260602T123000',
  'BEGIN:VLOCATION',
  'UID:room-4',
  'NAME:Room 4',
  'END:VLOCATION',
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  'DESCRIPTION:Reminder',
  'TRIGGER:-PT10M',
  'END:VALARM',
  'END:VEVENT',
  'END:VCALENDAR',
);

const vevent = (text: string) => new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent')!;

describe('foundEventUid', () => {
  it('reads the UID of the event wherever the app put it, after a VTIMEZONE and other properties', () => {
    expect(foundEventUid(SAVED_BY_AN_APP)).toBe('b1@schedule');
    expect(foundEventUid(OURS)).toBe('b1@schedule');
  });

  it('cannot read one from text that is not iCalendar, several objects, no event, or an event without a UID', () => {
    expect(foundEventUid('not iCalendar at all')).toBeUndefined();
    expect(foundEventUid(OURS + OURS)).toBeUndefined();
    expect(foundEventUid(lines('BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//x//EN', 'END:VCALENDAR'))).toBeUndefined();
    expect(foundEventUid(OURS.replace('UID:b1@schedule\r\n', ''))).toBeUndefined();
  });
});

describe('withFoundAlarms', () => {
  it("carries the found event's alarms into ours, and nothing else of it", () => {
    const written = vevent(withFoundAlarms(SAVED_BY_AN_APP, OURS));
    expect({
      summary: written.getFirstPropertyValue('summary'),
      start: String(written.getFirstPropertyValue('dtstart')),
      alarms: written.getAllSubcomponents('valarm').map((a) => String(a.getFirstPropertyValue('trigger'))),
      others: written.getAllSubcomponents().map((c) => c.name),
    }).toEqual({ summary: 'Call', start: '2026-06-03T11:00:00Z', alarms: ['-PT10M'], others: ['valarm'] });
  });

  it('ends every line with CRLF, the last too', () => {
    const written = withFoundAlarms(SAVED_BY_AN_APP, OURS);
    expect(written.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(written.split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
  });

  it('gives ours back unchanged, byte for byte, when there is no alarm to keep or the found text cannot be read', () => {
    expect(withFoundAlarms(OURS.replace('SUMMARY:Call', 'SUMMARY:Renamed'), OURS)).toBe(OURS);
    // Folded by octets as RFC 5545 §3.1 says (ical.js would fold it elsewhere): sent as it is.
    const long = storedEventCalendar({
      uid: 'b1@schedule',
      sequence: 1,
      start: '2026-06-03T11:00:00Z',
      end: '2026-06-03T11:30:00Z',
      stamp: '2026-06-01T08:00:00Z',
      summary: `Réunion ${'é'.repeat(60)}`,
      status: 'CONFIRMED',
      organizer: { email: 'cara@example.com', name: 'Cara Hôte' },
      attendees: [],
    });
    expect(withFoundAlarms(long.replace(/SUMMARY:[^\r]*(\r\n [^\r]*)*/, 'SUMMARY:Other'), long)).toBe(long);
    expect(withFoundAlarms('not iCalendar at all', OURS)).toBe(OURS);
    const noEvent = lines('BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//x//EN', 'END:VCALENDAR');
    expect(withFoundAlarms(SAVED_BY_AN_APP, noEvent)).toBe(noEvent);
  });
});
