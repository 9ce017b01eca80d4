import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import rrulePackage from 'rrule';
import { expandPattern } from '../dist/series/expand-pattern.js';
import { writeReport } from './support.mjs';

// rrule ships CommonJS as its Node entry, so its names come off the default export.
const { RRule, datetime } = rrulePackage;

const _here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
const COUNT = 42;
// A fixed "now" before starts_on, so the run does not depend on the date it is run.
const NOW_MS = Date.UTC(2026, 0, 1);

const pattern = {
  frequency: 'weekly',
  intervalWeeks: 1,
  weekdays: ['mon', 'wed', 'fri'],
  time: '09:30',
  timezone: 'Europe/Berlin',
  startsOn: '2026-02-16',
};

// The same pattern as an RRULE: FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE,FR;WKST=MO;COUNT=42
// with DTSTART;TZID=Europe/Berlin:20260216T093000. rrule wants DTSTART as a
// "floating" Date whose UTC fields hold the wall clock in TZID (its `datetime`).
const rruleOptions = {
  freq: RRule.WEEKLY,
  interval: 1,
  byweekday: [RRule.MO, RRule.WE, RRule.FR],
  wkst: RRule.MO,
  dtstart: datetime(2026, 2, 16, 9, 30),
  tzid: 'Europe/Berlin',
  count: COUNT,
};

const ours = () => expandPattern(pattern, COUNT, NOW_MS);
// A new RRule each time: an instance caches what all() returned, which would
// time a cache hit, not an expansion.
const rrule = () => new RRule(rruleOptions).all();

// What rrule returns with a TZID is not the instant either. It is "floating"
// again, shifted into the process's own zone: a Date whose UTC fields show the
// wall clock of the process zone at the real instant (rrule's README: Tokyo
// 10:30 comes back as 17:30Z on a Los Angeles machine). So the real instant is
// those UTC fields read back as local wall time, which the local Date
// constructor does. That is exact on a UTC machine (the common CI case) and
// elsewhere except for a wall time inside the process zone's own gap or
// overlap. rrule also takes the TZID offset at the floating value rather than
// at the real instant, which can be an hour off within hours of a change; at
// 09:30 Berlin (changes at 01:00Z) that never happens, and the check below
// would catch it if it did.
const toInstant = (d) =>
  new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()).getTime();
const rruleInstants = () => rrule().map(toInstant);

// Same 42 instants, or there is nothing to compare.
const expected = ours().map((o) => o.instantMs);
const theirs = rruleInstants();
if (expected.length !== COUNT || theirs.length !== COUNT || expected.some((ms, i) => ms !== theirs[i])) {
  throw new Error(
    `expansions differ:\nours  ${expected.map((ms) => new Date(ms).toISOString()).join(' ')}\nrrule ${theirs.map((ms) => new Date(ms).toISOString()).join(' ')}`,
  );
}
const crossesChange = new Set(expected.map((ms) => new Date(ms).getUTCHours())).size === 2;

let sink = 0;
/** Calls per second of `fn`, run in batches for about `ms` milliseconds. */
function opsPerSecond(fn, ms) {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 200; i++) sink += fn().length;
    calls += 200;
    elapsed = performance.now() - start;
  }
  return (calls * 1000) / elapsed;
}

// For reference only, outside the ratio: rrule without TZID, which returns
// wall-clock times, not instants. It shows how much of rrule's cost is its
// zone handling (Intl formatting of every date) rather than the recurrence.
const { tzid: _zone, ...floatingOptions } = rruleOptions;
const rruleFloating = () => new RRule(floatingOptions).all();

const contenders = { ours, rrule, rrule_with_conversion: rruleInstants, rrule_floating_reference: rruleFloating };
// Warm up every contender (JIT, our offset cache, rrule's Intl formatters)
// before anything counts.
for (const fn of Object.values(contenders)) opsPerSecond(fn, ROUND_MS);
// Interleaved rounds, so drift in machine load falls on all alike; the median round counts.
const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(contenders)) samples[name].push(opsPerSecond(fn, ROUND_MS));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const result = (name) => {
  const ops = median(samples[name]);
  return { ops_per_sec: Math.round(ops), us_per_op: Math.round((1e6 / ops) * 100) / 100 };
};

const report = {
  benchmark: 'Expand a 42-occurrence weekly pattern (mon+wed+fri, 09:30 Europe/Berlin, across a DST change): expandPattern vs rrule@2',
  occurrences: COUNT,
  first: new Date(expected[0]).toISOString(),
  last: new Date(expected[COUNT - 1]).toISOString(),
  crosses_dst_change: crossesChange,
  same_instants: true,
  rounds: ROUNDS,
  round_ms: ROUND_MS,
  process_time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  ours: result('ours'),
  rrule: result('rrule'),
  rrule_with_conversion: result('rrule_with_conversion'),
  rrule_floating_reference: result('rrule_floating_reference'),
};
report.ratio_ours_over_rrule = Math.round((report.ours.ops_per_sec / report.rrule.ops_per_sec) * 100) / 100;
report.ratio_ours_over_rrule_with_conversion = Math.round((report.ours.ops_per_sec / report.rrule_with_conversion.ops_per_sec) * 100) / 100;
if (sink === 0) throw new Error('nothing was expanded');

writeReport('expand', report);
process.stdout.write(
  `expand (42 weekly, Europe/Berlin, DST): ours ${report.ours.ops_per_sec} ops/s (${report.ours.us_per_op} µs), rrule ${report.rrule.ops_per_sec} ops/s (${report.rrule.us_per_op} µs), ${report.rrule_with_conversion.ops_per_sec} ops/s with conversion; ours/rrule ${report.ratio_ours_over_rrule}x\n`,
);
