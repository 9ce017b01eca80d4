import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { busyWithin } from '../src/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../src/availability/adapters/ics/parse-feed.js';

// Issue 30: one bad event never takes a feed down. Inserting one broken
// component anywhere in a good feed changes nothing else of its busy time:
// the feed stays readable and every other busy time is read as before.

const WINDOW = { startMs: Date.parse('2026-03-01T00:00:00Z'), endMs: Date.parse('2026-04-15T00:00:00Z') };
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York'] as const;

const stamp = (day: number, minutes: number) => {
  const at = new Date(Date.UTC(2026, 2, 1 + day, 0, minutes));
  return at.toISOString().replace(/[-:]/g, '').slice(0, 15);
};

/** A good event: single, all-day or recurring, in UTC, an IANA zone or floating, sometimes with an override. */
const goodEvent = fc
  .record({
    day: fc.integer({ min: -3, max: 44 }),
    minutes: fc.integer({ min: 0, max: 287 }).map((m) => m * 5),
    length: fc.integer({ min: 1, max: 48 }).map((m) => m * 15),
    zone: fc.constantFrom('Z', 'TZID=Europe/Berlin', 'TZID=America/New_York', 'floating'),
    kind: fc.constantFrom('single', 'all-day', 'daily', 'weekly', 'transparent'),
    count: fc.integer({ min: 1, max: 12 }),
    moved: fc.boolean(),
  })
  .map((e) => (uid: string) => {
    const time = (day: number, minutes: number) => {
      const value = stamp(day, minutes);
      if (e.zone === 'Z') return `:${value}Z`;
      return e.zone === 'floating' ? `:${value}` : `;${e.zone}:${value}`;
    };
    if (e.kind === 'all-day') {
      const date = (d: number) => stamp(d, 0).slice(0, 8);
      return [`UID:${uid}`, `DTSTART;VALUE=DATE:${date(e.day)}`, `DTEND;VALUE=DATE:${date(e.day + 1 + (e.count % 3))}`];
    }
    const lines = [`UID:${uid}`, `DTSTART${time(e.day, e.minutes)}`, `DTEND${time(e.day, e.minutes + e.length)}`];
    if (e.kind === 'transparent') lines.push('TRANSP:TRANSPARENT');
    if (e.kind !== 'daily' && e.kind !== 'weekly') return lines;
    lines.push(`RRULE:FREQ=${e.kind === 'daily' ? 'DAILY' : 'WEEKLY'};COUNT=${e.count}`);
    if (!e.moved) return lines;
    return [
      ...lines,
      'END:VEVENT',
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `RECURRENCE-ID${time(e.day, e.minutes)}`,
      `DTSTART${time(e.day, e.minutes + 60)}`,
      `DTEND${time(e.day, e.minutes + 60 + e.length)}`,
    ];
  });

/** Six hundred days in a row excluded: ical.js gives up the expansion midway ("max tries have occurred"). */
const allExcluded = Array.from({ length: 600 }, (_, i) => `${stamp(3 + i, 600)}Z`).join(',');

/** Components that cannot be read, each as producers have written them; none is a busy time. */
const BROKEN: readonly (readonly string[])[] = [
  ['BEGIN:VEVENT', 'UID:broken', 'SUMMARY:no start', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:broken', 'DTSTART:tomorrow', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:broken', 'DTSTART:20260305T100000Z', 'RRULE:FREQ=SOMETIMES', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:broken', 'DTSTART:20260305T100000Z', 'DTEND:20260305T110000Z', 'RRULE:COUNT=3', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:broken', 'DTSTART:20260305T100000Z', 'DTEND:20260305T110000Z', 'RRULE:FREQ=WEEKLY;BYMONTHDAY=1', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:broken', 'DTSTART:20260305T100000Z', 'RRULE:FREQ=DAILY', 'EXDATE:20260307T1000', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'DTSTART:20260302T100000Z', 'DTEND:20260302T110000Z', 'RRULE:FREQ=DAILY', `EXDATE:${allExcluded}`, 'END:VEVENT'],
  [
    'BEGIN:VEVENT',
    'UID:broken',
    'DTSTART:20260302T100000Z',
    'DTEND:20260302T110000Z',
    'RRULE:FREQ=DAILY',
    `EXDATE:${allExcluded}`,
    'END:VEVENT',
  ],
  ['BEGIN:VTODO', 'UID:broken', 'SUMMARY:a task', 'END:VTOOD'],
  ['BEGIN:VEVENT', 'UID:broken', 'DTSTART;TZID="unterminated:20260305T100000', 'END:VEVENT'],
  [
    'BEGIN:VTIMEZONE',
    'TZID:Broken Zone',
    'BEGIN:STANDARD',
    'DTSTART:nonsense',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'END:VTIMEZONE',
  ],
];

const feedText = (components: readonly (readonly string[])[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//schedule//property test//EN', ...components.flat(), 'END:VCALENDAR', ''].join('\r\n');

describe('one broken event in a good feed (issue 30)', () => {
  it('changes nothing else of its busy time, wherever it stands', () => {
    fc.assert(
      fc.property(
        fc.array(goodEvent, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...BROKEN),
        fc.nat(),
        fc.constantFrom(...ZONES),
        (events, broken, at, zone) => {
          const good = events.map((lines, i) => ['BEGIN:VEVENT', ...lines(`good-${i}@schedule.test`), 'END:VEVENT']);
          const place = at % (good.length + 1);
          const withBroken = [...good.slice(0, place), broken, ...good.slice(place)];
          const expected = busyWithin(parseFeed(feedText(good)).series, WINDOW, zone);
          expect(busyWithin(parseFeed(feedText(withBroken)).series, WINDOW, zone)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
