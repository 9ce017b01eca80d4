import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpansionBound } from '../src/availability/adapters/ics/busy-within.js';
import { icsFeedReader } from '../src/availability/adapters/ics-feed.js';
import { CalendarUnreadable } from '../src/availability/calendar-reader.js';
import { manualClock } from '../src/clock.js';
import { deferred, listenOnLoopback } from './support/loopback-server.js';

// How the feed reader speaks HTTP: what it asks for, what it sends, which
// answers it takes, and what it keeps of a failure for the operator's log.

const JANUARY_2026 = { startMs: Date.parse('2026-01-01T00:00:00Z'), endMs: Date.parse('2026-02-01T00:00:00Z') };
const EVENT = 'BEGIN:VEVENT\r\nUID:one\r\nDTSTART:20260105T100000Z\r\nDTEND:20260105T110000Z\r\nEND:VEVENT\r\n';
const BUSY = [{ startMs: Date.parse('2026-01-05T10:00:00Z'), endMs: Date.parse('2026-01-05T11:00:00Z') }];

/** A calendar of one event, padded with a comment line to exactly `bytes` bytes. */
function calendarOf(bytes: number): string {
  const bare = `BEGIN:VCALENDAR\r\n${EVENT}END:VCALENDAR\r\n`;
  const pad = `X-PAD:${'x'.repeat(bytes - bare.length - 'X-PAD:\r\n'.length)}\r\n`;
  return `BEGIN:VCALENDAR\r\n${pad}${EVENT}END:VCALENDAR\r\n`;
}

let server: Server;
let base: string;
let closedPort: number;
/** The headers of the last request, by path. */
const seen = new Map<string, IncomingMessage['headers']>();
let answerClosed = deferred();

const routes: Record<string, (res: ServerResponse) => void> = {
  '/one.ics': (res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(calendarOf(400)),
  // The last status of the 2xx range is still a success.
  '/299.ics': (res) => res.writeHead(299, { 'content-type': 'text/calendar' }).end(calendarOf(400)),
  '/exactly-1024.ics': (res) => res.writeHead(200, { 'content-type': 'text/calendar', 'content-length': 1024 }).end(calendarOf(1024)),
  // Announces more than it may and then stalls: refused from the header, not after waiting out the timeout.
  '/announces-too-much.ics': (res) =>
    res.writeHead(200, { 'content-type': 'text/calendar', 'content-length': 4096 }).write('BEGIN:VCALENDAR\r\n'),
  '/too-dense.ics': (res) => res.writeHead(200).end(readFileSync(new URL('./fixtures/too-dense.ics', import.meta.url))),
  // A failure whose body never ends: the reader must let go of it, not hold the connection open.
  '/500-endless.ics': (res) => {
    res.on('close', () => answerClosed.resolve());
    res.writeHead(500, { 'content-type': 'text/plain' }).write('internal error, and more to come');
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    seen.set(path, req.headers);
    (routes[path] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
  });
  base = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  const closed = createServer();
  closedPort = await listenOnLoopback(closed);
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const reader = (options: { maxBytes?: number; timeoutMs?: number } = {}) =>
  icsFeedReader({ clock: manualClock('2026-01-01T00:00:00Z'), ...options });

/** The CalendarUnreadable a read ends in. */
async function failureOf(read: Promise<unknown>): Promise<CalendarUnreadable> {
  const error = await read.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof CalendarUnreadable)) throw new Error(`expected CalendarUnreadable, got ${String(error)}`);
  return error;
}

describe('the feed reader over HTTP', () => {
  it('asks for text/calendar and sends no credentials the URL does not carry', async () => {
    expect(await reader()(`${base}/one.ics`, JANUARY_2026)).toEqual(BUSY);
    expect(seen.get('/one.ics')).toMatchObject({ accept: 'text/calendar' });
    expect(seen.get('/one.ics')).not.toHaveProperty('authorization');
  });

  it('sends a user name without a password as Basic credentials too', async () => {
    await reader()(`http://ann@127.0.0.1:${new URL(base).port}/one.ics`, JANUARY_2026);
    expect(seen.get('/one.ics')?.authorization).toBe(`Basic ${Buffer.from('ann:').toString('base64')}`);
  });

  it('fetches an https URL rather than refusing its protocol', async () => {
    const failure = await failureOf(reader()(`https://127.0.0.1:${closedPort}/cal.ics`, JANUARY_2026));
    expect(failure.message).toBe(
      `calendar https://127.0.0.1:${closedPort}/cal.ics is unreadable: connect ECONNREFUSED 127.0.0.1:${closedPort}`,
    );
  });

  it('takes every 2xx answer, up to 299', async () => {
    expect(await reader()(`${base}/299.ics`, JANUARY_2026)).toEqual(BUSY);
  });

  it('reads a body of exactly maxBytes, announced or counted', async () => {
    expect(await reader({ maxBytes: 1024 })(`${base}/exactly-1024.ics`, JANUARY_2026)).toEqual(BUSY);
  });

  it('refuses a body announced larger than maxBytes at once, without waiting for it', async () => {
    const failure = await failureOf(reader({ maxBytes: 1024, timeoutMs: 10_000 })(`${base}/announces-too-much.ics`, JANUARY_2026));
    expect(failure.message).toBe(`calendar ${base}/announces-too-much.ics is unreadable: body is larger than 1024 bytes`);
  });

  it('lets go of a failed answer whose body never ends', async () => {
    answerClosed = deferred();
    // A timeout far beyond the test's, so that only the reader itself can close the answer in time.
    const failure = await failureOf(reader({ timeoutMs: 600_000 })(`${base}/500-endless.ics`, JANUARY_2026));
    expect(failure.message).toBe(`calendar ${base}/500-endless.ics is unreadable: HTTP 500`);
    // The server sees its answer closed by the reader; the test times out if it never is.
    await answerClosed.promise;
  });
});

describe("what a failure keeps for the operator's log", () => {
  it('the error of an invalid URL, of a refused connection, and of a feed too dense to expand, as its cause', async () => {
    const invalid = await failureOf(reader()('not a url', JANUARY_2026));
    expect(invalid.cause).toBeInstanceOf(TypeError);
    const refused = await failureOf(reader()(`http://127.0.0.1:${closedPort}/cal.ics`, JANUARY_2026));
    expect(refused.cause).toMatchObject({ code: 'ECONNREFUSED' });
    const dense = await failureOf(
      reader()(`${base}/too-dense.ics`, { startMs: Date.parse('2026-01-02T00:00:00Z'), endMs: Date.parse('2026-01-03T00:00:00Z') }),
    );
    expect(dense.cause).toBeInstanceOf(ExpansionBound);
  });
});
