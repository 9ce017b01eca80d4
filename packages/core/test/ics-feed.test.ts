import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { icsFeedReader } from '../src/availability/adapters/ics-feed.js';
import type { Interval } from '../src/availability/busy.js';
import { CalendarUnreadable } from '../src/availability/calendar-reader.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { deferred, listenOnLoopback } from './support/loopback-server.js';

const fixtures = new URL('./fixtures/', import.meta.url);
const span = (start: string, end: string): Interval => ({ startMs: Date.parse(start), endMs: Date.parse(end) });
const JANUARY_2026 = span('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
const SIMPLE_BUSY = [span('2026-01-05T10:00:00Z', '2026-01-05T11:30:00Z')];

// A real feed server: fixtures by name, plus routes that misbehave in the ways a calendar host can.
let server: Server;
let base: string;
let closedPortBase: string;
const hits = new Map<string, number>();
let gate = { arrived: deferred(), release: deferred() };
let flakyFailed = false;
let seenAuthorization: string | undefined;

type Route = (req: IncomingMessage, res: ServerResponse) => unknown;
const special: Record<string, Route> = {
  '/error.ics': (_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error'),
  '/never-answers.ics': () => {}, // keeps the socket open and says nothing
  '/stalls-mid-body.ics': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/calendar' }).write('BEGIN:VCALENDAR\r\n');
  },
  '/big.ics': (_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end('X'.repeat(2048)),
  '/big-chunked.ics': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/calendar' }); // no content-length: sent chunked
    res.write('X'.repeat(800));
    res.end('X'.repeat(800));
  },
  '/moved.ics': (_req, res) => res.writeHead(302, { location: '/simple.ics' }).end(),
  '/gated.ics': async (_req, res) => {
    gate.arrived.resolve();
    await gate.release.promise;
    await serveFixture('simple.ics', res);
  },
  '/flaky.ics': async (_req, res) => {
    if (!flakyFailed) {
      flakyFailed = true;
      res.writeHead(503).end();
      return;
    }
    await serveFixture('simple.ics', res);
  },
  '/private.ics': async (req, res) => {
    seenAuthorization = req.headers.authorization;
    if (req.headers.authorization !== `Basic ${Buffer.from('alice:s3cret').toString('base64')}`) {
      res.writeHead(401).end();
      return;
    }
    await serveFixture('simple.ics', res);
  },
};

/** Feeds a test writes, served as they are at the time of the request. */
const written = new Map<string, string>();

const garbage: Record<string, string> = {
  '/prose.ics': 'this is not a calendar\n',
  '/html.ics': '<!doctype html><html><body>Sign in to see this calendar</body></html>\n',
  '/empty.ics': '',
  '/unterminated.ics': 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\n',
  '/vcard.ics': 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Alice\r\nEND:VCARD\r\n',
  '/crossed.ics': 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nEND:VCALENDAR\r\nEND:VEVENT\r\n',
  '/bad-date.ics': 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:tomorrow-ish\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
};

async function serveFixture(name: string, res: ServerResponse) {
  const body = await readFile(new URL(name, fixtures));
  res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8', 'content-length': body.length }).end(body);
}

const listen = async (s: Server) => `http://127.0.0.1:${await listenOnLoopback(s)}`;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    // /hops-N.ics redirects N times before it reaches simple.ics.
    const hops = /^\/hops-(\d+)\.ics$/.exec(path)?.[1];
    const route: Route | undefined = hops
      ? (_req, res) => res.writeHead(302, { location: hops === '1' ? '/simple.ics' : `/hops-${Number(hops) - 1}.ics` }).end()
      : special[path];
    const text = garbage[path] ?? written.get(path);
    try {
      if (route) await route(req, res);
      else if (text !== undefined) res.writeHead(200, { 'content-type': 'text/calendar' }).end(text);
      else await serveFixture(path.slice(1), res);
    } catch {
      res.writeHead(404).end();
    }
  });
  base = await listen(server);
  // A port that was just free: connecting to it is refused.
  const closed = createServer();
  closedPortBase = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let clock: ManualClock;
beforeEach(() => {
  clock = manualClock('2026-01-01T00:00:00Z');
  hits.clear();
});

const feed = (name: string) => `${base}/${name}`;

describe('reading busy times from an iCalendar feed', () => {
  it('reads a single event', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('simple.ics'), JANUARY_2026)).toEqual(SIMPLE_BUSY);
  });

  it('ignores an event marked TRANSP:TRANSPARENT and keeps an opaque one', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('transparent.ics'), JANUARY_2026)).toEqual([span('2026-01-05T12:00:00Z', '2026-01-05T13:00:00Z')]);
  });

  it('ignores a STATUS:CANCELLED event and keeps a tentative one', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('cancelled.ics'), JANUARY_2026)).toEqual([span('2026-01-05T14:00:00Z', '2026-01-05T15:00:00Z')]);
  });

  it('returns only events that overlap the half-open range, unclipped', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('range.ics'), span('2026-03-10T10:00:00Z', '2026-03-10T12:00:00Z'))).toEqual([
      span('2026-03-10T08:00:00Z', '2026-03-10T14:00:00Z'),
      span('2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z'),
      span('2026-03-10T11:00:00Z', '2026-03-10T12:00:00Z'),
    ]);
  });

  it('follows up to five redirects', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('moved.ics'), JANUARY_2026)).toEqual(SIMPLE_BUSY);
    expect(await read(feed('hops-5.ics'), JANUARY_2026)).toEqual(SIMPLE_BUSY);
  });

  it('sends credentials in the URL as Basic authorization', async () => {
    const read = icsFeedReader({ clock });
    const url = `http://alice:s3cret@${base.slice('http://'.length)}/private.ics`;
    expect(await read(url, JANUARY_2026)).toEqual(SIMPLE_BUSY);
    expect(seenAuthorization).toBe('Basic YWxpY2U6czNjcmV0');
  });
});

describe('recurring events', () => {
  it('expands a weekly rule with an RDATE, an EXDATE, a moved and a cancelled instance', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('weekly.ics'), span('2026-01-01T00:00:00Z', '2026-02-17T00:00:00Z'))).toEqual([
      span('2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z'),
      span('2026-01-08T15:00:00Z', '2026-01-08T16:00:00Z'), // RDATE
      span('2026-01-12T10:00:00Z', '2026-01-12T11:00:00Z'),
      // 2026-01-19 is an EXDATE
      span('2026-01-27T14:00:00Z', '2026-01-27T15:30:00Z'), // 2026-01-26 moved to Tuesday
      span('2026-02-02T10:00:00Z', '2026-02-02T11:00:00Z'),
      // 2026-02-09 is cancelled by its override
      span('2026-02-16T10:00:00Z', '2026-02-16T11:00:00Z'),
    ]);
  });

  it('does not report a moved occurrence at its original time', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('weekly.ics'), span('2026-01-26T00:00:00Z', '2026-01-27T00:00:00Z'))).toEqual([]);
  });

  it('finds an occurrence moved into the range from after it', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('weekly.ics'), span('2026-02-24T00:00:00Z', '2026-02-25T00:00:00Z'))).toEqual([
      span('2026-02-24T08:00:00Z', '2026-02-24T09:00:00Z'),
    ]);
  });

  it('expands an endless rule only within the range', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('weekly.ics'), span('2030-01-07T10:30:00Z', '2030-01-14T10:30:00Z'))).toEqual([
      span('2030-01-07T10:00:00Z', '2030-01-07T11:00:00Z'),
      span('2030-01-14T10:00:00Z', '2030-01-14T11:00:00Z'),
    ]);
  });

  // ical.js, left to relate overrides itself, lets one series' RECURRENCE-ID replace another series' occurrence.
  it('an override replaces only an occurrence of its own series', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('two-series.ics'), JANUARY_2026)).toEqual([
      span('2026-01-12T10:00:00Z', '2026-01-12T11:00:00Z'), // planning
      span('2026-01-12T16:00:00Z', '2026-01-12T17:00:00Z'), // standup, moved
      span('2026-01-13T10:00:00Z', '2026-01-13T10:30:00Z'), // standup
      span('2026-01-19T10:00:00Z', '2026-01-19T11:00:00Z'), // planning
    ]);
  });

  it('makes the calendar unreadable when a rule recurs too densely to expand', async () => {
    const read = icsFeedReader({ clock });
    const url = feed('too-dense.ics');
    await expect(read(url, span('2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'))).rejects.toThrow(
      new CalendarUnreadable(
        `calendar ${url} is unreadable: event every-second@schedule.test recurs more than 10000 times before the window ends`,
      ),
    );
  });
});

describe('times and zones', () => {
  it('reads TZID=Europe/Berlin times through the feed VTIMEZONE across the March change', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('berlin.ics'), span('2026-03-27T00:00:00Z', '2026-03-29T00:00:00Z'))).toEqual([
      span('2026-03-27T08:00:00Z', '2026-03-27T08:30:00Z'), // 09:00 CET
      span('2026-03-28T08:00:00Z', '2026-03-28T08:30:00Z'), // 09:00 CET
    ]);
    expect(await read(feed('berlin.ics'), span('2026-03-29T02:00:00Z', '2026-03-31T00:00:00Z'))).toEqual([
      span('2026-03-29T07:00:00Z', '2026-03-29T07:30:00Z'), // 09:00 CEST
      span('2026-03-30T07:00:00Z', '2026-03-30T07:30:00Z'), // 09:00 CEST
    ]);
  });

  // RFC 5545 §3.3.5: a local time the change skips takes the offset from before it, 02:30 CET = 03:30 CEST.
  it('spring-forward gap moves forward', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('berlin.ics'), span('2026-03-29T00:00:00Z', '2026-03-29T02:00:00Z'))).toEqual([
      span('2026-03-29T01:30:00Z', '2026-03-29T02:00:00Z'),
    ]);
  });

  // RFC 5545 §3.3.5: a local time that happens twice means the first, 02:30 CEST.
  it('fall-back takes the first instant', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('berlin.ics'), span('2026-10-24T00:00:00Z', '2026-10-26T00:00:00Z'))).toEqual([
      span('2026-10-25T00:30:00Z', '2026-10-25T02:30:00Z'),
    ]);
  });

  it('covers all-day events as whole UTC days, one day when DTEND is missing', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('all-day.ics'), span('2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'))).toEqual([
      span('2026-02-10T00:00:00Z', '2026-02-12T00:00:00Z'),
      span('2026-02-15T00:00:00Z', '2026-02-16T00:00:00Z'),
      span('2026-02-20T00:00:00Z', '2026-02-21T00:00:00Z'), // yearly since 1999
    ]);
  });

  it('reads DURATION, ignores an instant, and reads floating and undefined-zone times as UTC', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('times.ics'), span('2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z'))).toEqual([
      span('2026-03-02T09:00:00Z', '2026-03-02T09:45:00Z'), // DURATION:PT45M
      span('2026-03-02T12:30:00Z', '2026-03-02T13:30:00Z'), // 18:00 in the feed's own +05:30 zone
      span('2026-03-02T14:00:00Z', '2026-03-02T15:00:00Z'), // floating
      span('2026-03-02T16:00:00Z', '2026-03-02T16:30:00Z'), // TZID with no VTIMEZONE
    ]);
  });
});

describe('calendars as producers write them (issue 20)', () => {
  it('a TZID the feed does not define is kept by every expanded occurrence, and a UTC EXDATE removes its occurrence', async () => {
    const read = icsFeedReader({ clock });
    // America/Denver in January is UTC-7: 10:00 local is 17:00Z, for the first instance and every one after it.
    const expected = [
      span('2026-01-05T17:00:00Z', '2026-01-05T18:00:00Z'),
      span('2026-01-06T17:00:00Z', '2026-01-06T18:00:00Z'),
      span('2026-01-08T19:00:00Z', '2026-01-08T20:00:00Z'),
      span('2026-01-09T17:00:00Z', '2026-01-09T18:00:00Z'),
    ];
    expect(await read(feed('tzid-without-vtimezone.ics'), JANUARY_2026, 'UTC')).toEqual(expected);
    expect(await read(feed('tzid-without-vtimezone.ics'), JANUARY_2026, 'America/New_York')).toEqual(expected);
  });

  it('a recurring all-day event blocks each whole local day, 23 hours on the spring-forward day', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('all-day-dst.ics'), span('2026-03-01T00:00:00Z', '2026-05-01T00:00:00Z'), 'Europe/Berlin')).toEqual([
      span('2026-03-21T23:00:00Z', '2026-03-22T23:00:00Z'),
      span('2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z'),
      span('2026-04-04T22:00:00Z', '2026-04-05T22:00:00Z'),
    ]);
  });

  it('RDATE;VALUE=PERIOD instances block their own periods, in any window', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('rdate-period.ics'), JANUARY_2026)).toEqual([
      span('2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z'),
      span('2026-01-07T14:00:00Z', '2026-01-07T16:00:00Z'),
      span('2026-01-09T08:00:00Z', '2026-01-09T08:30:00Z'),
    ]);
    expect(await read(feed('rdate-period.ics'), span('2026-01-08T00:00:00Z', '2026-01-10T00:00:00Z'))).toEqual([
      span('2026-01-09T08:00:00Z', '2026-01-09T08:30:00Z'),
    ]);
  });
});

describe('the feed cache', () => {
  it('fetches once within the time to live and again once it runs out', async () => {
    const read = icsFeedReader({ clock });
    await read(feed('simple.ics'), JANUARY_2026);
    clock.advance(59_999);
    expect(await read(feed('simple.ics'), span('2026-01-05T11:00:00Z', '2026-01-06T00:00:00Z'))).toEqual(SIMPLE_BUSY);
    expect(hits.get('/simple.ics')).toBe(1);
    clock.advance(1);
    expect(await read(feed('simple.ics'), JANUARY_2026)).toEqual(SIMPLE_BUSY);
    expect(hits.get('/simple.ics')).toBe(2);
  });

  it('fetches every time with a time to live of zero', async () => {
    const read = icsFeedReader({ clock, cacheTtlMs: 0 });
    await read(feed('simple.ics'), JANUARY_2026);
    await read(feed('simple.ics'), JANUARY_2026);
    expect(hits.get('/simple.ics')).toBe(2);
  });

  it('shares one fetch among reads made while it is in flight', async () => {
    gate = { arrived: deferred(), release: deferred() };
    const read = icsFeedReader({ clock, cacheTtlMs: 0 });
    const first = read(feed('gated.ics'), JANUARY_2026);
    const second = read(feed('gated.ics'), JANUARY_2026);
    await gate.arrived.promise; // the server holds the one request it has seen
    const third = read(feed('gated.ics'), JANUARY_2026);
    gate.release.resolve();
    expect(await Promise.all([first, second, third])).toEqual([SIMPLE_BUSY, SIMPLE_BUSY, SIMPLE_BUSY]);
    expect(hits.get('/gated.ics')).toBe(1);
  });

  it('does not remember a failed fetch', async () => {
    flakyFailed = false;
    const read = icsFeedReader({ clock });
    await expect(read(feed('flaky.ics'), JANUARY_2026)).rejects.toThrow(CalendarUnreadable);
    expect(await read(feed('flaky.ics'), JANUARY_2026)).toEqual(SIMPLE_BUSY);
    expect(hits.get('/flaky.ics')).toBe(2);
  });

  it('keeps feeds apart by URL', async () => {
    const read = icsFeedReader({ clock });
    expect(await read(feed('simple.ics'), JANUARY_2026)).toEqual(SIMPLE_BUSY);
    expect(await read(feed('cancelled.ics'), JANUARY_2026)).toEqual([span('2026-01-05T14:00:00Z', '2026-01-05T15:00:00Z')]);
  });
});

interface RecurringEvent {
  readonly uid: string;
  readonly rule: string;
  /** UTC, basic form. */
  readonly start: string;
  readonly duration: string;
}

/** A feed of these recurring events. */
function calendarOf(events: readonly RecurringEvent[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//schedule//ics-feed tests//EN'];
  for (const e of events) {
    lines.push('BEGIN:VEVENT', `UID:${e.uid}`, `DTSTART:${e.start}`, `DURATION:${e.duration}`, `RRULE:${e.rule}`, 'END:VEVENT');
  }
  return [...lines, 'END:VCALENDAR', ''].join('\r\n');
}

/** `count` events alike, each `rule` from `start`, lasting `duration`. */
function alike(rule: string, start: string, count: number, duration = 'PT1S'): RecurringEvent[] {
  return Array.from({ length: count }, (_, i) => ({ uid: `e${i}@schedule.test`, rule, start, duration }));
}

/** A feed of `count` events alike. */
const feedOf = (rule: string, start: string, count: number, duration?: string) => calendarOf(alike(rule, start, count, duration));

/**
 * Counts the expansion's work as ical.js's recurrence steps, whatever the
 * reader does around them: each step is an occurrence ical.js works out.
 */
function recurrenceSteps() {
  const spy = vi.spyOn(ICAL.RecurExpansion.prototype, 'next');
  return {
    /** Steps since the last call. */
    take(): number {
      const n = spy.mock.calls.length;
      spy.mockClear();
      return n;
    },
    restore: () => spy.mockRestore(),
  };
}

describe('the cost of expanding a feed (issue 29)', () => {
  let steps: ReturnType<typeof recurrenceSteps>;
  beforeEach(() => {
    steps = recurrenceSteps();
    return () => steps.restore();
  });

  it('a feed of events repeating every second costs one bounded expansion, then nothing on the reads after', async () => {
    written.set('/every-second.ics', feedOf('FREQ=SECONDLY', '20260102T090000Z', 10));
    const read = icsFeedReader({ clock });
    const url = feed('every-second.ics');
    const unreadable = new CalendarUnreadable(
      `calendar ${url} is unreadable: event e0@schedule.test recurs more than 10000 times before the window ends`,
    );
    await expect(read(url, span('2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'))).rejects.toThrow(unreadable);
    expect(steps.take()).toBeLessThanOrEqual(10_001);
    // Other ranges in the same window, and the same one again: the outcome is known.
    for (const day of ['2026-01-02', '2026-01-05', '2026-02-20']) {
      await expect(read(url, span(`${day}T00:00:00Z`, `${day}T12:00:00Z`))).rejects.toThrow(unreadable);
    }
    expect(steps.take()).toBe(0);
  });

  it('a feed whose events together recur more than 20,000 times before the window ends is unreadable, at that cost', async () => {
    // Five hourly events from ten months back: about 9,500 occurrences each before the window ends, fine alone, 47,000 together.
    written.set('/hourly.ics', feedOf('FREQ=HOURLY', '20250301T000000Z', 5));
    const read = icsFeedReader({ clock });
    const url = feed('hourly.ics');
    await expect(read(url, span('2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'))).rejects.toThrow(
      new CalendarUnreadable(`calendar ${url} is unreadable: its events recur more than 20000 times in all before the window ends`),
    );
    expect(steps.take()).toBeLessThanOrEqual(20_000 + 5);
  });

  it('20,000 occurrences in all are read; one more makes the feed unreadable', async () => {
    // Two events of 10,000 minutes each (the most one event may have), then one more single occurrence.
    const twoOfTenThousand = alike('FREQ=MINUTELY;COUNT=10000', '20260102T000000Z', 2);
    const oneMore = { uid: 'one-more@schedule.test', rule: 'FREQ=DAILY;COUNT=1', start: '20260103T000000Z', duration: 'PT1S' };
    written.set('/at-the-bound.ics', calendarOf(twoOfTenThousand));
    written.set('/over-the-bound.ics', calendarOf([...twoOfTenThousand, oneMore]));
    const read = icsFeedReader({ clock });
    const day = span('2026-01-02T00:00:00Z', '2026-01-02T00:02:00Z');
    expect(await read(feed('at-the-bound.ics'), day)).toHaveLength(4);
    await expect(read(feed('over-the-bound.ics'), day)).rejects.toThrow(
      'its events recur more than 20000 times in all before the window ends',
    );
  });

  it('an unchanged feed is expanded once for the reads of its window, a day back to 92 days ahead, per host zone', async () => {
    written.set('/daily.ics', feedOf('FREQ=DAILY', '20251201T130000Z', 1, 'PT1H'));
    const read = icsFeedReader({ clock });
    const url = feed('daily.ics');
    const at1300 = (day: string) => span(`${day}T13:00:00Z`, `${day}T14:00:00Z`);
    // Now is 2026-01-01T00:00Z: the window is 2025-12-31T00:00Z to 2026-04-02T00:00Z.
    const first = await read(url, span('2025-12-31T12:00:00Z', '2026-01-01T12:00:00Z'));
    expect(first).toEqual([at1300('2025-12-31')]);
    expect(steps.take()).toBeGreaterThan(0);
    // Every slot list and check within it is served from that one expansion.
    expect(await read(url, span('2026-01-12T00:00:00Z', '2026-01-13T00:00:00Z'))).toEqual([at1300('2026-01-12')]);
    expect(await read(url, span('2026-03-31T13:30:00Z', '2026-04-02T00:00:00Z'))).toEqual([at1300('2026-03-31'), at1300('2026-04-01')]);
    expect(await read(url, span('2025-12-31T12:00:00Z', '2026-01-01T12:00:00Z'))).toEqual(first);
    expect(steps.take()).toBe(0);
    // A range reaching before the window, or beyond it, is expanded on its own, and kept.
    const before = span('2025-12-29T00:00:00Z', '2025-12-31T12:00:00Z');
    const beyond = span('2030-01-07T00:00:00Z', '2030-01-08T00:00:00Z');
    expect(await read(url, before)).toEqual([at1300('2025-12-29'), at1300('2025-12-30')]);
    expect(await read(url, beyond)).toEqual([at1300('2030-01-07')]);
    expect(steps.take()).toBeGreaterThan(0);
    expect(await read(url, before)).toEqual([at1300('2025-12-29'), at1300('2025-12-30')]);
    expect(await read(url, beyond)).toEqual([at1300('2030-01-07')]);
    expect(steps.take()).toBe(0);
    // Another host zone is expanded on its own, once.
    await read(url, span('2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z'), 'America/New_York');
    expect(steps.take()).toBeGreaterThan(0);
    expect(await read(url, span('2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z'), 'America/New_York')).toEqual([at1300('2026-01-05')]);
    expect(steps.take()).toBe(0);
  });

  it('a feed fetched again with the same body keeps its expansion; a changed body is read afresh', async () => {
    written.set('/changing.ics', feedOf('FREQ=DAILY', '20260101T090000Z', 1, 'PT1H'));
    const read = icsFeedReader({ clock });
    const url = feed('changing.ics');
    const day = span('2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z');
    expect(await read(url, day)).toEqual([span('2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z')]);
    steps.take();
    clock.advance(60_000);
    expect(await read(url, day)).toEqual([span('2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z')]);
    expect(hits.get('/changing.ics')).toBe(2);
    expect(steps.take()).toBe(0);
    written.set('/changing.ics', feedOf('FREQ=DAILY', '20260101T140000Z', 1, 'PT1H'));
    clock.advance(60_000);
    expect(await read(url, day)).toEqual([span('2026-01-05T14:00:00Z', '2026-01-05T15:00:00Z')]);
    expect(steps.take()).toBeGreaterThan(0);
  });

  it('sixteen reads at once of one feed expand it once', async () => {
    written.set('/busy-daily.ics', feedOf('FREQ=DAILY', '20200101T090000Z', 3, 'PT1H'));
    const read = icsFeedReader({ clock });
    const url = feed('busy-daily.ics');
    await read(url, span('2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z'));
    const one = steps.take();
    clock.advance(60_000); // a fresh fetch, the expansion with it
    written.set('/busy-daily.ics', feedOf('FREQ=DAILY', '20200101T100000Z', 3, 'PT1H'));
    const reads = Array.from({ length: 16 }, (_, i) =>
      read(url, span(`2026-01-${String(5 + i).padStart(2, '0')}T00:00:00Z`, `2026-01-${String(5 + i).padStart(2, '0')}T23:00:00Z`)),
    );
    const all = await Promise.all(reads);
    expect(all.map((busy) => busy.length)).toEqual(Array(16).fill(3));
    expect(steps.take()).toBe(one);
  });
});

describe('an unreadable feed throws CalendarUnreadable', () => {
  const unreadable = (url: string, reason: string) => new CalendarUnreadable(`calendar ${url} is unreadable: ${reason}`);

  it('when the connection is refused', async () => {
    const read = icsFeedReader({ clock });
    const url = `${closedPortBase}/cal.ics`;
    await expect(read(url, JANUARY_2026)).rejects.toThrow(
      unreadable(url, `connect ECONNREFUSED ${closedPortBase.slice('http://'.length)}`),
    );
  });

  it('when the server answers HTTP 500', async () => {
    const read = icsFeedReader({ clock });
    await expect(read(feed('error.ics'), JANUARY_2026)).rejects.toThrow(unreadable(feed('error.ics'), 'HTTP 500'));
  });

  it('when it takes more than five redirects', async () => {
    const read = icsFeedReader({ clock });
    await expect(read(feed('hops-6.ics'), JANUARY_2026)).rejects.toThrow(unreadable(feed('hops-6.ics'), 'HTTP 302'));
  });

  it.each(['never-answers.ics', 'stalls-mid-body.ics'])('when %s: within the timeout', async (name) => {
    const read = icsFeedReader({ clock, timeoutMs: 200 });
    const started = performance.now();
    await expect(read(feed(name), JANUARY_2026)).rejects.toThrow(unreadable(feed(name), 'no complete answer within 200 ms'));
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it.each(['big.ics', 'big-chunked.ics'])('when %s is over maxBytes', async (name) => {
    const read = icsFeedReader({ clock, maxBytes: 1024 });
    await expect(read(feed(name), JANUARY_2026)).rejects.toThrow(unreadable(feed(name), 'body is larger than 1024 bytes'));
  });

  it.each([
    ['prose.ics', 'no VCALENDAR'],
    ['html.ics', 'no VCALENDAR'],
    ['empty.ics', 'no VCALENDAR'],
    ['unterminated.ics', 'VEVENT is never closed'],
    ['vcard.ics', 'no VCALENDAR'],
    ['crossed.ics', 'END:VCALENDAR closes VEVENT'],
  ])('when the body of %s is not a calendar', async (name, detail) => {
    const read = icsFeedReader({ clock });
    await expect(read(feed(name), JANUARY_2026)).rejects.toThrow(unreadable(feed(name), `not a valid iCalendar feed (${detail})`));
  });

  it('not when its only event cannot be read: the feed is read, the event skipped and reported by UID', async () => {
    const reports: unknown[] = [];
    const read = icsFeedReader({ clock, onSkippedEvents: (url, skipped) => reports.push({ url, skipped }) });
    expect(await read(feed('bad-date.ics'), JANUARY_2026)).toEqual([]);
    expect(reports).toEqual([{ url: feed('bad-date.ics'), skipped: [{ uid: 'x', reason: 'bad_value' }] }]);
  });

  it('not for an event without a UID overlapping the range (issue 30): it is busy time', async () => {
    written.set(
      '/no-uid.ics',
      'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260105T100000Z\r\nDTEND:20260105T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    const read = icsFeedReader({ clock });
    expect(await read(feed('no-uid.ics'), JANUARY_2026)).toEqual([span('2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z')]);
  });

  it('not when one event fails midway through its expansion (issue 30): it is left out and reported, once per expansion', async () => {
    written.set(
      '/fails-midway.ics',
      [
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'UID:midway',
        'DTSTART:20260105T080000Z',
        'DTEND:20260105T090000Z',
        'RRULE:FREQ=DAILY',
        // Six hundred days in a row excluded: ical.js gives up ("max tries have occurred").
        `EXDATE:${Array.from({ length: 600 }, (_, i) => `${new Date(Date.UTC(2026, 0, 6 + i)).toISOString().slice(0, 10).replace(/-/g, '')}T080000Z`).join(',')}`,
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    const reports: unknown[] = [];
    const read = icsFeedReader({ clock, onSkippedEvents: (url, skipped) => reports.push({ url, skipped }) });
    // Left out whole: its January 5 occurrence, worked out before ical.js gave up, too.
    expect(await read(feed('fails-midway.ics'), JANUARY_2026)).toEqual([]);
    expect(await read(feed('fails-midway.ics'), JANUARY_2026)).toEqual([]);
    expect(reports).toEqual([
      { url: feed('fails-midway.ics'), skipped: [] },
      { url: feed('fails-midway.ics'), skipped: [{ uid: 'midway', reason: 'unexpandable' }] },
    ]);
  });

  it('without the credentials of the URL in the message', async () => {
    const read = icsFeedReader({ clock });
    const url = `http://alice:wrong@${base.slice('http://'.length)}/private.ics`;
    const error = await read(url, JANUARY_2026).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarUnreadable);
    expect((error as Error).message).toBe(`calendar ${base}/private.ics is unreadable: HTTP 401`);
  });

  it('when the URL is not an http(s) URL', async () => {
    const read = icsFeedReader({ clock });
    await expect(read('not a url', JANUARY_2026)).rejects.toThrow(new CalendarUnreadable('calendar URL is not a valid URL'));
    await expect(read('ftp://127.0.0.1/cal.ics', JANUARY_2026)).rejects.toThrow(
      unreadable('ftp://127.0.0.1/cal.ics', 'unsupported protocol ftp:'),
    );
  });
});
