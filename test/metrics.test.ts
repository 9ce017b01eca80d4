import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { postMcp } from './support/mcp-client.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { buildWorkspace, SECRETS } from './support/workspace.js';

// Issue 11 item 12: `schedule serve` answers GET /metrics (Prometheus text
// format) beside the API and counts the MCP endpoint's requests too.

const EXPOSITION = 'text/plain; version=0.0.4; charset=utf-8';
const METRICS_TOKEN = 'metrics-blackbox-0123456789abcdef';

/** The value of the sample `name{labels}` as written in the exposition, or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

describe('schedule serve: GET /metrics', () => {
  const workspaceFile = writeWorkspace(buildWorkspace().workspace);
  let open: TestServer;
  let guarded: TestServer;

  beforeAll(async () => {
    [open, guarded] = await Promise.all([
      startInProcess({ workspace: workspaceFile, db: ':memory:' }),
      startInProcess({ workspace: workspaceFile, db: ':memory:' }, { METRICS_TOKEN }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([open?.stop(), guarded?.stop()]);
  });

  it('answers without a token and counts the API, the probes and /mcp by route and status', async () => {
    expect((await api(open.url, '/v1/bookings?limit=1', { token: SECRETS.owner })).status).toBe(200);
    expect((await api(open.url, '/healthz')).status).toBe(200);
    expect((await postMcp(open.url, { authorization: `Bearer ${SECRETS.owner}` })).status).toBe(200);
    expect((await postMcp(open.url, {})).status).toBe(401);
    expect((await api(open.url, '/mcp')).status).toBe(405);

    const res = await api(open.url, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(EXPOSITION);
    // Not rate limited: a probe-like answer carries no X-RateLimit-* headers.
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    const counted = (route: string, status: number) =>
      sample(res.text, 'schedule_http_requests_total', `route="${route}",status="${status}"`);
    expect(counted('GET /v1/bookings', 200)).toBe(1);
    expect(counted('GET /healthz', 200)).toBe(1);
    expect(counted('POST /mcp', 200)).toBe(1);
    expect(counted('POST /mcp', 401)).toBe(1);
    expect(counted('unmatched', 405)).toBe(1);
    expect(sample(res.text, 'schedule_http_request_duration_seconds_count', 'route="POST /mcp"')).toBe(2);
    // The workspace's imported bookings record no events, and no mail is queued.
    expect(sample(res.text, 'schedule_outbox_events_undispatched')).toBe(0);
    expect(sample(res.text, 'schedule_notifications_pending')).toBe(0);
    expect(sample(res.text, 'schedule_rate_limit_fail_open_total', 'cause="error"')).toBe(0);
    expect(sample(res.text, 'schedule_rate_limit_fail_open_total', 'cause="timeout"')).toBe(0);
    expect(res.text).toContain('# TYPE process_resident_memory_bytes gauge\n');
  });

  it('with METRICS_TOKEN set, needs it as a bearer token', async () => {
    const refused = await api(guarded.url, '/metrics');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="schedule"');
    expect(refused.body.error.code).toBe('unauthorized');
    expect((await api(guarded.url, '/metrics', { token: SECRETS.owner })).status).toBe(401);
    const scraped = await api(guarded.url, '/metrics', { token: METRICS_TOKEN });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toBe(EXPOSITION);
    expect(sample(scraped.text, 'schedule_http_requests_total', 'route="GET /metrics",status="401"')).toBe(2);
  });
});
