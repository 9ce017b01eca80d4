// Benchmark of issue 20: reading a 5,000-event iCalendar feed (500 of them
// weekly series, TZID Europe/Berlin) with our reader, beside ical.js doing
// the least the same work needs, in the same run:
// - parse: parseFeed (line repairs, component by component, events checked)
//   vs ICAL.parse of the whole text plus decoding each DTSTART;
// - expand: busyWithin over a year vs ical.js's own iterator walking every
//   series to the same end, its times turned to instants by ical.js.
// Build first: `npx turbo run build`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import { busyWithin } from '../dist/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../dist/availability/adapters/ics/parse-feed.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const EVENTS = 5000;
const YEAR = { startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2027, 0, 1) };

const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//schedule bench//EN'];
for (let i = 0; i < EVENTS; i++) {
  const month = String(1 + (i % 12)).padStart(2, '0');
  const day = String(1 + (i % 28)).padStart(2, '0');
  lines.push('BEGIN:VEVENT', `UID:bench-${i}@schedule`, `DTSTART;TZID=Europe/Berlin:2026${month}${day}T100000`, 'DURATION:PT1H');
  lines.push(i % 10 === 0 ? 'RRULE:FREQ=WEEKLY;COUNT=20' : `SUMMARY:Event ${i}`, 'END:VEVENT');
}
lines.push('END:VCALENDAR', '');
const text = lines.join('\r\n');

const floorParse = () => {
  const calendar = new ICAL.Component(ICAL.parse(text));
  let n = 0;
  for (const vevent of calendar.getAllSubcomponents('vevent')) n += vevent.getFirstPropertyValue('dtstart') ? 1 : 0;
  return n;
};
const oursParse = () => parseFeed(text).events;

const parsed = parseFeed(text);
const floorCalendar = new ICAL.Component(ICAL.parse(text));
const floorEvents = floorCalendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
const floorExpand = () => {
  let n = 0;
  for (const event of floorEvents) {
    if (!event.isRecurring()) {
      n += event.startDate.toUnixTime() < YEAR.endMs / 1000 ? 1 : 0;
      continue;
    }
    const it = event.iterator();
    for (let next = it.next(); next && next.toUnixTime() * 1000 < YEAR.endMs; next = it.next()) n++;
  }
  return n;
};
const oursExpand = () => busyWithin(parsed.series, YEAR, 'UTC').length;

if (oursParse() !== EVENTS || floorParse() !== EVENTS) throw new Error('the feed did not read as 5,000 events');
const busy = oursExpand();
if (busy !== floorExpand()) throw new Error(`expansions differ: ours ${busy}, ical.js ${floorExpand()}`);

/** Median milliseconds per call over ROUNDS calls, after one warm-up. */
function msPerCall(fn) {
  fn();
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] * 10) / 10;
}

const report = {
  benchmark: 'Read a 5,000-event feed (500 weekly series, Europe/Berlin): parseFeed and busyWithin vs bare ical.js',
  feed_bytes: text.length,
  events: EVENTS,
  busy_intervals_in_2026: busy,
  rounds: ROUNDS,
  parse_ms: { ours: msPerCall(oursParse), ical_js: msPerCall(floorParse) },
  expand_year_ms: { ours: msPerCall(oursExpand), ical_js: msPerCall(floorExpand) },
};
report.ratio_parse_ours_over_ical_js = Math.round((report.parse_ms.ours / report.parse_ms.ical_js) * 100) / 100;
report.ratio_expand_ours_over_ical_js = Math.round((report.expand_year_ms.ours / report.expand_year_ms.ical_js) * 100) / 100;

mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/ics-feed.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
