import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { icsFeedReader } from '../src/availability/adapters/ics-feed.js';
import type { Interval } from '../src/availability/busy.js';
import { manualClock } from '../src/clock.js';

// A corpus of feeds written in the style of real producers, each with busy times computed by hand
// (fixtures/corpus/expected.json says which producer and which quirk each file stands for).

const corpus = new URL('./fixtures/corpus/', import.meta.url);
const HOSTS = ['America/New_York', 'UTC'] as const;

interface Case {
  readonly source: string;
  readonly covers: string;
  readonly window: readonly [string, string];
  readonly skipped: readonly string[];
  readonly busy: Readonly<Record<(typeof HOSTS)[number], readonly (readonly [string, string])[]>>;
}

const expected: Record<string, Case> = JSON.parse(readFileSync(new URL('expected.json', corpus), 'utf8'));
const files = readdirSync(corpus).filter((name) => name.endsWith('.ics'));
const span = ([start, end]: readonly [string, string]): Interval => ({ startMs: Date.parse(start), endMs: Date.parse(end) });
/** Intervals as ISO strings, so a failure reads like expected.json. */
const shown = (busy: readonly Interval[]) =>
  busy.map((b) => `${new Date(b.startMs).toISOString()} .. ${new Date(b.endMs).toISOString()}`).join('\n');

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname.slice(1));
    if (!files.includes(name)) {
      res.writeHead(404).end();
      return;
    }
    const body = await readFile(new URL(name, corpus));
    res.writeHead(200, { 'content-type': 'text/calendar', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the iCalendar corpus', () => {
  it('has an expectation for every .ics file and a file for every expectation', () => {
    expect(files.length).toBe(Object.keys(expected).length);
    expect([...files].sort()).toEqual(Object.keys(expected).sort());
  });

  // Guards the hand-written data itself: every listed interval overlaps its window and the lists are in the reader's order.
  it('lists, for both hosts, only intervals that overlap the window, sorted by start then end', () => {
    for (const [file, c] of Object.entries(expected)) {
      const window = span(c.window);
      expect(Object.keys(c.busy).sort(), file).toEqual([...HOSTS].sort());
      for (const host of HOSTS) {
        const busy = c.busy[host].map(span);
        for (const b of busy) {
          expect(b.startMs < b.endMs && b.startMs < window.endMs && window.startMs < b.endMs, `${file} ${host} ${JSON.stringify(b)}`).toBe(
            true,
          );
        }
        const sorted = [...busy].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
        expect(busy, `${file} ${host}`).toEqual(sorted);
      }
    }
  });

  for (const [file, c] of Object.entries(expected)) {
    describe(file, () => {
      for (const host of HOSTS) {
        it(`busy times read by a host in ${host}`, async () => {
          const skipped: string[] = [];
          const read = icsFeedReader({
            clock: manualClock(Date.parse('2026-01-01T00:00:00Z')),
            cacheTtlMs: 0,
            onSkippedEvents: (_feed: string, events: readonly { uid: string }[]) => {
              skipped.push(...events.map((e) => e.uid));
            },
          });
          const busy = await read(`${base}/${encodeURIComponent(file)}`, span(c.window), host);
          const want = c.busy[host].map(span);
          expect(busy, `read:\n${shown(busy)}\nexpected:\n${shown(want)}\n`).toEqual(want);
          expect(skipped.sort()).toEqual([...c.skipped].sort());
        });
      }
    });
  }
});
