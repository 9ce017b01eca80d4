import { createServer } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import { Agent, request } from 'undici';
import { busyWithin } from '../dist/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../dist/availability/adapters/ics/parse-feed.js';
import { icsFeedReader, systemClock } from '../dist/index.js';
import { writeReport } from './support.mjs';

const _here = dirname(fileURLToPath(import.meta.url));
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

const median = (values) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] * 10) / 10;

/** The every-second feed served on loopback, and a bare server answering at once: the unrelated request. */
async function denseFeedRuns() {
  const DAY = 86_400_000;
  const basic = (ms) =>
    new Date(ms)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const start = basic(Date.now() + DAY);
  const dense = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//schedule bench//EN'];
  for (let i = 0; i < 10; i++)
    dense.push('BEGIN:VEVENT', `UID:every-second-${i}@bench`, `DTSTART:${start}`, 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY', 'END:VEVENT');
  dense.push('END:VCALENDAR', '');
  const body = dense.join('\r\n');
  const feedServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(body));
  const bare = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  const listen = (server) => new Promise((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${server.address().port}`)));
  const feedUrl = `${await listen(feedServer)}/every-second.ics`;
  const bareUrl = `${await listen(bare)}/`;
  const agent = new Agent();
  const unrelated = async () => {
    const startedAt = performance.now();
    const res = await request(bareUrl, { dispatcher: agent });
    await res.body.dump();
    return performance.now() - startedAt;
  };
  const day = (n) => ({ startMs: Date.now() + n * DAY, endMs: Date.now() + (n + 1) * DAY });
  const readOnce = async (read, n) => {
    const startedAt = performance.now();
    try {
      await read(feedUrl, day(n), 'Europe/Berlin');
    } catch {
      // Unreadable (too dense to expand) is this feed's expected answer; its cost is what is measured.
    }
    return performance.now() - startedAt;
  };
  /** Unrelated requests one after another until `done()` (at least `least`): the slowest, and how many were made. */
  const slowest = async (done, least = 1) => {
    let worst = 0;
    let made = 0;
    while (made < least || !done()) {
      worst = Math.max(worst, await unrelated());
      made++;
    }
    return { worst, made };
  };
  const first = [];
  const after = [];
  const alone = [];
  const beside = { first: [], after: [] };
  for (let round = 0; round < ROUNDS; round++) {
    await unrelated(); // warm the connection
    let read = icsFeedReader({ clock: systemClock });
    first.push(await readOnce(read, 1));
    after.push(await readOnce(read, 2));
    for (const when of ['first', 'after']) {
      // First reads: a reader that has not fetched the feed yet; later reads: the one that just read it.
      if (when === 'first') read = icsFeedReader({ clock: systemClock });
      let finished = false;
      const reads = Promise.all(Array.from({ length: 16 }, (_, n) => readOnce(read, 1 + n))).then(() => {
        finished = true;
      });
      const { worst, made } = await slowest(() => finished);
      await reads;
      beside[when].push(worst);
      alone.push((await slowest(() => true, made)).worst);
    }
  }
  await agent.close();
  await new Promise((done) => feedServer.close(done));
  await new Promise((done) => bare.close(done));
  const besideMs = { first: median(beside.first), after: median(beside.after) };
  const floorMs = median(alone);
  return {
    feed: 'ten events, FREQ=SECONDLY from tomorrow, read for a day each',
    one_read_ms: { first: median(first), after: median(after) },
    slowest_unrelated_request_ms: { alone: floorMs, beside_16_first_reads: besideMs.first, beside_16_later_reads: besideMs.after },
    ratio_unrelated_beside_16_first_reads_over_alone: Math.round((besideMs.first / floorMs) * 10) / 10,
    ratio_unrelated_beside_16_later_reads_over_alone: Math.round((besideMs.after / floorMs) * 10) / 10,
  };
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
report.every_second_feed = await denseFeedRuns();

writeReport('ics-feed', report);
