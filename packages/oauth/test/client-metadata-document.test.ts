import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createRateLimiter,
  DEFAULT_LIMITS,
  loadWorkspace,
  openStore,
  parseWorkspace,
  randomIds,
  type Store,
  setPassword,
  systemClock,
} from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthServer } from '../src/index.js';

// A client ID metadata document (draft-ietf-oauth-client-id-metadata-document):
// an app names itself by an https URL and needs no registration. The library
// accepts only https client ids and guards its own fetch against private
// addresses, so the fetch is passed in (as every outside call is here): the
// document comes from memory, and what is asked of it is recorded.

const CLIENT_ID = 'https://assistant.example/oauth/client.json';
const REDIRECT = 'http://127.0.0.1:7777/callback';

const documents = new Map<string, { status: number; body: unknown }>([
  [
    CLIENT_ID,
    {
      status: 200,
      body: { client_id: CLIENT_ID, client_name: 'Example Assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
    },
  ],
  [
    'https://liar.example/client.json',
    { status: 200, body: { client_id: 'https://someone-else.example/client.json', redirect_uris: [REDIRECT] } },
  ],
  [
    'https://secret.example/client.json',
    {
      status: 200,
      body: {
        client_id: 'https://secret.example/client.json',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    },
  ],
  ['https://down.example/client.json', { status: 500, body: {} }],
]);
const fetched: string[] = [];

const fakeFetch = (async (url: string | URL | Request) => {
  const href = String(url);
  fetched.push(href);
  const doc = documents.get(href);
  if (!doc) throw new TypeError('fetch failed');
  return new Response(JSON.stringify(doc.body), {
    status: doc.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'max-age=60' },
  });
}) as typeof fetch;

let store: Store;
let server: Server;
let origin = '';

beforeAll(async () => {
  store = await openStore(':memory:');
  const workspace = {
    organization: { name: 'CIMD' },
    users: [{ username: 'alice', email: 'alice@example.test', name: 'Alice', timezone: 'UTC', role: 'owner' }],
  };
  await loadWorkspace({ store, clock: systemClock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
  await setPassword(store.db, { clock: systemClock }, 'alice', 'correct horse battery');
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const oauth = await createOAuthServer({
    store,
    clock: systemClock,
    ids: randomIds,
    rateLimiter: createRateLimiter({ clock: systemClock }),
    limits: { ...DEFAULT_LIMITS, anonymous_per_minute: 1000, oauth_authorize_per_minute: 1000 },
    logger: { info() {}, warn() {}, error() {} },
    publicUrl: origin,
    fetch: fakeFetch,
  });
  server.on('request', oauth.handler);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

function authorizeUrl(clientId: string): string {
  const url = new URL(`${origin}/v1/oauth/authorize`);
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const params = {
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'bookings:read',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

describe('client ID metadata documents', () => {
  it('advertises them, and an https client id is fetched once and used without registration', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    const first = await fetch(authorizeUrl(CLIENT_ID), { redirect: 'manual' });
    // On to the sign-in page: the client was found and its redirect_uri matched.
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    const page = await fetch(new URL(first.headers.get('location')!, origin), { headers: { cookie: cookiesOf(first) } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<strong>Example Assistant</strong> wants to use your schedule.');
    // Cached as its Cache-Control says: the second request does not fetch again.
    await fetch(authorizeUrl(CLIENT_ID), { redirect: 'manual' });
    expect(fetched.filter((u) => u === CLIENT_ID)).toHaveLength(1);
  });

  it.each([
    ['whose client_id is another URL', 'https://liar.example/client.json'],
    ['that asks for a shared secret', 'https://secret.example/client.json'],
    ['that cannot be fetched', 'https://down.example/client.json'],
    ['that does not exist', 'https://missing.example/client.json'],
    ['over plain http', 'http://assistant.example/oauth/client.json'],
  ])('refuses a document %s: an error page, never a redirect', async (_, clientId) => {
    const res = await fetch(authorizeUrl(clientId), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<strong>error</strong>: invalid_client');
  });
});

function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
