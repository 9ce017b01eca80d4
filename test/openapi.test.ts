import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-run.js';
import { api } from './support/http.js';
import { checkAgainstContract, type Exchange } from './support/openapi-contract.js';
import { type ServerProcess, startServer, writeWorkspace } from './support/serve.js';
import { buildWorkspace, SECRETS } from './support/workspace.js';

// Issue 14: the contract as a client gets it (the server and the CLI give
// the committed docs/openapi.json), and the check every black-box answer
// goes through refuses what the document does not describe.

const here = dirname(fileURLToPath(import.meta.url));
const COMMITTED = readFileSync(resolve(here, '../docs/openapi.json'), 'utf8');

describe('the OpenAPI document as clients get it', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer(['--workspace', writeWorkspace(buildWorkspace().workspace), '--db', ':memory:']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('GET /v1/openapi.json serves docs/openapi.json, without a token', async () => {
    const res = await api(server.url, '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.text === COMMITTED, 'the served document differs from docs/openapi.json').toBe(true);
  });

  it('schedule openapi prints docs/openapi.json', async () => {
    const run = await runCli(['openapi']);
    expect(run.code).toBe(0);
    expect(run.stdout === COMMITTED, 'schedule openapi differs from docs/openapi.json').toBe(true);
  });

  it('a request the document does not list is answered as x-unrouted-responses say', async () => {
    await api(server.url, '/v1/nope', { token: SECRETS.owner });
    await api(server.url, '/v1/bookings', { method: 'DELETE', token: SECRETS.owner });
  });
});

describe('the contract check', () => {
  const REQUEST_ID = '0c1b4f2b-77af-4996-b25c-86cac3ab1b62';
  const counted = {
    'x-request-id': REQUEST_ID,
    'x-ratelimit-limit': '120',
    'x-ratelimit-remaining': '119',
    'x-ratelimit-reset': '1795569720',
  };
  const exchange = (
    status: number,
    body: unknown,
    headers: Record<string, string> = counted,
    method = 'GET',
    target = '/v1/me',
  ): Exchange => ({
    method,
    target,
    status,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8', ...headers }),
    text: JSON.stringify(body),
    body,
  });
  const unauthorized = { error: { code: 'unauthorized', message: 'No token.', details: {}, request_id: REQUEST_ID } };

  it('passes an answer the document describes', () => {
    const headers = { ...counted, 'www-authenticate': 'Bearer realm="schedule"' };
    expect(() => checkAgainstContract(exchange(401, unauthorized, headers))).not.toThrow();
  });

  it('refuses a status the operation does not document', () => {
    expect(() => checkAgainstContract(exchange(418, unauthorized))).toThrow(/status 418 is not among/);
  });

  it('refuses a code the status does not list for the operation', () => {
    const notFound = { error: { ...unauthorized.error, code: 'booking_not_found' } };
    expect(() => checkAgainstContract(exchange(404, notFound, counted, 'GET', '/v1/bookings'))).toThrow(/status 404 is not among/);
    expect(() => checkAgainstContract(exchange(404, notFound, counted, 'GET', '/v1/bookings/x'))).not.toThrow();
    expect(() => checkAgainstContract(exchange(404, notFound, counted, 'GET', '/v1/series/x'))).toThrow(/allowed values/);
  });

  it('refuses a body that does not match, a required header that is missing, and a header the answer should not carry', () => {
    expect(() => checkAgainstContract(exchange(200, { data: { user_id: 'x' }, meta: { request_id: REQUEST_ID } }))).toThrow(
      /required property/,
    );
    expect(() => checkAgainstContract(exchange(401, unauthorized))).toThrow(/WWW-Authenticate is missing/);
    const headers = { ...counted, 'www-authenticate': 'Bearer realm="schedule"', etag: '"1"' };
    expect(() => checkAgainstContract(exchange(401, unauthorized, headers))).toThrow(/carries etag/);
  });
});
