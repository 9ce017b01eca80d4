import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, bearerChallenge, expectData, expectError, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { connectHttp, expectToolError, type McpSession, toolData } from './support/mcp-client.js';
import { type TestServer, writeWorkspace } from './support/serve.js';

// docs/webhooks.md "Managing webhooks" over HTTP, against the server
// `schedule serve` runs: exact statuses, codes and headers, every answer
// checked against docs/openapi.json by `api()`. Then the same operations as
// MCP tools on the same server, which must answer what HTTP answers.

const IDS = {
  ann: 'f1000000-0000-4000-8000-000000000001',
  ben: 'f1000000-0000-4000-8000-000000000002',
  ada: 'f1000000-0000-4000-8000-000000000003',
} as const;

const TOKENS = {
  ann: 'hooks-secret-ann-webhooks-rw',
  annRead: 'hooks-secret-ann-webhooks-read',
  annBookings: 'hooks-secret-ann-bookings-only',
  ben: 'hooks-secret-ben-webhooks-rw',
  ada: 'hooks-secret-ada-admin-rw',
} as const;

const RW = ['webhooks:read', 'webhooks:write'];

const workspace = {
  organization: { name: 'Hooks Org' },
  limits: { pat_per_minute: 10_000 },
  users: [
    { id: IDS.ann, username: 'ann', email: 'ann@hooks.test', name: 'Ann', role: 'user' },
    { id: IDS.ben, username: 'ben', email: 'ben@hooks.test', name: 'Ben', role: 'user' },
    { id: IDS.ada, username: 'ada', email: 'ada@hooks.test', name: 'Ada', role: 'admin' },
  ],
  tokens: [
    { name: 'ann', user: 'ann', secret: TOKENS.ann, scopes: RW },
    { name: 'ann-read', user: 'ann', secret: TOKENS.annRead, scopes: ['webhooks:read'] },
    { name: 'ann-bookings', user: 'ann', secret: TOKENS.annBookings, scopes: ['bookings:read'] },
    { name: 'ben', user: 'ben', secret: TOKENS.ben, scopes: RW },
    { name: 'ada', user: 'ada', secret: TOKENS.ada, scopes: RW },
  ],
};

/** `.test` names never resolve (RFC 2606), so nothing here is ever reached. */
const TARGET = 'https://crm.hooks.test/in';
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;

beforeAll(async () => {
  // No delivery runs here: these tests read queued deliveries as the API queued them (delivery: webhooks-delivery tests).
  server = await startInProcess({ workspace: writeWorkspace(workspace), db: ':memory:' }, { WEBHOOK_DELIVERY: '0' });
});
afterAll(() => server?.stop());

interface Send {
  token?: string;
  json?: unknown;
  key?: string | null;
  ifMatch?: string;
}

/** One request; a write gets a fresh Idempotency-Key unless `key` says which (null: none). */
function send(method: string, path: string, options: Send = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? (method === 'GET' || method === 'HEAD' ? null : randomUUID()) : options.key;
  if (key !== null) headers['idempotency-key'] = key;
  if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
  return api(server.url, path, {
    method,
    token: options.token ?? TOKENS.ann,
    headers,
    ...(options.json === undefined ? {} : { json: options.json }),
  });
}

const createBody = (change: Record<string, unknown> = {}) => ({ url: TARGET, events: ['booking.created', 'booking.canceled'], ...change });

async function createWebhook(token: string = TOKENS.ann, change: Record<string, unknown> = {}) {
  return expectData(await send('POST', '/v1/webhooks', { token, json: createBody(change) }), 201);
}

describe('POST /v1/webhooks', () => {
  it('answers 201 with the webhook and its secret, ETag "1", Location, and the rate-limit headers', async () => {
    const res = await send('POST', '/v1/webhooks', { json: createBody({ description: 'CRM sync' }) });
    const data = expectData(res, 201);
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      url: TARGET,
      events: ['booking.created', 'booking.canceled'],
      description: 'CRM sync',
      status: 'active',
      paused_reason: null,
      consecutive_failures: 0,
      failing_since: null,
      created_at: expect.stringMatching(INSTANT),
      updated_at: data.created_at,
      version: 1,
      secret: expect.stringMatching(SECRET),
    });
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('location')).toBe(`/v1/webhooks/${data.id}`);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays the first answer for the same key: same body and request id, Idempotent-Replayed', async () => {
    const key = randomUUID();
    const first = await send('POST', '/v1/webhooks', { json: createBody(), key });
    const again = await send('POST', '/v1/webhooks', { json: createBody(), key });
    expect(expectData(again, 201)).toEqual(expectData(first, 201));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-request-id')).toBe(first.headers.get('x-request-id'));
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
  });

  it('needs an Idempotency-Key: 400 missing_idempotency_key', async () => {
    expectError(await send('POST', '/v1/webhooks', { json: createBody(), key: null }), 400, 'missing_idempotency_key', {});
  });

  it('refuses a loopback target by default: 400 validation_error naming url, saying which setting allows it', async () => {
    expectError(
      await send('POST', '/v1/webhooks', { json: createBody({ url: 'http://127.0.0.1:8080/in' }) }),
      400,
      'validation_error',
      { fields: ['url'] },
      'url: must not name a private, loopback or link-local address (the server allows them only with WEBHOOK_ALLOW_PRIVATE_TARGETS=1).',
    );
  });

  it('refuses an unknown event, a wildcard and a URL of another scheme, naming each field', async () => {
    expectError(await send('POST', '/v1/webhooks', { json: createBody({ events: ['booking.moved'] }) }), 400, 'validation_error', {
      fields: ['events.0'],
    });
    expectError(await send('POST', '/v1/webhooks', { json: createBody({ events: ['*'] }) }), 400, 'validation_error', {
      fields: ['events.0'],
    });
    expectError(
      await send('POST', '/v1/webhooks', { json: createBody({ url: 'ftp://crm.hooks.test/' }) }),
      400,
      'validation_error',
      { fields: ['url'] },
      'url: must be an absolute http:// or https:// URL',
    );
  });

  it('needs webhooks:write: 403 insufficient_scope with the bearer challenge naming it', async () => {
    const res = await send('POST', '/v1/webhooks', { token: TOKENS.annRead, json: createBody() });
    expectError(res, 403, 'insufficient_scope', { required_scope: 'webhooks:write' });
    expect(res.headers.get('www-authenticate')).toBe(bearerChallenge({ origin: server.url, scope: 'webhooks:write' }));
  });
});

describe('a private target with WEBHOOK_ALLOW_PRIVATE_TARGETS=1', () => {
  let allowing: TestServer;
  beforeAll(async () => {
    allowing = await startInProcess(
      { workspace: writeWorkspace(workspace), db: ':memory:' },
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_DELIVERY: '0' },
    );
  });
  afterAll(() => allowing?.stop());

  it('is accepted: 201 with the loopback URL', async () => {
    const res = await api(allowing.url, '/v1/webhooks', {
      method: 'POST',
      token: TOKENS.ann,
      headers: { 'idempotency-key': randomUUID() },
      json: createBody({ url: 'http://127.0.0.1:8080/in' }),
    });
    expect(expectData(res, 201).url).toBe('http://127.0.0.1:8080/in');
  });
});

describe('reading, changing and deleting a webhook', () => {
  let hook: Record<string, any>;
  let view: Record<string, any>;

  beforeAll(async () => {
    hook = await createWebhook(TOKENS.ann, { events: ['series.created'] });
    const { secret: _, ...rest } = hook;
    view = rest;
  });

  it('GET /v1/webhooks/:id answers it without its secret, with ETag "1"; HEAD answers the same headers and no body', async () => {
    const res = await send('GET', `/v1/webhooks/${hook.id}`);
    expect(expectData(res)).toEqual(view);
    expect(res.headers.get('etag')).toBe('"1"');
    const head = await send('HEAD', `/v1/webhooks/${hook.id}`);
    expect([head.status, head.headers.get('etag'), head.text]).toEqual([200, '"1"', '']);
  });

  it('GET /v1/webhooks lists the caller’s own only, newest first; another account’s list does not hold it', async () => {
    const page = expectPage(await send('GET', '/v1/webhooks?limit=100', { token: TOKENS.annRead }));
    expect(page.items[0]).toEqual(view);
    expect(page.items.every((w: { secret?: string }) => w.secret === undefined)).toBe(true);
    const ada = expectPage(await send('GET', '/v1/webhooks', { token: TOKENS.ada }));
    expect(ada.items.map((w: { id: string }) => w.id)).not.toContain(hook.id);
    expectError(await send('GET', '/v1/webhooks?limit=0'), 400, 'invalid_query_param', { param: 'limit' });
  });

  it('answers another account’s webhook 404 webhook_not_found, an admin’s request included, as an unknown id', async () => {
    expectError(await send('GET', `/v1/webhooks/${hook.id}`, { token: TOKENS.ada }), 404, 'webhook_not_found', { id: hook.id });
    expectError(await send('GET', `/v1/webhooks/${hook.id}`, { token: TOKENS.ben }), 404, 'webhook_not_found', { id: hook.id });
    expectError(await send('GET', '/v1/webhooks/not-a-uuid'), 404, 'webhook_not_found', { id: 'not-a-uuid' });
  });

  it('needs webhooks:read to read', async () => {
    expectError(await send('GET', '/v1/webhooks', { token: TOKENS.annBookings }), 403, 'insufficient_scope', {
      required_scope: 'webhooks:read',
    });
  });

  it('PATCH needs If-Match (428), refuses an old version (409 with current_version), and applies the current one with ETag "2"', async () => {
    const path = `/v1/webhooks/${hook.id}`;
    expectError(await send('PATCH', path, { json: { status: 'paused' } }), 428, 'missing_if_match', {});
    expectError(await send('PATCH', path, { json: { status: 'paused' }, ifMatch: '"7"' }), 409, 'version_conflict', {
      current_version: 1,
    });
    expectError(await send('PATCH', path, { json: { secret: 'whsec_x' }, ifMatch: '"1"' }), 400, 'validation_error', {
      fields: ['secret'],
    });
    const res = await send('PATCH', path, { json: { status: 'paused' }, ifMatch: '"1"' });
    expect(expectData(res)).toEqual({
      ...view,
      status: 'paused',
      paused_reason: 'owner',
      version: 2,
      updated_at: expect.stringMatching(INSTANT),
    });
    expect(res.headers.get('etag')).toBe('"2"');
  });

  it('a paused webhook takes no test event: 409 webhook_inactive; resumed, the test is queued: 202 with the delivery', async () => {
    const test = `/v1/webhooks/${hook.id}/test`;
    expectError(await send('POST', test), 409, 'webhook_inactive', { status: 'paused' });
    expectData(await send('PATCH', `/v1/webhooks/${hook.id}`, { json: { status: 'active' }, ifMatch: '2' }));
    const res = await send('POST', test);
    const delivery = expectData(res, 202);
    expect(delivery).toEqual({
      id: expect.stringMatching(UUID),
      webhook_id: hook.id,
      event_id: expect.stringMatching(UUID),
      event_type: 'webhook.test',
      status: 'pending',
      attempts: 0,
      next_attempt_at: delivery.created_at,
      last_status_code: null,
      last_response_body: null,
      last_error: null,
      created_at: expect.stringMatching(INSTANT),
      delivered_at: null,
    });
    expect([res.headers.get('etag'), res.headers.get('location')]).toEqual([null, null]);

    const listed = expectPage(await send('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: TOKENS.annRead }));
    expect(listed).toEqual({ items: [delivery], nextCursor: null, hasMore: false });

    const again = await send('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(expectData(again, 202)).toEqual({ ...delivery, next_attempt_at: expect.stringMatching(INSTANT) });
    expectError(
      await send('POST', `/v1/webhooks/${hook.id}/deliveries/${randomUUID()}/redeliver`, { key: 'r-1' }),
      404,
      'delivery_not_found',
      {
        id: expect.stringMatching(UUID),
      },
    );
    expectError(
      await send('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, { key: null }),
      400,
      'missing_idempotency_key',
      {},
    );
  });

  it('rotate-secret answers a new secret with the next version’s ETag; it needs a key', async () => {
    const path = `/v1/webhooks/${hook.id}/rotate-secret`;
    expectError(await send('POST', path, { key: null }), 400, 'missing_idempotency_key', {});
    const res = await send('POST', path);
    const rotated = expectData(res);
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.version).toBe(4);
    expect(res.headers.get('etag')).toBe('"4"');
  });

  it('PUT is not a method of /v1/webhooks/:id: 405 with Allow', async () => {
    const res = await send('PUT', `/v1/webhooks/${hook.id}`, { json: {} });
    expectError(res, 405, 'method_not_allowed', { allow: ['GET', 'PATCH', 'DELETE'] });
    expect(res.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('DELETE answers 200 with the webhook as it was and no ETag; then it is gone: 404 on GET and on DELETE', async () => {
    const other = await createWebhook(TOKENS.ben);
    expectError(await send('DELETE', `/v1/webhooks/${other.id}`), 404, 'webhook_not_found', { id: other.id });
    const res = await send('DELETE', `/v1/webhooks/${hook.id}`);
    expect(expectData(res)).toEqual({ ...view, version: 4, updated_at: expect.stringMatching(INSTANT) });
    expect(res.headers.get('etag')).toBeNull();
    expectError(await send('GET', `/v1/webhooks/${hook.id}`), 404, 'webhook_not_found', { id: hook.id });
    expectError(await send('DELETE', `/v1/webhooks/${hook.id}`), 404, 'webhook_not_found', { id: hook.id });
    expectError(await send('GET', `/v1/webhooks/${hook.id}/deliveries`), 404, 'webhook_not_found', { id: hook.id });
    expectData(await send('GET', `/v1/webhooks/${other.id}`, { token: TOKENS.ben }));
  });
});

describe('the same operations as MCP tools', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await connectHttp(server.url, TOKENS.ann);
  });
  afterAll(() => mcp?.close());

  /** What differs between two webhooks made alike: the id, the secret, and when they were written. */
  const alike = (w: Record<string, unknown>) => ({
    ...w,
    id: '<id>',
    ...('secret' in w ? { secret: '<secret>' } : {}),
    created_at: '<written>',
    updated_at: '<written>',
  });

  it('create_webhook answers what POST /v1/webhooks answers, but for the id, the secret and the times', async () => {
    const viaHttp = await createWebhook(TOKENS.ann, { description: 'twin' });
    const viaMcp = toolData(await mcp.call('create_webhook', createBody({ description: 'twin' })));
    expect(viaMcp.secret).toMatch(SECRET);
    expect(alike(viaMcp)).toEqual(alike(viaHttp));
  });

  it('get_webhook, update_webhook, test_webhook and list_webhook_deliveries answer what HTTP answers for the same webhook', async () => {
    const made = toolData(await mcp.call('create_webhook', createBody()));
    expect(toolData(await mcp.call('get_webhook', { id: made.id }))).toEqual(expectData(await send('GET', `/v1/webhooks/${made.id}`)));
    const paused = toolData(await mcp.call('update_webhook', { id: made.id, if_match: 1, status: 'paused' }));
    expect(paused).toEqual(expectData(await send('GET', `/v1/webhooks/${made.id}`)));
    expectToolError(await mcp.call('test_webhook', { id: made.id }), 'webhook_inactive', { status: 'paused' });
    toolData(await mcp.call('update_webhook', { id: made.id, if_match: '"2"', status: 'active' }));
    const queued = toolData(await mcp.call('test_webhook', { id: made.id }));
    expect(toolData(await mcp.call('list_webhook_deliveries', { id: made.id }))).toEqual({
      data: expectPage(await send('GET', `/v1/webhooks/${made.id}/deliveries`)).items,
      next_cursor: null,
      has_more: false,
    });
    expect(toolData(await mcp.call('list_webhook_deliveries', { id: made.id })).data).toEqual([queued]);
    const deleted = toolData(await mcp.call('delete_webhook', { id: made.id, confirm: true }));
    expect(deleted.id).toBe(made.id);
    expectError(await send('GET', `/v1/webhooks/${made.id}`), 404, 'webhook_not_found', { id: made.id });
  });

  it('refuses alike: another account’s webhook, a stale if_match, an unknown event', async () => {
    const bens = await createWebhook(TOKENS.ben);
    expectToolError(await mcp.call('get_webhook', { id: bens.id }), 'webhook_not_found', { id: bens.id });
    const mine = await createWebhook();
    expectToolError(await mcp.call('update_webhook', { id: mine.id, if_match: 5, description: 'x' }), 'version_conflict', {
      current_version: 1,
    });
    expectToolError(await mcp.call('create_webhook', createBody({ events: ['booking.moved'] })), 'validation_error', {
      fields: ['events.0'],
    });
  });
});
