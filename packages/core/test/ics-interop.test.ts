import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { busyWithin } from '../src/availability/adapters/ics/busy-within.js';
import { parseFeed } from '../src/availability/adapters/ics/parse-feed.js';
import type { Interval } from '../src/availability/busy.js';
import { independentPython, readIndependently } from './support/independent-expander.js';

// Feeds written for this project, each reproducing one producer's quirk (the
// first lines of each file name the producer), read by us and by an
// independent expander, and compared five minutes at a time over one window.

const folder = fileURLToPath(new URL('./fixtures/interop/', import.meta.url));
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.ics'))
  .sort();
const WINDOW: Interval = { startMs: Date.parse('2026-03-01T00:00:00Z'), endMs: Date.parse('2026-04-15T00:00:00Z') };
const HOST = 'Europe/Berlin';
const STEP_MS = 5 * 60_000;

/** Files the independent expander cannot read at all, and why. */
const NOT_COMPARABLE: Record<string, string> = {
  'exchange-tzid-param-colon.ics':
    'icalendar does not read `DTSTART;TZID:Pacific Standard Time:…` (a parameter written with `:`) as a DTSTART at all (KeyError); we mend the parameter',
  'orphan-overrides.ics':
    'recurring-ical-events 2.0.1 fails (TypeError) on the RDATE;VALUE=PERIOD of an override whose series is not in the feed; we read its periods',
};

/** Files both read, but differently, and why ours is the reading we keep. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'outlook-windows-zone.ics':
    'recurring-ical-events 2.0.1 leaves out the occurrence that falls exactly on UNTIL (2026-04-13 09:00 Pacific = 16:00Z); RFC 5545 §3.3.10 makes UNTIL inclusive, so we block it',
  'sequence-revisions.ics':
    'recurring-ical-events also blocks an older revision (SEQUENCE:1) of an event whose newest (SEQUENCE:2) moved it; RFC 5545 §3.8.7.4: only the newest revision counts',
};

/** The five-minute steps of the window that some interval covers, as the minutes since the window's start. */
function steps(busy: readonly Interval[]): number[] {
  const covered = new Set<number>();
  for (const { startMs, endMs } of busy) {
    const from = Math.max(startMs, WINDOW.startMs);
    const to = Math.min(endMs, WINDOW.endMs);
    for (let at = Math.floor((from - WINDOW.startMs) / STEP_MS) * STEP_MS; WINDOW.startMs + at < to; at += STEP_MS)
      covered.add(at / 60_000);
  }
  return [...covered].sort((a, b) => a - b);
}

/** Where two readings differ, as the first few steps only one of them covers. */
function difference(ours: readonly number[], theirs: readonly number[]): string {
  const mine = new Set(ours);
  const other = new Set(theirs);
  const at = (minutes: number) => new Date(WINDOW.startMs + minutes * 60_000).toISOString();
  const onlyOurs = ours.filter((m) => !other.has(m));
  const onlyTheirs = theirs.filter((m) => !mine.has(m));
  return `only ours ${onlyOurs.length} (${onlyOurs.slice(0, 3).map(at).join(', ')}), only theirs ${onlyTheirs.length} (${onlyTheirs.slice(0, 3).map(at).join(', ')})`;
}

async function readOurs(file: string): Promise<{ busy: Interval[]; skipped: number } | { error: string }> {
  try {
    const feed = parseFeed(await readFile(`${folder}${file}`, 'utf8'));
    return { busy: busyWithin(feed.series, WINDOW, HOST), skipped: feed.skipped.length };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

describe('feeds as real producers write them, against an independent expander', () => {
  it('holds at least a dozen files, and every listed file exists', () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const file of [...Object.keys(NOT_COMPARABLE), ...Object.keys(KNOWN_DIFFERENCES)]) expect(files).toContain(file);
  });

  it('every file is readable by us', async () => {
    const unreadable: Record<string, string> = {};
    for (const file of files) {
      const ours = await readOurs(file);
      if ('error' in ours) unreadable[file] = ours.error;
    }
    expect(unreadable).toEqual({});
  });

  it.skipIf(!independentPython)('agrees with recurring-ical-events at five-minute resolution, except where explained', async () => {
    const theirs = readIndependently(
      independentPython as string,
      files.map((f) => `${folder}${f}`),
      WINDOW,
      HOST,
    );
    const incomparable: Record<string, string> = {};
    const differing: Record<string, string> = {};
    let agreeing = 0;
    for (const file of files) {
      const other = theirs.get(`${folder}${file}`);
      if (!other || 'error' in other) {
        incomparable[file] = other?.error ?? 'no answer';
        continue;
      }
      const ours = await readOurs(file);
      const theirSteps = steps(other.busy);
      if ('error' in ours) {
        differing[file] = `ours unreadable: ${ours.error}`;
        continue;
      }
      const ourSteps = steps(ours.busy);
      if (ourSteps.join() === theirSteps.join()) agreeing++;
      else differing[file] = difference(ourSteps, theirSteps);
    }
    const comparable = files.length - Object.keys(incomparable).length;
    // The numbers issue 30 asks for in its closing note.
    console.info(`ics interop: ${files.length} files, ${comparable} comparable, ${agreeing} agree`);
    console.info(JSON.stringify({ incomparable, differing }, null, 2));
    expect(Object.keys(incomparable).sort()).toEqual(Object.keys(NOT_COMPARABLE).sort());
    expect(Object.keys(differing).sort()).toEqual(Object.keys(KNOWN_DIFFERENCES).sort());
  });
});
