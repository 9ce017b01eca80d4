import { describe, expect, it } from 'vitest';
import { busyWithin, ExpansionBound, MAX_OCCURRENCES } from '../src/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../src/availability/adapters/ics/parse-feed.js';
import { logicalLines, repairLine, splitCalendars } from '../src/availability/adapters/ics/repair-lines.js';

// Edges of the feed reader that each change what a host is busy with, or how a feed fails (issue 30).

const calendar = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];
const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');
const MARCH = { startMs: Date.parse('2026-03-01T00:00:00Z'), endMs: Date.parse('2026-04-01T00:00:00Z') };
const busyOf = (text: string, host = 'Europe/Berlin', range = MARCH) =>
  busyWithin(parseFeed(text).series, range, host).map((b) => `${iso(b.startMs)}/${iso(b.endMs)}`);
const good = event('UID:good', 'DTSTART:20260310T120000Z', 'DTEND:20260310T130000Z');
const GOOD = '2026-03-10T12:00:00Z/2026-03-10T13:00:00Z';

describe('cutting a feed into calendars', () => {
  it('drops lines of whitespace only', () => {
    expect(logicalLines('  \t\r\nBEGIN:VCALENDAR\r\n \r\n')).toEqual(['BEGIN:VCALENDAR']);
  });

  it('reads a BEGIN line with trailing whitespace as the component it names', () => {
    const text = calendar('BEGIN:VEVENT \t', 'UID:good', 'DTSTART:20260310T120000Z', 'DTEND:20260310T130000Z', 'END:VEVENT');
    expect(busyOf(text)).toEqual([GOOD]);
  });

  it('skips a component outside any calendar with everything nested in it', () => {
    const vcard = ['BEGIN:VCARD', 'FN:Ann', ...event('UID:in-card', 'DTSTART:20260311T120000Z', 'DTEND:20260311T130000Z'), 'END:VCARD'];
    const text = [...vcard, calendar(...good)].join('\r\n');
    expect(busyOf(text)).toEqual([GOOD]);
    expect(splitCalendars(text).map((c) => c.blocks.map((b) => b.uid))).toEqual([['good']]);
  });

  it('a VCALENDAR inside a calendar is one of its components, not a second calendar', () => {
    const text = calendar('BEGIN:VCALENDAR', 'X-INNER:1', 'END:VCALENDAR', ...good);
    expect(splitCalendars(text).map((c) => c.blocks.map((b) => b.name))).toEqual([['VCALENDAR', 'VEVENT']]);
  });

  it('a component outside any calendar is no calendar', () => {
    expect(() => splitCalendars('BEGIN:VCARD\r\nFN:Ann\r\nEND:VCARD\r\n')).toThrow('no VCALENDAR');
  });

  it('names what an unmatched END closes, and the innermost component left open', () => {
    expect(() => splitCalendars('END:VCALENDAR\r\n')).toThrow('END:VCALENDAR closes nothing');
    expect(() => splitCalendars('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nBEGIN:VALARM\r\n')).toThrow('VALARM is never closed');
  });

  it("keeps the calendar's own properties, a value that quotes BEGIN:VCALENDAR too, without a second BEGIN line", () => {
    const [only] = splitCalendars('BEGIN:VCALENDAR \r\nX-NOTE:BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n');
    expect(only?.properties).toBe('BEGIN:VCALENDAR\r\nX-NOTE:BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR');
  });

  it('names a block by its UID line, not by another property whose name ends in UID, and cuts a long UID to 200 characters', () => {
    const long = 'u'.repeat(250);
    const [only] = splitCalendars(
      calendar(...event('UID:first', 'X-ORIGINAL-UID:other', 'DTSTART:20260310T120000Z'), ...event(`UID:${long}`)),
    );
    expect(only?.blocks.map((b) => b.uid)).toEqual(['first', 'u'.repeat(200)]);
  });
});

describe('mending lines', () => {
  it('leaves a value holding a colon as written when the last parameter has its value', () => {
    expect(repairLine('DTSTART;TZID=Europe/Berlin:20260318T100000:00')).toBe('DTSTART;TZID=Europe/Berlin:20260318T100000:00');
  });

  it('mends a parameter written with ":" for "=" even when its value is empty', () => {
    expect(repairLine('DTSTART;TZID::20260318T100000')).toBe('DTSTART;TZID=:20260318T100000');
  });
});

describe('reading events', () => {
  it('a component other than an event that cannot be read costs only itself', () => {
    const text = calendar('BEGIN:VTODO', 'X-FOO;BAR:baz', 'END:VTODO', ...good);
    expect(busyOf(text)).toEqual([GOOD]);
  });

  it("events are read when the calendar's own properties cannot be, in the zones it defines", () => {
    const zone = [
      'BEGIN:VTIMEZONE',
      'TZID:Custom India',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0530',
      'TZOFFSETTO:+0530',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const text = calendar(
      'X-FOO;BAR:baz',
      ...zone,
      ...event('UID:e', 'DTSTART;TZID=Custom India:20260310T120000', 'DTEND;TZID=Custom India:20260310T130000'),
    );
    expect(busyOf(text)).toEqual(['2026-03-10T06:30:00Z/2026-03-10T07:30:00Z']);
  });

  it.each([
    ['DTEND', 'DTEND:abc'],
    ['DURATION', 'DURATION:abc'],
    ['RRULE', 'RRULE:FREQ=DAILY;UNTIL=abc'],
    ['RDATE', 'RDATE:abc'],
    ['EXDATE', 'EXDATE:abc'],
    ['RECURRENCE-ID', 'RECURRENCE-ID:abc'],
  ])('an event whose %s does not decode is left out as bad_value', (_name, line) => {
    const feed = parseFeed(calendar(...event('UID:bad', 'DTSTART:20260310T100000Z', line), ...good));
    expect(feed.skipped).toEqual([{ uid: 'bad', reason: 'bad_value' }]);
    expect(feed.series.map((s) => s.uid)).toEqual(['good']);
  });

  it('a broken property the reader never reads costs the event nothing', () => {
    const feed = parseFeed(
      calendar(...event('UID:good', 'X-NOTE;VALUE=DATE-TIME:abc', 'DTSTART:20260310T120000Z', 'DTEND:20260310T130000Z')),
    );
    expect(feed.skipped).toEqual([]);
    expect(busyWithin(feed.series, MARCH, 'UTC').map((b) => `${iso(b.startMs)}/${iso(b.endMs)}`)).toEqual([GOOD]);
  });

  it('of two revisions with one SEQUENCE, one whose DTSTAMP cannot be read is the older', () => {
    const text = calendar(
      ...event('UID:r', 'SEQUENCE:1', 'DTSTAMP:abc', 'DTSTART:20260310T080000Z', 'DTEND:20260310T090000Z'),
      ...event('UID:r', 'SEQUENCE:1', 'DTSTAMP:20260301T000000Z', 'DTSTART:20260310T120000Z', 'DTEND:20260310T130000Z'),
    );
    expect(busyOf(text)).toEqual([GOOD]);
  });

  it("another series' override never replaces an occurrence of this one", () => {
    const text = calendar(
      ...event('UID:a', 'DTSTART:20260302T100000Z', 'DTEND:20260302T110000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'),
      ...event('UID:a', 'RECURRENCE-ID:20260309T100000Z', 'DTSTART:20260309T150000Z', 'DTEND:20260309T160000Z'),
      ...event('UID:b', 'RECURRENCE-ID:20260316T100000Z', 'DTSTART:20260317T080000Z', 'DTEND:20260317T090000Z'),
    );
    expect(busyOf(text)).toEqual([
      '2026-03-02T10:00:00Z/2026-03-02T11:00:00Z',
      '2026-03-09T15:00:00Z/2026-03-09T16:00:00Z',
      '2026-03-16T10:00:00Z/2026-03-16T11:00:00Z',
      '2026-03-17T08:00:00Z/2026-03-17T09:00:00Z',
    ]);
  });

  it('an RDATE period lasts its own length, not the event’s', () => {
    const text = calendar(
      ...event('UID:p', 'DTSTART:20260302T100000Z', 'DTEND:20260302T110000Z', 'RDATE;VALUE=PERIOD:20260312T100000Z/20260312T130000Z'),
    );
    expect(busyOf(text)).toEqual(['2026-03-02T10:00:00Z/2026-03-02T11:00:00Z', '2026-03-12T10:00:00Z/2026-03-12T13:00:00Z']);
  });
});

describe('busy times of a feed', () => {
  it('ordinary busy time carries no bookingUid at all', () => {
    expect(busyWithin(parseFeed(calendar(...good)).series, MARCH, 'UTC')).toStrictEqual([
      { startMs: Date.parse('2026-03-10T12:00:00Z'), endMs: Date.parse('2026-03-10T13:00:00Z') },
    ]);
  });

  it('the RDATE periods of an event shown as free block nothing', () => {
    const text = calendar(
      ...event(
        'UID:p',
        'TRANSP:TRANSPARENT',
        'DTSTART:20260302T100000Z',
        'DTEND:20260302T110000Z',
        'RDATE;VALUE=PERIOD:20260312T100000Z/20260312T130000Z',
      ),
    );
    expect(busyOf(text)).toEqual([]);
  });

  it('a series with a moved occurrence keeps its other occurrences', () => {
    const text = calendar(
      ...event(
        'UID:w',
        'DTSTART;TZID=Europe/Berlin:20260302T100000',
        'DTEND;TZID=Europe/Berlin:20260302T110000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
      ),
      ...event(
        'UID:w',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260309T100000',
        'DTSTART;TZID=Europe/Berlin:20260309T150000',
        'DTEND;TZID=Europe/Berlin:20260309T160000',
      ),
    );
    expect(busyOf(text, 'UTC')).toEqual([
      '2026-03-02T09:00:00Z/2026-03-02T10:00:00Z',
      '2026-03-09T14:00:00Z/2026-03-09T15:00:00Z',
      '2026-03-16T09:00:00Z/2026-03-16T10:00:00Z',
    ]);
  });

  it("instances a THISANDFUTURE override moves are read as its DTSTART is: floating, in the host's zone", () => {
    const text = calendar(
      ...event('UID:f', 'DTSTART;TZID=America/New_York:20260302T100000', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;COUNT=4'),
      ...event(
        'UID:f',
        'RECURRENCE-ID;TZID=America/New_York;RANGE=THISANDFUTURE:20260309T100000',
        'DTSTART:20260309T120000',
        'DURATION:PT1H',
      ),
    );
    expect(busyOf(text, 'UTC')).toEqual([
      '2026-03-02T15:00:00Z/2026-03-02T16:00:00Z',
      '2026-03-09T12:00:00Z/2026-03-09T13:00:00Z',
      '2026-03-16T12:00:00Z/2026-03-16T13:00:00Z',
      '2026-03-23T12:00:00Z/2026-03-23T13:00:00Z',
    ]);
  });

  it('an RDATE that repeats DTSTART is one instance', () => {
    const text = calendar(
      ...event('UID:r', 'DTSTART:20260302T100000Z', 'DTEND:20260302T110000Z', 'RDATE:20260302T100000Z,20260305T100000Z'),
    );
    expect(busyOf(text)).toEqual(['2026-03-02T10:00:00Z/2026-03-02T11:00:00Z', '2026-03-05T10:00:00Z/2026-03-05T11:00:00Z']);
  });

  it('an occurrence starting as the range ends is not counted toward the bound', () => {
    const start = Date.parse('2026-03-01T00:00:00Z');
    const range = { startMs: start, endMs: start + MAX_OCCURRENCES * 60_000 };
    const text = calendar(
      ...event('UID:m', 'DTSTART:20260301T000000Z', 'DURATION:PT30S', `RRULE:FREQ=MINUTELY;COUNT=${MAX_OCCURRENCES + 1}`),
    );
    expect(busyWithin(parseFeed(text).series, range, 'UTC')).toHaveLength(MAX_OCCURRENCES);
  });

  it('weekly series running since 1900 are fast-forwarded, so together they stay within the feed bound', () => {
    const weekly = (n: number) =>
      event(`UID:w${n}`, `DTSTART:1900010${n}T100000Z`, 'DTEND:19000101T110000Z'.replace('0101', `010${n}`), 'RRULE:FREQ=WEEKLY');
    const text = calendar(...weekly(1), ...weekly(2), ...weekly(3), ...weekly(4));
    expect(() => busyWithin(parseFeed(text).series, MARCH, 'UTC')).not.toThrow(ExpansionBound);
    expect(busyWithin(parseFeed(text).series, MARCH, 'UTC')).toHaveLength(18);
  });

  it('a DATE in EXDATE removes that day of a timed series; a DATE-TIME only its own instance', () => {
    const text = calendar(
      ...event(
        'UID:d',
        'DTSTART:20260302T100000Z',
        'DTEND:20260302T110000Z',
        'RRULE:FREQ=HOURLY;INTERVAL=4;COUNT=6',
        'EXDATE;VALUE=DATE:20260302',
      ),
      ...event(
        'UID:t',
        'DTSTART:20260310T100000Z',
        'DTEND:20260310T110000Z',
        'RRULE:FREQ=HOURLY;INTERVAL=4;COUNT=3',
        'EXDATE:20260310T140000Z',
      ),
    );
    expect(busyOf(text, 'UTC')).toEqual([
      '2026-03-03T02:00:00Z/2026-03-03T03:00:00Z',
      '2026-03-03T06:00:00Z/2026-03-03T07:00:00Z',
      '2026-03-10T10:00:00Z/2026-03-10T11:00:00Z',
      '2026-03-10T18:00:00Z/2026-03-10T19:00:00Z',
    ]);
  });

  describe('DURATION (RFC 5545 §3.3.6): days and weeks are wall-clock, hours, minutes and seconds exact', () => {
    const lasting = (start: string, duration: string) =>
      busyOf(calendar(...event('UID:d', `DTSTART;TZID=Europe/Berlin:${start}`, `DURATION:${duration}`)), 'UTC');

    it('hours across the spring-forward change end that much real time later', () => {
      expect(lasting('20260329T010000', 'PT2H30M15S')).toEqual(['2026-03-29T00:00:00Z/2026-03-29T02:30:15Z']);
    });

    it('a day and two hours: the same wall clock the next day, then two real hours across the change', () => {
      expect(lasting('20260328T013000', 'P1DT2H')).toEqual(['2026-03-28T00:30:00Z/2026-03-29T02:30:00Z']);
    });

    it('a week ends at the same wall clock a week later, 167 hours across the change', () => {
      expect(lasting('20260328T100000', 'P1W')).toEqual(['2026-03-28T09:00:00Z/2026-04-04T08:00:00Z']);
    });

    it('a negative one blocks nothing', () => {
      expect(lasting('20260310T100000', '-PT1H')).toEqual([]);
    });
  });

  it('keeps the seconds of a time in a named zone', () => {
    const text = calendar(...event('UID:s', 'DTSTART;TZID=Europe/Berlin:20260310T100030', 'DTEND;TZID=Europe/Berlin:20260310T110045'));
    expect(busyOf(text)).toEqual(['2026-03-10T09:00:30Z/2026-03-10T10:00:45Z']);
  });
});

describe('a zone only the feed defines, across its DST changes (RFC 5545 §3.3.5)', () => {
  const zone = [
    'BEGIN:VTIMEZONE',
    'TZID:Custom European Time',
    'BEGIN:STANDARD',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
  ];
  const at = (wall: string) =>
    busyOf(calendar(...zone, ...event('UID:z', `DTSTART;TZID=Custom European Time:${wall}`, 'DURATION:P1D')), 'UTC', {
      startMs: Date.parse('2026-01-01T00:00:00Z'),
      endMs: Date.parse('2027-01-01T00:00:00Z'),
    })[0]?.split('/')[0];

  it('spring-forward gap: a skipped time takes the offset from before the change', () => {
    expect(at('20260329T023000')).toBe('2026-03-29T01:30:00Z');
  });

  it('fall-back overlap: a repeated time means its first instant', () => {
    expect(at('20261025T023000')).toBe('2026-10-25T00:30:00Z');
  });

  it('outside a change, the offset in force', () => {
    expect(at('20261025T033000')).toBe('2026-10-25T02:30:00Z');
    expect(at('20260329T033000')).toBe('2026-03-29T01:30:00Z');
    expect(at('20260310T100000')).toBe('2026-03-10T09:00:00Z');
  });
});
