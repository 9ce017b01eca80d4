import ICAL from 'ical.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { busyWithin, ExpansionBound } from '../src/availability/adapters/ics/busy-within.js';
import { feedExpansions } from '../src/availability/adapters/ics/feed-expansions.js';
import { parseFeed } from '../src/availability/adapters/ics/parse-feed.js';
import { repairLine, splitCalendars } from '../src/availability/adapters/ics/repair-lines.js';
import type { SkippedEvent } from '../src/availability/adapters/ics/skipped-event.js';
import { windowsZoneOf } from '../src/availability/adapters/ics/zones.js';

// Issue 30, items 1-5: feeds that went dark, or read hours off, for one odd event.

const calendar = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];
const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');
const MARCH = { startMs: Date.parse('2026-03-01T00:00:00Z'), endMs: Date.parse('2026-04-01T00:00:00Z') };
const busyOf = (text: string, host = 'Europe/Berlin', range = MARCH, onSkipped?: (s: SkippedEvent) => void) =>
  busyWithin(parseFeed(text).series, range, host, onSkipped).map((b) => `${iso(b.startMs)}/${iso(b.endMs)}`);
const good = event('UID:good', 'DTSTART:20260310T120000Z', 'DTEND:20260310T130000Z');
const GOOD = '2026-03-10T12:00:00Z/2026-03-10T13:00:00Z';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an event without a UID (issue 30, item 1)', () => {
  it("only a UID of this service's own bookings marks a busy time as a booking's", () => {
    const text = calendar(
      ...event('DTSTART:20260305T140000Z', 'DTEND:20260305T150000Z'),
      ...event('UID:b-1@schedule', 'DTSTART:20260306T140000Z', 'DTEND:20260306T150000Z'),
      ...event('UID:b-2@elsewhere', 'DTSTART:20260307T140000Z', 'DTEND:20260307T150000Z'),
    );
    expect(busyWithin(parseFeed(text).series, MARCH, 'UTC').map((b) => b.bookingUid)).toEqual([undefined, 'b-1', undefined]);
  });

  it('is ordinary busy time, and the feed stays readable for ranges that overlap it', () => {
    const text = calendar(...event('DTSTART:20260305T140000Z', 'DTEND:20260305T150000Z'), ...good);
    expect(busyOf(text)).toEqual(['2026-03-05T14:00:00Z/2026-03-05T15:00:00Z', GOOD]);
  });

  it('recurring, it blocks every occurrence, and two without UIDs are two events, not revisions of one', () => {
    const text = calendar(
      ...event('DTSTART:20260302T080000Z', 'DTEND:20260302T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=2'),
      ...event('DTSTART:20260302T080000Z', 'DTEND:20260302T083000Z', 'SEQUENCE:4'),
    );
    expect(busyOf(text)).toEqual([
      '2026-03-02T08:00:00Z/2026-03-02T08:30:00Z',
      '2026-03-02T08:00:00Z/2026-03-02T09:00:00Z',
      '2026-03-09T08:00:00Z/2026-03-09T09:00:00Z',
    ]);
  });
});

describe('an event whose expansion fails is left out and counted, never the feed (issue 30, item 2)', () => {
  it('an empty RRULE: (a public holiday feed) is no rule: the event stands alone, the transparent one blocks nothing', () => {
    const text = calendar(
      ...event('UID:friday', 'DTSTART;VALUE=DATE:20260403', 'DTEND;VALUE=DATE:20260404', 'RRULE:'),
      ...event('UID:patrick', 'DTSTART;VALUE=DATE:20260317', 'DTEND;VALUE=DATE:20260318', 'RRULE:', 'TRANSP:TRANSPARENT'),
      ...good,
    );
    expect(parseFeed(text).skipped).toEqual([]);
    expect(busyOf(text, 'UTC', { startMs: MARCH.startMs, endMs: Date.parse('2026-05-01T00:00:00Z') })).toEqual([
      GOOD,
      '2026-04-03T00:00:00Z/2026-04-04T00:00:00Z',
    ]);
  });

  it.each([
    ['a rule without FREQ', 'RRULE:COUNT=3'],
    ['BYMONTHDAY in a WEEKLY rule', 'RRULE:FREQ=WEEKLY;BYMONTHDAY=1'],
  ])('%s is left out as unexpandable, the rest read', (_name, rule) => {
    const text = calendar(...event('UID:broken', 'DTSTART:20260303T080000Z', 'DTEND:20260303T090000Z', rule), ...good);
    expect(parseFeed(text).skipped).toEqual([{ uid: 'broken', reason: 'unexpandable' }]);
    expect(busyOf(text)).toEqual([GOOD]);
  });

  it('one that fails midway is left out whole, told by UID, and the rest read', () => {
    const text = calendar(
      ...event('UID:fails-midway', 'DTSTART:20260302T080000Z', 'DTEND:20260302T090000Z', 'RRULE:FREQ=DAILY'),
      ...event('UID:weekly', 'DTSTART:20260302T100000Z', 'DTEND:20260302T110000Z', 'RRULE:FREQ=WEEKLY;COUNT=2'),
    );
    const next = ICAL.RecurExpansion.prototype.next;
    vi.spyOn(ICAL.RecurExpansion.prototype, 'next').mockImplementation(function (this: ICAL.RecurExpansion) {
      const time = next.call(this);
      if (time && time.day === 4 && this.dtstart.hour === 8) throw new Error('max tries have occurred');
      return time;
    });
    const skipped: SkippedEvent[] = [];
    expect(busyOf(text, 'UTC', MARCH, (s) => skipped.push(s))).toEqual([
      '2026-03-02T10:00:00Z/2026-03-02T11:00:00Z',
      '2026-03-09T10:00:00Z/2026-03-09T11:00:00Z',
    ]);
    expect(skipped).toEqual([{ uid: 'fails-midway', reason: 'unexpandable' }]);
  });

  it('one without a UID is told by its place in the feed, as when it cannot be read', () => {
    const text = calendar(...good, ...event('DTSTART:20260302T080000Z', 'DTEND:20260302T090000Z', 'RRULE:FREQ=DAILY'));
    vi.spyOn(ICAL.RecurExpansion.prototype, 'next').mockImplementation(() => {
      throw new Error('max tries have occurred');
    });
    const skipped: SkippedEvent[] = [];
    expect(busyOf(text, 'UTC', MARCH, (s) => skipped.push(s))).toEqual([GOOD]);
    expect(skipped).toEqual([{ uid: 'no-uid-0-1', reason: 'unexpandable' }]);
  });

  it('the bounds still make the whole feed unreadable: busy time past them is unknown, not free', () => {
    const text = calendar(...event('UID:dense', 'DTSTART:20260301T000000Z', 'DTEND:20260301T000001Z', 'RRULE:FREQ=SECONDLY'));
    expect(() => busyOf(text)).toThrow(new ExpansionBound('event dense recurs more than 10000 times before the window ends'));
    expect(() => busyOf(text)).toThrow(expect.objectContaining({ name: 'ExpansionBound' }));
  });

  it('a feed read through its expansions tells each event left out while expanding', () => {
    const text = calendar(...event('UID:fails', 'DTSTART:20260302T080000Z', 'DTEND:20260302T090000Z', 'RRULE:FREQ=DAILY'), ...good);
    vi.spyOn(ICAL.RecurExpansion.prototype, 'next').mockImplementation(() => {
      throw new Error('rule may be impossible to fulfill');
    });
    const skipped: SkippedEvent[] = [];
    const expansions = feedExpansions(parseFeed(text).series, (s) => skipped.push(s));
    expect(expansions.busy(MARCH, 'UTC', () => MARCH).map((b) => iso(b.startMs))).toEqual(['2026-03-10T12:00:00Z']);
    expect(skipped).toEqual([{ uid: 'fails', reason: 'unexpandable' }]);
  });
});

describe('Windows zone names without a matching VTIMEZONE (issue 30, item 3)', () => {
  it.each([
    ['Pacific Standard Time', 'America/Los_Angeles'],
    ['W. Europe Standard Time', 'Europe/Berlin'],
    ['Tokyo Standard Time', 'Asia/Tokyo'],
    ['pacific standard time', 'America/Los_Angeles'],
    ['Pacific Standard Time:', 'America/Los_Angeles'],
    ['Pacific Standard Time::', 'America/Los_Angeles'],
    [' Pacific Standard Time : ', 'America/Los_Angeles'],
    ['Mars Standard Time', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('CLDR maps %j to %s', (windows, iana) => {
    expect(windowsZoneOf(windows)).toBe(iana);
  });

  it('TZID=Pacific Standard Time is Pacific time, 09:00 staying 09:00 across the US change on March 8', () => {
    const text = calendar(
      ...event(
        'UID:w',
        'DTSTART;TZID=Pacific Standard Time:20260302T090000',
        'DTEND;TZID=Pacific Standard Time:20260302T100000',
        'RRULE:FREQ=WEEKLY;COUNT=2',
      ),
    );
    expect(busyOf(text)).toEqual(['2026-03-02T17:00:00Z/2026-03-02T18:00:00Z', '2026-03-09T16:00:00Z/2026-03-09T17:00:00Z']);
  });

  it('a VTIMEZONE whose TZID has a stray colon (TZID:Pacific Standard Time:) does not hide the Windows name', () => {
    const text = calendar(
      'BEGIN:VTIMEZONE',
      'TZID:Pacific Standard Time:',
      'BEGIN:STANDARD',
      'DTSTART:16010101T020000',
      'TZOFFSETFROM:-0700',
      'TZOFFSETTO:-0800',
      'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11',
      'END:STANDARD',
      'END:VTIMEZONE',
      ...event('UID:w', 'DTSTART;TZID=Pacific Standard Time:20260305T130000', 'DTEND;TZID=Pacific Standard Time:20260305T143000'),
    );
    expect(busyOf(text)).toEqual(['2026-03-05T21:00:00Z/2026-03-05T22:30:00Z']);
  });

  it('DTSTART;TZID:Pacific Standard Time:… (a colon for the equals sign) is mended, not left out', () => {
    expect(repairLine('DTSTART;TZID:Pacific Standard Time:20260318T100000')).toBe('DTSTART;TZID=Pacific Standard Time:20260318T100000');
    expect(repairLine('DTSTART;X-ODD:20260318T100000')).toBe('DTSTART;X-ODD:20260318T100000');
    const text = calendar(
      ...event('UID:w', 'DTSTART;TZID:Pacific Standard Time:20260318T100000', 'DTEND;TZID:Pacific Standard Time:20260318T120000'),
    );
    expect(parseFeed(text).skipped).toEqual([]);
    expect(busyOf(text)).toEqual(['2026-03-18T17:00:00Z/2026-03-18T19:00:00Z']);
  });

  it("a Windows name the feed defines is still read by the feed's own VTIMEZONE", () => {
    const text = calendar(
      'BEGIN:VTIMEZONE',
      'TZID:Pacific Standard Time',
      'BEGIN:STANDARD',
      'DTSTART:16010101T000000',
      'TZOFFSETFROM:-0500',
      'TZOFFSETTO:-0500',
      'END:STANDARD',
      'END:VTIMEZONE',
      ...event('UID:w', 'DTSTART;TZID=Pacific Standard Time:20260305T130000', 'DTEND;TZID=Pacific Standard Time:20260305T140000'),
    );
    expect(busyOf(text)).toEqual(['2026-03-05T18:00:00Z/2026-03-05T19:00:00Z']);
  });
});

describe('older revisions (issue 30, item 4)', () => {
  const revision = (sequence: number | undefined, stamp: string, day: string, ...more: string[]) =>
    event(
      'UID:r',
      ...(sequence === undefined ? [] : [`SEQUENCE:${sequence}`]),
      `DTSTAMP:${stamp}`,
      `DTSTART:202603${day}T090000Z`,
      `DTEND:202603${day}T100000Z`,
      ...more,
    );

  it('of an event: only the highest SEQUENCE blocks time, wherever it stands in the feed', () => {
    const text = calendar(
      ...revision(0, '20260201T000000Z', '05'),
      ...revision(2, '20260201T000000Z', '06'),
      ...revision(1, '20260203T000000Z', '04'),
    );
    expect(busyOf(text)).toEqual(['2026-03-06T09:00:00Z/2026-03-06T10:00:00Z']);
  });

  it('a missing SEQUENCE is 0', () => {
    const text = calendar(...revision(1, '20260201T000000Z', '06'), ...revision(undefined, '20260209T000000Z', '05'));
    expect(busyOf(text)).toEqual(['2026-03-06T09:00:00Z/2026-03-06T10:00:00Z']);
  });

  it('on equal SEQUENCE the later DTSTAMP wins; revisions equal in both are all kept', () => {
    expect(busyOf(calendar(...revision(1, '20260202T000000Z', '06'), ...revision(1, '20260201T000000Z', '05')))).toEqual([
      '2026-03-06T09:00:00Z/2026-03-06T10:00:00Z',
    ]);
    expect(busyOf(calendar(...revision(1, '20260201T000000Z', '06'), ...revision(1, '20260202T000000Z', '05')))).toEqual([
      '2026-03-05T09:00:00Z/2026-03-05T10:00:00Z',
    ]);
    expect(busyOf(calendar(...revision(1, '20260201T000000Z', '06'), ...revision(1, '20260201T000000Z', '05')))).toEqual([
      '2026-03-05T09:00:00Z/2026-03-05T10:00:00Z',
      '2026-03-06T09:00:00Z/2026-03-06T10:00:00Z',
    ]);
  });

  it('of an override: only the newest revision of one RECURRENCE-ID replaces its occurrence', () => {
    const text = calendar(
      ...event('UID:s', 'DTSTART:20260302T150000Z', 'DTEND:20260302T153000Z', 'RRULE:FREQ=WEEKLY;COUNT=2'),
      ...event('UID:s', 'RECURRENCE-ID:20260309T150000Z', 'SEQUENCE:3', 'DTSTART:20260311T090000Z', 'DTEND:20260311T093000Z'),
      ...event('UID:s', 'RECURRENCE-ID:20260309T150000Z', 'SEQUENCE:1', 'DTSTART:20260310T080000Z', 'DTEND:20260310T083000Z'),
    );
    expect(busyOf(text)).toEqual(['2026-03-02T15:00:00Z/2026-03-02T15:30:00Z', '2026-03-11T09:00:00Z/2026-03-11T09:30:00Z']);
  });

  it('overrides of different occurrences are not revisions of one another', () => {
    const text = calendar(
      ...event('UID:s', 'DTSTART:20260302T150000Z', 'DTEND:20260302T153000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'),
      ...event('UID:s', 'RECURRENCE-ID:20260309T150000Z', 'SEQUENCE:3', 'DTSTART:20260311T090000Z', 'DTEND:20260311T093000Z'),
      ...event('UID:s', 'RECURRENCE-ID:20260316T150000Z', 'SEQUENCE:1', 'DTSTART:20260317T080000Z', 'DTEND:20260317T083000Z'),
    );
    expect(busyOf(text)).toEqual([
      '2026-03-02T15:00:00Z/2026-03-02T15:30:00Z',
      '2026-03-11T09:00:00Z/2026-03-11T09:30:00Z',
      '2026-03-17T08:00:00Z/2026-03-17T08:30:00Z',
    ]);
  });

  it('of an override whose series is not in the feed: the newest only', () => {
    const text = calendar(
      ...event('UID:o', 'RECURRENCE-ID:20260309T150000Z', 'SEQUENCE:1', 'DTSTART:20260310T080000Z', 'DTEND:20260310T083000Z'),
      ...event('UID:o', 'RECURRENCE-ID:20260309T150000Z', 'SEQUENCE:2', 'DTSTART:20260311T090000Z', 'DTEND:20260311T093000Z'),
    );
    expect(busyOf(text)).toEqual(['2026-03-11T09:00:00Z/2026-03-11T09:30:00Z']);
  });
});

describe('dates, orphans and typos (issue 30, item 5)', () => {
  it('VALUE=DATE with a time in the value is read as that date-time: a three-day event keeps the hours of its last day', () => {
    expect(repairLine('DTEND;VALUE=DATE:20260312T170000')).toBe('DTEND:20260312T170000');
    expect(repairLine('DTSTART;VALUE=DATE;TZID=Europe/Berlin:20260312T170000')).toBe('DTSTART;TZID=Europe/Berlin:20260312T170000');
    expect(repairLine('DTSTART;VALUE=DATE-TIME:20260312T170000Z')).toBe('DTSTART;VALUE=DATE-TIME:20260312T170000Z');
    const text = calendar(...event('UID:c', 'DTSTART;VALUE=DATE:20260310T090000', 'DTEND;VALUE=DATE:20260312T170000'));
    expect(busyOf(text)).toEqual(['2026-03-10T08:00:00Z/2026-03-12T16:00:00Z']);
  });

  it('an override whose series is not in the feed keeps its RDATE periods', () => {
    const text = calendar(
      ...event(
        'UID:t',
        'RECURRENCE-ID:20260316T090000Z',
        'DTSTART:20260316T090000Z',
        'DTEND:20260316T100000Z',
        'RDATE;VALUE=PERIOD:20260323T090000Z/20260323T110000Z,20260330T090000Z/PT3H',
      ),
    );
    expect(busyOf(text)).toEqual([
      '2026-03-16T09:00:00Z/2026-03-16T10:00:00Z',
      '2026-03-23T09:00:00Z/2026-03-23T11:00:00Z',
      '2026-03-30T09:00:00Z/2026-03-30T12:00:00Z',
    ]);
  });

  it('a misspelt END (END:VTOOD) closes its component: the rest of the feed is read', () => {
    const text = calendar('BEGIN:VTODO', 'UID:todo', 'BEGIN:VALARM', 'TRIGGER:-PT5M', 'END:VALRM', 'END:VTOOD', ...good);
    expect(splitCalendars(text)[0]?.blocks.map((b) => [b.name, b.text.split('\r\n').at(-1)])).toEqual([
      ['VTODO', 'END:VTODO'],
      ['VEVENT', 'END:VEVENT'],
    ]);
    expect(busyOf(text)).toEqual([GOOD]);
  });

  it('an END naming another open component is still refused: the text is not iCalendar', () => {
    expect(() => splitCalendars(calendar('BEGIN:VEVENT', 'UID:x', 'BEGIN:VALARM', 'END:VEVENT', 'END:VALARM'))).toThrow(
      'END:VEVENT closes VALARM',
    );
    expect(() => splitCalendars('BEGIN:VCALENDAR\r\nEND:VCALENDR\r\n')).toThrow('END:VCALENDR closes VCALENDAR');
  });
});

describe('series that started decades ago (issue 30)', () => {
  const WEEK = { startMs: Date.parse('2026-03-02T00:00:00Z'), endMs: Date.parse('2026-03-09T00:00:00Z') };

  it('a daily rule since 1995 is read near the range, not from its start, within the bounds', () => {
    const text = calendar(...event('UID:d', 'DTSTART:19950102T070000Z', 'DTEND:19950102T073000Z', 'RRULE:FREQ=DAILY'));
    expect(busyOf(text, 'UTC', WEEK)).toEqual(
      ['02', '03', '04', '05', '06', '07', '08'].map((d) => `2026-03-${d}T07:00:00Z/2026-03-${d}T07:30:00Z`),
    );
  });

  it('every third day since 1990 keeps its phase', () => {
    // 1990-01-02 to 2026-03-02 is 13,208 days, a multiple of 3 plus 2: the series falls on Mar 3 and Mar 6.
    const text = calendar(...event('UID:d', 'DTSTART:19900102T070000Z', 'DTEND:19900102T080000Z', 'RRULE:FREQ=DAILY;INTERVAL=3'));
    expect(busyOf(text, 'UTC', WEEK)).toEqual(['2026-03-03T07:00:00Z/2026-03-03T08:00:00Z', '2026-03-06T07:00:00Z/2026-03-06T08:00:00Z']);
  });

  it('every other week on Tuesday and Thursday since 2000, in Berlin, keeps its weeks and its local time', () => {
    // 2000-01-04 is a Tuesday; 2026-03-03 is 1,365 weeks later (odd): off; 2026-03-10 and -12 are on, in CET;
    // the weeks of Mar 24 and Apr 7 are on too, Apr 7 in CEST.
    const text = calendar(
      ...event(
        'UID:w',
        'DTSTART;TZID=Europe/Berlin:20000104T180000',
        'DTEND;TZID=Europe/Berlin:20000104T190000',
        'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH',
      ),
    );
    expect(busyOf(text, 'UTC', { startMs: WEEK.startMs, endMs: Date.parse('2026-04-10T00:00:00Z') })).toEqual([
      '2026-03-10T17:00:00Z/2026-03-10T18:00:00Z',
      '2026-03-12T17:00:00Z/2026-03-12T18:00:00Z',
      '2026-03-24T17:00:00Z/2026-03-24T18:00:00Z',
      '2026-03-26T17:00:00Z/2026-03-26T18:00:00Z',
      '2026-04-07T16:00:00Z/2026-04-07T17:00:00Z',
      '2026-04-09T16:00:00Z/2026-04-09T17:00:00Z',
    ]);
  });

  it('a yearly all-day rule since 1970, an EXDATE and an override near the range still apply', () => {
    const text = calendar(
      ...event('UID:a', 'DTSTART;VALUE=DATE:19700305', 'DTEND;VALUE=DATE:19700306', 'RRULE:FREQ=YEARLY', 'EXDATE;VALUE=DATE:20250305'),
      ...event('UID:d', 'DTSTART:19950102T070000Z', 'DTEND:19950102T073000Z', 'RRULE:FREQ=DAILY', 'EXDATE:20260303T070000Z'),
      ...event('UID:d', 'RECURRENCE-ID:20260305T070000Z', 'DTSTART:20260305T120000Z', 'DTEND:20260305T123000Z'),
    );
    const busy = busyOf(text, 'UTC', { startMs: Date.parse('2025-03-02T00:00:00Z'), endMs: Date.parse('2026-03-06T00:00:00Z') });
    expect(busy.filter((b) => !b.includes('T07:00:00Z/'))).toEqual([
      '2026-03-05T00:00:00Z/2026-03-06T00:00:00Z',
      '2026-03-05T12:00:00Z/2026-03-05T12:30:00Z',
    ]);
    expect(busy.filter((b) => b >= '2026-03-02')).toEqual([
      '2026-03-02T07:00:00Z/2026-03-02T07:30:00Z',
      '2026-03-04T07:00:00Z/2026-03-04T07:30:00Z',
      '2026-03-05T00:00:00Z/2026-03-06T00:00:00Z',
      '2026-03-05T12:00:00Z/2026-03-05T12:30:00Z',
    ]);
  });

  it('an occurrence that began before the range and runs into it is still read', () => {
    const text = calendar(...event('UID:n', 'DTSTART:19950102T220000Z', 'DTEND:19950103T020000Z', 'RRULE:FREQ=DAILY'));
    expect(busyOf(text, 'UTC', { startMs: WEEK.startMs, endMs: Date.parse('2026-03-02T23:00:00Z') })).toEqual([
      '2026-03-01T22:00:00Z/2026-03-02T02:00:00Z',
      '2026-03-02T22:00:00Z/2026-03-03T02:00:00Z',
    ]);
  });

  it('a weekly rule on every day since 1900 is read near the range too', () => {
    const text = calendar(
      ...event('UID:w', 'DTSTART:19000101T060000Z', 'DTEND:19000101T061500Z', 'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU'),
    );
    expect(busyOf(text, 'UTC', WEEK)).toHaveLength(7);
  });

  it('every other week since 2001 without BYDAY stays on its weekday and its weeks', () => {
    // 2001-01-02 is a Tuesday; 2026-03-03 is 1,313 weeks later (odd): off; Mar 10 and Mar 24 are on.
    const text = calendar(...event('UID:w', 'DTSTART:20010102T090000Z', 'DTEND:20010102T100000Z', 'RRULE:FREQ=WEEKLY;INTERVAL=2'));
    expect(busyOf(text, 'UTC', { startMs: WEEK.startMs, endMs: Date.parse('2026-03-30T00:00:00Z') })).toEqual([
      '2026-03-10T09:00:00Z/2026-03-10T10:00:00Z',
      '2026-03-24T09:00:00Z/2026-03-24T10:00:00Z',
    ]);
  });

  it('a start the rule itself would not give (a Monday for BYDAY=WE) adds no Monday near the range', () => {
    // RFC 5545 §3.8.5.3 leaves such a start undefined; moved forward, it must not become an instance.
    const text = calendar(...event('UID:m', 'DTSTART:20000103T090000Z', 'DTEND:20000103T100000Z', 'RRULE:FREQ=WEEKLY;BYDAY=WE'));
    expect(busyOf(text, 'UTC', { startMs: Date.parse('2026-02-23T00:00:00Z'), endMs: WEEK.endMs })).toEqual([
      '2026-02-25T09:00:00Z/2026-02-25T10:00:00Z',
      '2026-03-04T09:00:00Z/2026-03-04T10:00:00Z',
    ]);
  });

  it("a series with two rules is expanded from its start: moving it by one rule's period would shift the other", () => {
    // From 2025-01-05: every second day (Mar 3, 5, 7) and every third day (Mar 4, 7).
    const text = calendar(
      ...event(
        'UID:two',
        'DTSTART:20250105T070000Z',
        'DTEND:20250105T073000Z',
        'RRULE:FREQ=DAILY;INTERVAL=2',
        'RRULE:FREQ=DAILY;INTERVAL=3',
      ),
    );
    expect(busyOf(text, 'UTC', WEEK).map((b) => b.slice(0, 10))).toEqual(['2026-03-03', '2026-03-04', '2026-03-05', '2026-03-07']);
  });

  it('a COUNT rule is still counted from its start', () => {
    const text = calendar(...event('UID:c', 'DTSTART:19950102T070000Z', 'DTEND:19950102T073000Z', 'RRULE:FREQ=DAILY;COUNT=5'));
    expect(busyOf(text, 'UTC', { startMs: Date.parse('1995-01-05T00:00:00Z'), endMs: WEEK.endMs })).toEqual([
      '1995-01-05T07:00:00Z/1995-01-05T07:30:00Z',
      '1995-01-06T07:00:00Z/1995-01-06T07:30:00Z',
    ]);
  });
});
