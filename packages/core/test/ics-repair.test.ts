import { describe, expect, it } from 'vitest';
import { busyWithin } from '../src/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../src/availability/adapters/ics/parse-feed.js';
import { logicalLines, repairLine, splitCalendars } from '../src/availability/adapters/ics/repair-lines.js';
import { ianaZoneOf } from '../src/availability/adapters/ics/zones.js';

const calendar = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, ...lines, 'END:VEVENT'];
const iso = (ms: number) => new Date(ms).toISOString();
const busyOf = (text: string, from: string, to: string, host = 'UTC') =>
  busyWithin(parseFeed(text).series, { startMs: Date.parse(from), endMs: Date.parse(to) }, host).map((b) => [iso(b.startMs), iso(b.endMs)]);

describe('lines as producers write them', () => {
  it('unfolds CRLF and LF continuations and drops blank lines', () => {
    expect(logicalLines('A:one\r\n two\n\tthree\r\n\r\nB:x\rC:y')).toEqual(['A:onetwothree', 'B:x', 'C:y']);
  });

  it.each([
    ['DTSTART:20190101', 'DTSTART;VALUE=DATE:20190101'],
    ['EXDATE:20200116,20200117', 'EXDATE;VALUE=DATE:20200116,20200117'],
    ['RECURRENCE-ID;TZID=Europe/Berlin:20200914', 'RECURRENCE-ID;TZID=Europe/Berlin;VALUE=DATE:20200914'],
    ['DTSTART;VALUE=DATE:20190101', 'DTSTART;VALUE=DATE:20190101'],
    ['DTSTART:20190101T100000Z ', 'DTSTART:20190101T100000Z'],
    ['RRULE:FREQ=WEEKLY;BYDAY=MO, TU ;COUNT=3', 'RRULE:FREQ=WEEKLY;BYDAY=MO,TU;COUNT=3'],
    ['ATTENDEE;CN="Doe: John";ROLE=REQ:mailto:j@example.com', 'ATTENDEE;CN="Doe: John";ROLE=REQ:mailto:j@example.com'],
    ['SUMMARY:Lunch = food', 'SUMMARY:Lunch = food'],
  ])('mends %s', (line, mended) => {
    expect(repairLine(line)).toBe(mended);
  });

  it.each(['EXDATE;VALUE=DATE:', 'RDATE:  ', 'SUMMARY=Lunch', 'second line of a description that lost its fold', '<html>'])(
    'leaves out %s',
    (line) => {
      expect(repairLine(line)).toBeUndefined();
    },
  );

  it('cuts calendars into properties and components, ignoring what lies outside them', () => {
    const text = `junk before\r\n${calendar('PRODID:-//x//y', ...event('a', 'DTSTART:20260105T100000Z'))}BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n${calendar(...event('b', 'DTSTART:20260106T100000Z'))}`;
    const calendars = splitCalendars(text);
    expect(calendars.map((c) => c.properties)).toEqual([
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y\r\nEND:VCALENDAR',
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR',
    ]);
    expect(calendars.map((c) => c.blocks.map((b) => [b.name, b.uid]))).toEqual([[['VEVENT', 'a']], [['VEVENT', 'b']]]);
  });
});

describe('one event that cannot be read costs only itself', () => {
  const good = event('good', 'DTSTART:20260105T100000Z', 'DTEND:20260105T110000Z');

  it.each([
    ['no DTSTART', event('bad', 'SUMMARY:x', 'DTEND:20260105T110000Z'), 'no_start'],
    ['a DTSTART that is no time', event('bad', 'DTSTART:tomorrow'), 'bad_value'],
    ['a rule that is no rule', event('bad', 'DTSTART:20260105T100000Z', 'RRULE:FREQ=SOMETIMES'), 'unparseable'],
    ['an EXDATE that is no time', event('bad', 'DTSTART:20260105T100000Z', 'RRULE:FREQ=DAILY', 'EXDATE:20260107T1000'), 'bad_value'],
  ])('%s', (_name, bad, reason) => {
    const feed = parseFeed(calendar(...bad, ...good));
    expect(feed.skipped).toEqual([{ uid: 'bad', reason }]);
    expect(feed.events).toBe(1);
    expect(busyOf(calendar(...bad, ...good), '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toEqual([
      ['2026-01-05T10:00:00.000Z', '2026-01-05T11:00:00.000Z'],
    ]);
  });

  it('an event without a UID is named by its place', () => {
    expect(parseFeed(calendar('BEGIN:VEVENT', 'SUMMARY:x', 'END:VEVENT')).skipped).toEqual([{ uid: 'no-uid-0-0', reason: 'no_start' }]);
  });

  it('a VTIMEZONE that cannot be read leaves its IANA TZID read by IANA rules', () => {
    const text = calendar(
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:STANDARD',
      'DTSTART:garbage',
      'END:STANDARD',
      'END:VTIMEZONE',
      ...event('a', 'DTSTART;TZID=Europe/Berlin:20260105T100000', 'DURATION:PT1H'),
    );
    expect(busyOf(text, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toEqual([
      ['2026-01-05T09:00:00.000Z', '2026-01-05T10:00:00.000Z'],
    ]);
  });
});

describe('zones', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['/mozilla.org/20070129_1/Europe/Berlin', 'Europe/Berlin'],
    ['/citadel.org/20190914_1/America/New_York', 'America/New_York'],
    ['/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['UTC', 'UTC'],
    ['W. Europe Standard Time', undefined],
    ['EST', undefined],
    ['Berlin-Custom', undefined],
    [undefined, undefined],
  ])('%s names IANA zone %s', (tzid, zone) => {
    expect(ianaZoneOf(tzid)).toBe(zone);
  });

  // A VTIMEZONE as iCalcreator writes it: each onset listed by DTSTART and RDATE, no RRULE.
  const rdateZone = (tzid: string) => [
    'BEGIN:VTIMEZONE',
    `TZID:${tzid}`,
    'BEGIN:STANDARD',
    'DTSTART:20251026T030000',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'RDATE:20261025T030000',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:20260329T020000',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
  ];
  const berlinDays = (tzid: string) =>
    calendar(
      ...rdateZone(tzid),
      ...event('before-first-onset', `DTSTART;TZID=${tzid}:20251015T100000`, 'DURATION:PT1H'),
      ...event('winter', `DTSTART;TZID=${tzid}:20260115T100000`, 'DURATION:PT1H'),
      ...event('summer', `DTSTART;TZID=${tzid}:20260615T100000`, 'DURATION:PT1H'),
      ...event('next-winter', `DTSTART;TZID=${tzid}:20261215T100000`, 'DURATION:PT1H'),
    );
  const BERLIN_TEN_AM = [
    ['2025-10-15T08:00:00.000Z', '2025-10-15T09:00:00.000Z'],
    ['2026-01-15T09:00:00.000Z', '2026-01-15T10:00:00.000Z'],
    ['2026-06-15T08:00:00.000Z', '2026-06-15T09:00:00.000Z'],
    ['2026-12-15T09:00:00.000Z', '2026-12-15T10:00:00.000Z'],
  ];

  it.each(['Europe/Berlin', 'Berlin-Custom'])(
    'a VTIMEZONE of RDATE onsets named %s gives the right offsets, before its first onset too',
    (tzid) => {
      expect(busyOf(berlinDays(tzid), '2025-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 'America/New_York')).toEqual(BERLIN_TEN_AM);
    },
  );

  it("an IANA TZID is read by IANA's rules even where the feed's VTIMEZONE says otherwise", () => {
    // A stale definition: daylight time never ends.
    const stale = calendar(
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:DAYLIGHT',
      'DTSTART:19700329T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
      ...event('winter', 'DTSTART;TZID=Europe/Berlin:20260115T100000', 'DURATION:PT1H'),
    );
    expect(busyOf(stale, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toEqual([
      ['2026-01-15T09:00:00.000Z', '2026-01-15T10:00:00.000Z'],
    ]);
  });

  it("a DATE in the EXDATE of a timed series removes that day's occurrence", () => {
    const text = calendar(
      ...event('a', 'DTSTART;TZID=America/New_York:20260105T090000', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20260106'),
    );
    expect(busyOf(text, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toEqual([
      ['2026-01-05T14:00:00.000Z', '2026-01-05T15:00:00.000Z'],
      ['2026-01-07T14:00:00.000Z', '2026-01-07T15:00:00.000Z'],
    ]);
  });
});
