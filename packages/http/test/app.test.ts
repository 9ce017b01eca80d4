import { defineOperation, type ManualClock, manualClock } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunningServer } from '../src/index.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'pat_inprocess_secret_0001';
const BOOKING = '7b0e4a52-1111-4c3d-9e8f-000000000001';

const workspace = {
  limits: { pat_per_minute: 3, oauth_per_minute: 3, anonymous_per_minute: 2 },
  users: [{ username: 'ann', email: 'ann@example.test', role: 'owner' }],
  event_types: [{ owner: 'ann', slug: 'chat', name: 'Chat', duration_minutes: 20 }],
  tokens: [{ name: 't', user: 'ann', secret: SECRET, scopes: ['bookings:read', 'bookings:update'] }],
  bookings: [{ uid: BOOKING, event_type: 'chat', start: '2027-03-01T10:00:00Z', attendee: { email: 'zed@example.test' } }],
};

/** An operation that fails the way a bug would: not with a ScheduleError. */
const faulty = defineOperation({
  name: 'faulty',
  method: 'GET',
  path: '/v1/faulty',
  scope: 'bookings:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: [],
  schemas: { params: [], output: z.object({}), list: false },
  parse: () => ({}),
  run: async () => {
    throw new TypeError('secret internals at /srv/app.js:12');
  },
});

describe('the HTTP app in process', () => {
  let clock: ManualClock;
  let app: TestApp;
  let server: RunningServer;
  let logged: Record<string, unknown>[];

  beforeAll(async () => {
    // 10 seconds before a window boundary, so the test can cross it on purpose.
    clock = manualClock('2026-11-22T10:00:50.000Z');
    app = await startTestApp({ workspace, clock, extraOperations: [faulty] });
    ({ server, logged } = app);
  });

  afterAll(() => app.close());

  const get = (path: string, secret: string | null = SECRET) =>
    fetch(`${server.url}${path}`, secret ? { headers: { authorization: `Bearer ${secret}` } } : {});

  it('counts a token in a fixed window aligned to the minute, refuses past the limit, and resets at the boundary', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(`/v1/bookings/${BOOKING}`));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    const reset = String(Date.parse('2026-11-22T10:01:00.000Z') / 1000);
    expect(answers.map((r) => r.headers.get('x-ratelimit-reset'))).toEqual([reset, reset, reset, reset]);
    const refused = answers[3]!;
    expect(refused.headers.get('retry-after')).toBe('10');
    const body = await refused.json();
    expect(body).toEqual({
      error: {
        code: 'rate_limited',
        message: 'Rate limit of 3 requests per 60 seconds exceeded; retry in 10 seconds.',
        details: { bucket: expect.stringMatching(/^pat:/), limit: 3, window_seconds: 60 },
        request_id: refused.headers.get('x-request-id'),
      },
    });

    clock.advance(10_000); // the boundary is hard: the next window starts empty
    const next = await get(`/v1/bookings/${BOOKING}`);
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(next.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-22T10:02:00.000Z') / 1000));
  });

  it('counts unauthenticated callers by IP in the anonymous bucket', async () => {
    clock.advance(60_000);
    const answers = [await get('/v1/bookings', null), await get('/v1/bookings', 'not-a-real-token'), await get('/v1/bookings', null)];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['2', '2', '2']);
    const refused = (await answers[2]!.json()) as { error: { details: { bucket: string } } };
    expect(refused.error.details.bucket).toBe('anonymous:127.0.0.1');
  });

  it('answers an unexpected fault with 500 internal_error and no stack or internals', async () => {
    clock.advance(60_000);
    const res = await get('/v1/faulty');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret internals');
    expect(text).not.toContain('TypeError');
    expect(JSON.parse(text)).toEqual({
      error: {
        code: 'internal_error',
        message: 'An unexpected error occurred; it has been logged.',
        details: {},
        request_id: res.headers.get('x-request-id'),
      },
    });
    // The fault itself goes to the log, with the request id to find it by.
    expect(logged.some((l) => l.request_id === res.headers.get('x-request-id') && l.err instanceof TypeError)).toBe(true);
  });

  it('logs one line per request with id, method, route, status and duration, and never the token', async () => {
    clock.advance(60_000);
    logged.length = 0;
    const res = await get(`/v1/bookings/${BOOKING}`);
    expect(res.status).toBe(200);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual({
      request_id: res.headers.get('x-request-id'),
      method: 'GET',
      route: 'GET /v1/bookings/:uid',
      status: 200,
      duration_ms: expect.any(Number),
    });
    expect(JSON.stringify(logged)).not.toContain(SECRET);
  });
});
