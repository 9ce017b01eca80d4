import { connect, type Socket } from 'node:net';
import { type ManualClock, manualClock, type Readiness } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type RawAnswer } from './support/raw-http.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// Issue 10: what a hostile or broken client sends gets the documented error
// in the envelope, never a 500 or a silent close, and no connection can be
// held open for long or in great number.

const SECRET = 'pat_hardening_secret_0001';
const ET_ID = '0a0e4a52-2222-4c3d-9e8f-000000000001';

const workspace = {
  limits: { pat_per_minute: 100_000, anonymous_per_minute: 100_000 },
  users: [{ username: 'ann', email: 'ann@example.test', role: 'owner' }],
  event_types: [{ id: ET_ID, owner: 'ann', slug: 'chat', name: 'Chat', duration_minutes: 20 }],
  tokens: [{ name: 't', user: 'ann', secret: SECRET, scopes: ['bookings:read', 'bookings:create', 'slots:read'] }],
};

const LIMITS = { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 400, maxConnections: 50 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A raw answer in the error envelope: status, code, and X-Request-Id equal to the body's request_id. */
function expectRawError(answer: RawAnswer, status: number, code: string): Record<string, unknown> {
  expect(answer.ending).toBe('complete');
  const response = answer.response!;
  const body = JSON.parse(response.body.toString('utf8'));
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'details', 'message', 'request_id']);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toMatch(UUID);
  expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
  return body.error;
}

/** Opens a connection that sends nothing (it reads, so it sees the server close it); resolves with it once connected. */
function silentSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.resume();
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A response's JSON body, as the test reads it. */
const jsonOf = (res: Response): Promise<any> => res.json();

const openOnServer = (app: TestApp) => new Promise<number>((resolve) => app.server.server.getConnections((_, n) => resolve(n)));

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) resolve();
    socket.on('error', () => {});
    socket.once('close', () => resolve());
  });

describe('the HTTP server against hostile clients', () => {
  let clock: ManualClock;
  let app: TestApp;
  let url: string;
  let readiness: Readiness = { ready: true, database: 'ok', rateLimits: 'ok' };

  beforeAll(async () => {
    clock = manualClock('2026-11-22T10:00:00.000Z');
    app = await startTestApp({ workspace, clock, limits: LIMITS, readiness: async () => readiness });
    url = app.server.url;
  });
  afterAll(() => app.close());

  const raw = (text: string, timeoutMs = 3000) => exchange(url, Buffer.from(text, 'latin1'), { bodiless: false, timeoutMs });
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'idempotency-key': `k-${Math.random()}`, ...headers },
      body,
    });

  describe("requests Node's parser refuses are answered in the envelope", () => {
    it('a malformed absolute-form target (GET http://[::1) is 400 bad_request with rate-limit headers', async () => {
      const answer = await raw('GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n');
      expectRawError(answer, 400, 'bad_request');
      expect(answer.response!.headers.get('x-ratelimit-limit')).toBe('100000');
    });

    it('headers over 16 KB are 431 headers_too_large', async () => {
      const answer = await raw(`GET /v1/bookings HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
      expectRawError(answer, 431, 'headers_too_large');
    });

    // Issue 29 item 9: the 431 to a HEAD carried the envelope as a body, which a HEAD answer never has (RFC 9110 9.3.2).
    it('headers over 16 KB on a HEAD are 431 headers_too_large without a body, then the connection closes', async () => {
      const request = `HEAD /v1/bookings HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(17 * 1024)}\r\n\r\n`;
      const answer = await exchange(url, Buffer.from(request, 'latin1'), { bodiless: false, timeoutMs: 3000 });
      const text = answer.received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      expect(text.slice(0, text.indexOf('\r\n'))).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(text.slice(0, headEnd)).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      expect(text.slice(0, headEnd)).toMatch(/\r\nConnection: close(\r\n|$)/);
      expect({ ending: answer.ending, after: text.slice(headEnd + 4) }).toEqual({ ending: 'closed', after: '' });
    });

    it('an unknown method is 400 bad_request', async () => {
      expectRawError(await raw('BREW /v1/bookings HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'bad_request');
    });

    it('a request line that is not HTTP is 400 bad_request', async () => {
      expectRawError(await raw('hello there\r\n\r\n'), 400, 'bad_request');
    });

    it('an HTTP/1.1 request without Host is 400 bad_request, with rate-limit headers', async () => {
      const answer = await raw(`GET /v1/me HTTP/1.1\r\nAuthorization: Bearer ${SECRET}\r\n\r\n`);
      expect(expectRawError(answer, 400, 'bad_request').message).toBe('HTTP/1.1 requests need a Host header.');
      expect(answer.response!.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    });

    it('an Expect other than 100-continue is 417 expectation_failed', async () => {
      for (const expectation of ['foo', '', '100-continue, foo']) {
        const answer = await raw(`GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRET}\r\nExpect: ${expectation}\r\n\r\n`);
        expectRawError(answer, 417, 'expectation_failed');
      }
    });

    it('CONNECT is 400 bad_request: this is not a proxy', async () => {
      expectRawError(await raw('CONNECT /v1/me HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'bad_request');
    });

    it('HEAD on a GET route answers like GET, without a body', async () => {
      const answer = await exchange(url, Buffer.from(`HEAD /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRET}\r\n\r\n`), {
        bodiless: true,
        timeoutMs: 3000,
      });
      expect(answer.response?.status).toBe(200);
      expect(answer.response?.headers.get('x-request-id')).toMatch(UUID);
      expect(answer.response?.body.length).toBe(0);
    });
  });

  describe('connections are bounded in time and number', () => {
    it('a connection that sends nothing is answered 408 request_timeout and closed within the headers timeout', async () => {
      const started = performance.now();
      const answer = await raw('', 5000);
      expectRawError(answer, 408, 'request_timeout');
      // The check runs every headersTimeout / 2, so the close comes within 1.5 × the timeout.
      expect(performance.now() - started).toBeLessThan(LIMITS.headersTimeoutMs * 1.5 + 300);
    });

    it('a body that stops arriving is cut off at the request timeout with 408', async () => {
      const started = performance.now();
      const answer = await raw(
        `POST /v1/bookings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRET}\r\nIdempotency-Key: slow\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a"`,
        5000,
      );
      expectRawError(answer, 408, 'request_timeout');
      expect(performance.now() - started).toBeLessThan(LIMITS.requestTimeoutMs * 1.5 + 300);
    });

    it('a flood of 600 silent connections is closed within the headers timeout, and the server then answers', async () => {
      const started = performance.now();
      const flood = await Promise.all(Array.from({ length: 600 }, () => silentSocket(url).catch(() => undefined)));
      const sockets = flood.filter((s): s is Socket => s !== undefined);
      // Past maxConnections a connection is closed on arrival; the rest when their headers timeout runs out.
      expect(await openOnServer(app)).toBeLessThanOrEqual(LIMITS.maxConnections);
      await Promise.all(sockets.map(closed));
      expect(performance.now() - started).toBeLessThan(LIMITS.headersTimeoutMs * 1.5 + 2000);
      expect(await openOnServer(app)).toBe(0);
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
    });

    it('a silent client that never reads cannot hold the server side open after its 408', async () => {
      const { hostname, port } = new URL(url);
      // Connected and paused: it reads nothing, so it never answers the server's FIN.
      const deaf = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<Socket>((resolve) =>
              connect(Number(port), hostname).once('connect', function (this: Socket) {
                resolve(this);
              }),
            ),
        ),
      );
      await expect.poll(() => openOnServer(app), { timeout: LIMITS.headersTimeoutMs * 1.5 + 2000 }).toBe(0);
      for (const socket of deaf) socket.destroy();
    });

    it('no more than maxConnections are open at once: the next one is closed on arrival', async () => {
      const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => silentSocket(url)));
      await expect.poll(() => openOnServer(app)).toBe(LIMITS.maxConnections);
      const extra = await silentSocket(url);
      await closed(extra);
      for (const socket of held) socket.destroy();
      await expect.poll(() => openOnServer(app)).toBe(0);
    });
  });

  describe('bodies', () => {
    it('a body that is not application/json is 415 unsupported_media_type, and nothing is created', async () => {
      const body = JSON.stringify({ event_type_id: ET_ID, start: '2026-11-23T10:00:00Z', attendee: { email: 'a@example.test' } });
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await post('/v1/bookings', body, { 'content-type': contentType });
        expect(res.status).toBe(415);
        expect((await jsonOf(res)).error).toMatchObject({ code: 'unsupported_media_type', details: { accepted: ['application/json'] } });
      }
      const bare = await fetch(`${url}/v1/bookings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'idempotency-key': 'bare' },
        body: new Blob([body]),
      });
      expect(bare.status).toBe(415);
      expect(await app.store.db.selectFrom('bookings').select('uid').execute()).toEqual([]);
    });

    it('application/json with a charset, and +json types, are accepted', async () => {
      for (const contentType of ['application/json; charset=utf-8', 'application/merge-patch+json', 'Application/JSON']) {
        const res = await post('/v1/bookings', '{}', { 'content-type': contentType });
        expect((await jsonOf(res)).error.code).toBe('validation_error');
      }
    });

    it('a body nested 2,500 levels deep with an Idempotency-Key is 400 validation_error, not a stack overflow', async () => {
      const deep = `${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}`;
      const res = await post('/v1/bookings', deep, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).error).toMatchObject({
        code: 'validation_error',
        message: 'The body must not nest deeper than 32 levels.',
        details: { fields: [] },
      });
    });

    it.each([
      ['a NUL', 'Ann\u0000'],
      ['a lone surrogate', 'Ann\ud800'],
    ])('%s in a string field is 400 validation_error naming the field', async (_, name) => {
      const body = JSON.stringify({ event_type_id: ET_ID, start: '2026-11-23T10:00:00Z', attendee: { email: 'a@example.test', name } });
      const res = await post('/v1/bookings', body, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).error).toMatchObject({ code: 'validation_error', details: { fields: ['attendee.name'] } });
    });

    it('a misspelled attendee field ("nmae") is 400 validation_error naming it and the field meant, and nothing is booked', async () => {
      const body = { event_type_id: ET_ID, start: '2026-11-23T10:00:00Z', attendee: { email: 'a@example.test', nmae: 'Ann' } };
      const res = await post('/v1/bookings', JSON.stringify(body), { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({
        error: {
          code: 'validation_error',
          message: 'Unknown field: attendee.nmae. Did you mean attendee.name (not attendee.nmae)?',
          details: { fields: ['attendee.nmae'] },
          request_id: res.headers.get('x-request-id'),
        },
      });
      expect(await app.store.db.selectFrom('bookings').select('uid').execute()).toEqual([]);
    });

    it('a number JSON cannot carry (1e309 parses to Infinity) is 400 validation_error, not a 500 in the fingerprint', async () => {
      const res = await post('/v1/bookings', '{"attendee":{"email":"a@example.test"},"x":[1,-1e309]}', {
        'content-type': 'application/json',
      });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).error).toMatchObject({ code: 'validation_error', details: { fields: ['x.1'] } });
    });

    // Issue 29 item 13: each of these said "expected number, received string".
    it.each([
      ['limit=abc', 'limit: must be an integer from 1 to 100.'],
      ['limit=99999999999999999999', 'limit: must be an integer from 1 to 100.'],
      ['limit=1&limit=2', 'limit is given twice; send it once.'],
    ])('%s is 400 invalid_query_param saying what limit must be', async (query, message) => {
      const res = await fetch(`${url}/v1/bookings?${query}`, { headers: { authorization: `Bearer ${SECRET}` } });
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({
        error: { code: 'invalid_query_param', message, details: { param: 'limit' }, request_id: res.headers.get('x-request-id') },
      });
    });

    it('a list parameter given twice takes the values of both', async () => {
      const res = await fetch(`${url}/v1/bookings?status=confirmed&status=canceled,confirmed`, {
        headers: { authorization: `Bearer ${SECRET}` },
      });
      expect(res.status).toBe(200);
    });

    it('a NUL in a query value is 400 invalid_query_param naming it', async () => {
      const res = await fetch(`${url}/v1/bookings?status=upcoming%00`, { headers: { authorization: `Bearer ${SECRET}` } });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).error).toMatchObject({ code: 'invalid_query_param', details: { param: 'status' } });
    });

    it.each(['+275760-09-12T23:30:00Z', '0000-01-01T00:00:00Z', '1899-12-31T23:59:59Z', '9001-01-01T00:00:00Z'])(
      'an instant out of the stored range (%s) is 400, in a body and in a query',
      async (start) => {
        const body = JSON.stringify({ event_type_id: ET_ID, start, attendee: { email: 'a@example.test' } });
        const res = await post('/v1/bookings', body, { 'content-type': 'application/json' });
        expect(res.status).toBe(400);
        expect((await jsonOf(res)).error).toMatchObject({ code: 'validation_error', details: { fields: ['start'] } });
        const query = await fetch(`${url}/v1/bookings?updated_since=${encodeURIComponent(start)}`, {
          headers: { authorization: `Bearer ${SECRET}` },
        });
        expect(query.status).toBe(400);
        expect((await jsonOf(query)).error).toMatchObject({ code: 'invalid_query_param', details: { param: 'updated_since' } });
      },
    );
  });

  describe('logs', () => {
    it('carry the route template, never the raw URL or its query string', async () => {
      app.logged.length = 0;
      await fetch(`${url}/v1/bookings/not-a-uid?access_token=SECRET_IN_QUERY`, { headers: { authorization: `Bearer ${SECRET}` } });
      await fetch(`${url}/nowhere/SECRET_IN_PATH?token=SECRET_IN_QUERY`);
      await expect.poll(() => app.logged.filter((l) => l.status !== undefined).length).toBe(2);
      expect(JSON.stringify(app.logged)).not.toMatch(/SECRET_IN/);
      expect(app.logged.filter((l) => l.status !== undefined).map((l) => l.route)).toEqual(['GET /v1/bookings/:uid', 'unmatched']);
    });

    // Issue 29 item 9: a client that went away mid-body was logged as an unexpected fault, at error level, with a stack.
    it('a client that closes the connection while sending its body is one info line, status 499, with no error or stack', async () => {
      app.lines.length = 0;
      const socket = await silentSocket(url);
      const head = `POST /v1/bookings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRET}\r\nIdempotency-Key: gone\r\n`;
      socket.write(`${head}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"event_type_id":`);
      socket.destroy();
      // The request line is the last one a request logs.
      await expect.poll(() => app.lines.some((line) => line.message === 'request')).toBe(true);
      expect(app.lines.map(({ level, fields, message }) => ({ level, message, status: fields.status, err: fields.err }))).toEqual([
        { level: 'info', message: 'request', status: 499, err: undefined },
      ]);
      expect(app.lines[0]!.fields).toMatchObject({ route: 'POST /v1/bookings', method: 'POST', client_closed: true });
    });
  });

  describe('probes', () => {
    it('GET /healthz is 200 without a token', async () => {
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
      expect((await jsonOf(res)).data).toEqual({ status: 'ok' });
    });

    it('GET /readyz is 200 while the database answers, and 503 database_unavailable with Retry-After while it does not', async () => {
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect((await jsonOf(ready)).data).toEqual({ status: 'ready', database: 'ok', rate_limits: 'ok' });
      readiness = { ready: false, database: 'unavailable', rateLimits: 'degraded' };
      const down = await fetch(`${url}/readyz`);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
      expect((await jsonOf(down)).error).toMatchObject({
        code: 'database_unavailable',
        details: { database: 'unavailable', rate_limits: 'degraded' },
      });
      readiness = { ready: true, database: 'ok', rateLimits: 'ok' };
    });
  });
});
