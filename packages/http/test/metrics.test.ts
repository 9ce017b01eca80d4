import { manualClock, type RateLimitStore } from '@schedule/core';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleOf, samplesOf } from './support/exposition.js';
import { BOOKING, EVENT_TYPE, fuzzWorkspace, T0, TOKEN, USER } from './support/fuzz-workspace.js';
import { startTestApp, type TestApp, type TestAppOptions, type TestDatabase } from './support/test-app.js';

// Issue 11 item 12 ("Operations"): GET /metrics in the Prometheus text
// format, one registry per app, and /readyz reporting a shared rate-limit
// store that fails.

const EXPOSITION = 'text/plain; version=0.0.4; charset=utf-8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BUCKETS = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'];
const METRICS_SECRET = 'metrics-secret-0123456789abcdef';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function appWith(options: Partial<TestAppOptions> & { database?: TestDatabase } = {}) {
  const clock = manualClock(T0);
  const app = await startTestApp({ workspace: fuzzWorkspace(), clock, metrics: {}, ...options });
  apps.push(app);
  const url = app.server.url;
  const get = (path: string, token?: string) => fetch(`${url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN.owner}`, 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}` },
      body: JSON.stringify(body),
    });
  const scrape = async (token?: string) => {
    const res = await get('/metrics', token);
    expect(res.status).toBe(200);
    return res.text();
  };
  return { app, clock, url, get, post, scrape };
}

/** A response's JSON body, as the test reads it. */
const jsonOf = (res: Response): Promise<any> => res.json();

/** The headers of an answer, without the ones that vary by connection. */
function headersOf(res: Response): Record<string, string> {
  const headers = Object.fromEntries(res.headers);
  delete headers.date;
  delete headers.connection;
  delete headers['keep-alive'];
  return headers;
}

/** A shared rate-limit store that is connected but whose every count fails (a Redis refusing writes). */
const failingStore: RateLimitStore = {
  hit: () => Promise.reject(new Error('OOM command not allowed')),
  ready: async () => true,
  close: async () => {},
};

/** A shared rate-limit store whose counts never answer (a silent network). */
const silentStore: RateLimitStore = {
  hit: () => new Promise<number>(() => {}),
  ready: async () => true,
  close: async () => {},
};

describe('GET /metrics', () => {
  it('answers the Prometheus text format without a token, and is never rate limited', async () => {
    const { get, scrape } = await appWith({
      workspace: { ...fuzzWorkspace(), limits: { pat_per_minute: 2, oauth_per_minute: 2, anonymous_per_minute: 2 } },
    });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await get('/metrics'));
    for (const res of answers) {
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(headersOf(res)).toEqual({
        'content-type': EXPOSITION,
        'content-length': String(Buffer.byteLength(text)),
        'x-request-id': expect.stringMatching(UUID),
      });
      expect(text).toContain('# TYPE schedule_http_requests_total counter\n');
    }
    // Five scrapes later the anonymous bucket of this address is still whole.
    const api = await get('/v1/me');
    expect(api.status).toBe(401);
    expect(api.headers.get('x-ratelimit-remaining')).toBe('1');
    // The scrapes are counted like any request, under their own route.
    expect(sampleOf(await scrape(), 'schedule_http_requests_total', { route: 'GET /metrics', status: '200' })).toBe(5);
  });

  it('counts requests by route template and status, and times them in a histogram by route', async () => {
    const { get, scrape } = await appWith();
    expect((await get(`/v1/bookings/${BOOKING.future}`, TOKEN.owner)).status).toBe(200);
    expect((await get(`/v1/bookings/${BOOKING.ofUma}`, TOKEN.owner)).status).toBe(200);
    expect((await get('/v1/bookings/f2000000-0000-4000-8000-00000000ffff', TOKEN.owner)).status).toBe(404);
    expect((await get(`/v1/bookings/${BOOKING.future}`)).status).toBe(401);
    expect((await get('/nowhere/secret-in-path?token=secret-in-query')).status).toBe(404);
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);

    const text = await scrape();
    expect(samplesOf(text, 'schedule_http_requests_total')).toEqual(
      expect.arrayContaining([
        { labels: { route: 'GET /v1/bookings/:uid', status: '200' }, value: 2 },
        { labels: { route: 'GET /v1/bookings/:uid', status: '404' }, value: 1 },
        { labels: { route: 'GET /v1/bookings/:uid', status: '401' }, value: 1 },
        { labels: { route: 'unmatched', status: '404' }, value: 1 },
        { labels: { route: 'GET /healthz', status: '200' }, value: 1 },
        { labels: { route: 'GET /readyz', status: '200' }, value: 1 },
      ]),
    );
    // Only these: nothing else was asked, and this scrape is counted after it is answered.
    expect(samplesOf(text, 'schedule_http_requests_total')).toHaveLength(6);
    expect(text).not.toMatch(/secret-in/);

    const route = 'GET /v1/bookings/:uid';
    const buckets = samplesOf(text, 'schedule_http_request_duration_seconds_bucket').filter((s) => s.labels.route === route);
    expect(buckets.map((s) => s.labels.le)).toEqual(BUCKETS);
    // Cumulative buckets, the last one holding every request of the route.
    const counts = buckets.map((s) => s.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.at(-1)).toBe(4);
    expect(sampleOf(text, 'schedule_http_request_duration_seconds_count', { route })).toBe(4);
    expect(sampleOf(text, 'schedule_http_request_duration_seconds_sum', { route })).toBeGreaterThan(0);
    expect(text).toContain('# TYPE schedule_http_request_duration_seconds histogram\n');
  });

  it('exposes the process metrics of prom-client, in a registry of its own per app', async () => {
    const one = await appWith();
    const two = await appWith();
    await one.get('/healthz');
    const first = await one.scrape();
    expect(first).toContain('# TYPE process_cpu_user_seconds_total counter\n');
    expect(first).toContain('# TYPE nodejs_eventloop_lag_seconds gauge\n');
    // Two apps in one process count apart.
    expect(sampleOf(first, 'schedule_http_requests_total', { route: 'GET /healthz', status: '200' })).toBe(1);
    expect(sampleOf(await two.scrape(), 'schedule_http_requests_total', { route: 'GET /healthz', status: '200' })).toBeUndefined();
  });

  it('is an unknown route (404, rate limited) on an app built without metrics', async () => {
    const clock = manualClock(T0);
    const app = await startTestApp({ workspace: fuzzWorkspace(), clock });
    apps.push(app);
    const res = await fetch(`${app.server.url}/metrics`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000000000');
    expect((await jsonOf(res)).error.code).toBe('not_found');
  });

  describe('with a metrics token', () => {
    it('answers 401 unauthorized without it or with another token (an API token included), 200 with it', async () => {
      const { get, scrape } = await appWith({ metrics: { token: METRICS_SECRET } });
      for (const [token, message] of [
        [undefined, 'Authentication required: send Authorization: Bearer <METRICS_TOKEN>.'],
        ['metrics-secret-0123456789abcdeX', 'The metrics token is not valid.'],
        [TOKEN.owner, 'The metrics token is not valid.'],
      ] as const) {
        const res = await get('/metrics', token);
        const requestId = res.headers.get('x-request-id');
        expect(res.status).toBe(401);
        expect(headersOf(res)).toEqual({
          'content-type': 'application/json; charset=utf-8',
          'content-length': expect.stringMatching(/^\d+$/),
          'www-authenticate': 'Bearer realm="schedule"',
          'x-request-id': expect.stringMatching(UUID),
        });
        expect(await res.json()).toEqual({ error: { code: 'unauthorized', message, details: {}, request_id: requestId } });
      }
      const text = await scrape(METRICS_SECRET);
      expect(sampleOf(text, 'schedule_http_requests_total', { route: 'GET /metrics', status: '401' })).toBe(3);
    });
  });
});

describe.each(['sqlite', 'postgres'] as const)('the backlog gauges on %s', (database) => {
  it('count undispatched outbox events and pending mail on a scrape, a count reused for a second', async () => {
    const { clock, post, scrape } = await appWith({ database });
    const backlog = (text: string) => ({
      events: sampleOf(text, 'schedule_outbox_events_undispatched'),
      mail: sampleOf(text, 'schedule_notifications_pending'),
    });
    expect(backlog(await scrape())).toEqual({ events: 0, mail: 0 });

    for (const start of ['2026-03-03T14:00:00Z', '2026-03-03T15:00:00Z']) {
      const res = await post('/v1/bookings', {
        event_type_id: EVENT_TYPE.meet,
        start,
        attendee: { email: 'guest@example.test', name: 'Guest' },
      });
      expect(res.status).toBe(201);
    }
    const series = await post('/v1/series', {
      host_user_id: USER.olga,
      event_type_id: EVENT_TYPE.weekly,
      attendee: { email: 'series@example.test', name: 'Series Guest' },
      frequency: 'weekly',
      weekdays: ['mon'],
      time: '10:00',
      starts_on: '2026-03-09',
      count: 2,
    });
    expect(series.status).toBe(201);
    expect((await jsonOf(series)).data.occurrences).toHaveLength(2);

    // Within the second, scrapes reuse the count: a flood of scrapes costs the database one count a second.
    expect(backlog(await scrape())).toEqual({ events: 0, mail: 0 });
    clock.advance(1000);
    // Two booking.created, then series.created and a booking.created per occurrence; a confirmation
    // to host and attendee of each booking, one series confirmation, and each occurrence's invite to its attendee.
    expect(backlog(await scrape())).toEqual({ events: 5, mail: 7 });
  });
});

describe('the backlog gauges while the database does not answer', () => {
  it('a failing count leaves the gauges out and the scrape still answers', async () => {
    const { get, scrape } = await appWith({ metrics: { backlog: () => Promise.reject(new Error('connection refused')) } });
    await get('/healthz');
    const text = await scrape();
    expect(text).toContain('# TYPE schedule_outbox_events_undispatched gauge\n');
    expect(samplesOf(text, 'schedule_outbox_events_undispatched')).toEqual([]);
    expect(samplesOf(text, 'schedule_notifications_pending')).toEqual([]);
    expect(sampleOf(text, 'schedule_http_requests_total', { route: 'GET /healthz', status: '200' })).toBe(1);
  });

  it('a count that hangs is given up after the bound: the scrape answers in time, without the gauges', async () => {
    const { scrape } = await appWith({ metrics: { backlog: () => new Promise(() => {}), backlogTimeoutMs: 100 } });
    const started = performance.now();
    const text = await scrape();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(samplesOf(text, 'schedule_outbox_events_undispatched')).toEqual([]);
    expect(samplesOf(text, 'schedule_notifications_pending')).toEqual([]);
  });
});

describe('rate-limit fail-opens', () => {
  it('read 0 for each cause until the shared store fails', async () => {
    const { scrape } = await appWith();
    expect(samplesOf(await scrape(), 'schedule_rate_limit_fail_open_total')).toEqual([
      { labels: { cause: 'error' }, value: 0 },
      { labels: { cause: 'timeout' }, value: 0 },
    ]);
  });

  it('are counted by cause when the shared store fails or is slow, and the requests are still served', async () => {
    const failing = await appWith({ rateLimitStore: failingStore });
    for (let i = 0; i < 3; i++) expect((await failing.get(`/v1/bookings/${BOOKING.future}`, TOKEN.owner)).status).toBe(200);
    expect(samplesOf(await failing.scrape(), 'schedule_rate_limit_fail_open_total')).toEqual([
      { labels: { cause: 'error' }, value: 3 },
      { labels: { cause: 'timeout' }, value: 0 },
    ]);

    const silent = await appWith({ rateLimitStore: silentStore, failOpenAfterMs: 30 });
    expect((await silent.get(`/v1/bookings/${BOOKING.future}`, TOKEN.owner)).status).toBe(200);
    expect(samplesOf(await silent.scrape(), 'schedule_rate_limit_fail_open_total')).toEqual([
      { labels: { cause: 'error' }, value: 0 },
      { labels: { cause: 'timeout' }, value: 1 },
    ]);
  });

  it('a scrape itself is not counted in the limiter, so it never fails open', async () => {
    const { scrape } = await appWith({ rateLimitStore: failingStore });
    await scrape();
    expect(sampleOf(await scrape(), 'schedule_rate_limit_fail_open_total', { cause: 'error' })).toBe(0);
  });
});

describe('GET /readyz and a shared rate-limit store', () => {
  const expectReady = async (res: Response, rateLimits: 'ok' | 'degraded') => {
    const requestId = res.headers.get('x-request-id');
    expect(res.status).toBe(200);
    expect(headersOf(res)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'content-length': expect.stringMatching(/^\d+$/),
      'x-request-id': expect.stringMatching(UUID),
    });
    expect(await res.json()).toEqual({
      data: { status: 'ready', database: 'ok', rate_limits: rateLimits },
      meta: { request_id: requestId },
    });
  };

  it('is 200 with rate_limits ok when no shared store is configured', async () => {
    const { get } = await appWith({ readiness: 'check' });
    await expectReady(await get('/readyz'), 'ok');
  });

  it('stays 200, reporting rate_limits degraded, while the shared store fails: limits fail open, so the process still serves', async () => {
    const { clock, get } = await appWith({ readiness: 'check', rateLimitStore: failingStore });
    await expectReady(await get('/readyz'), 'ok');
    expect((await get(`/v1/bookings/${BOOKING.future}`, TOKEN.owner)).status).toBe(200);
    // A probe's answer is reused for a second.
    clock.advance(1000);
    await expectReady(await get('/readyz'), 'degraded');
  });

  it('reports a shared store that is not connected as degraded before any request was counted', async () => {
    const disconnected: RateLimitStore = { ...failingStore, ready: async () => false };
    const { get } = await appWith({ readiness: 'check', rateLimitStore: disconnected });
    await expectReady(await get('/readyz'), 'degraded');
  });
});
