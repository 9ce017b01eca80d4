// What the core benchmarks share: the dependencies a front end passes to
// core, a list_slots call, interleaved timing and the report file. A bench
// that measures one thing against a floor uses `interleaved`, so both sides
// see the same machine in the same run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from '../dist/index.js';

const results = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench-results');

/** The dependencies every front end gives core, on `store`, reading calendars through `calendars`. */
export function benchDeps(store, clock, calendars = core.createCalendarReader(async () => [])) {
  return {
    store,
    clock,
    ids: core.randomIds,
    idempotencyLeaseMs: 60_000,
    calendars,
    conferenceLinks: core.conferenceLinksAt('https://meet.test'),
  };
}

const listSlots = core.operations.find((o) => o.name === 'list_slots');

/** Times one list_slots of `eventTypeId` over [start, end) as `principal`; a status other than 200 stops the bench. */
export async function timedSlots(deps, principal, eventTypeId, start, end) {
  const call = {
    params: {},
    query: { event_type_id: eventTypeId, start: new Date(start).toISOString(), end: new Date(end).toISOString() },
    body: undefined,
  };
  const t = performance.now();
  const executed = await core.execute(deps, listSlots, principal, call, 'bench');
  const ms = performance.now() - t;
  if (executed.outcome.status !== 200) throw new Error(`slots answered ${executed.outcome.status}`);
  return { ms, slots: executed.outcome.data.slots };
}

/** p50 and p99 in milliseconds (three decimals) of `samples`. */
export function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50Ms: Math.round(at(0.5) * 1000) / 1000, p99Ms: Math.round(at(0.99) * 1000) / 1000, n: sorted.length };
}

/**
 * Runs `measured` and `floor` alternately, 30 warm-up rounds then `rounds`
 * timed ones, each answering `{ ms }`; answers both sides' percentiles and
 * the ratio of their p50s.
 */
export async function interleaved(rounds, measured, floor) {
  for (let i = 0; i < 30; i++) {
    await measured();
    await floor();
  }
  const measuredSamples = [];
  const floorSamples = [];
  for (let i = 0; i < rounds; i++) {
    measuredSamples.push((await measured()).ms);
    floorSamples.push((await floor()).ms);
  }
  const a = percentiles(measuredSamples);
  const b = percentiles(floorSamples);
  return { measured: a, floor: b, ratio: Math.round((a.p50Ms / b.p50Ms) * 100) / 100 };
}

/** Writes `report` to bench-results/<name>.json at the repository root and prints it. */
export function writeReport(name, report) {
  mkdirSync(results, { recursive: true });
  writeFileSync(resolve(results, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
