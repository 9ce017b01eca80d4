import { join } from 'node:path';
import { startInProcess } from './in-process.js';
import { setUserPassword } from './oauth-browser.js';
import { type TestSchema, testSchema } from './postgres.js';
import { tempDir, writeWorkspace } from './serve.js';
import { buildWorkspace, type TestWorkspace, USER_IDS, USERNAMES } from './workspace.js';

// The server the OAuth client tests drive: the real `schedule serve` in
// process on one of the two stores, with a host who can sign in.

export const STORES = [
  ['SQLite', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const;

export type Backend = (typeof STORES)[number][1];

/** The host who signs in and consents: the member, who acts only for herself, so "as that host" is visible in every answer. */
export const HOST = { key: 'member', id: USER_IDS.member, username: USERNAMES.member, password: 'correct horse battery' } as const;

export interface OAuthTestServer {
  /** The server's origin: the issuer, and the HTTP API's resource; /mcp's resource is `${origin}/mcp`. */
  readonly origin: string;
  readonly fixture: TestWorkspace;
  stop(): Promise<void>;
}

/** The workspace a flow runs on: buildWorkspace's, with every bucket a flow passes through raised. */
export function oauthFixture(): TestWorkspace {
  const fixture = buildWorkspace();
  // A file runs several flows from one address within a minute.
  fixture.workspace.limits = {
    anonymous_per_minute: 1000,
    oauth_per_minute: 1000,
    oauth_authorize_per_minute: 1000,
    oauth_token_per_minute: 1000,
    oauth_revoke_per_minute: 1000,
    oauth_introspect_per_minute: 1000,
    oauth_register_per_minute: 1000,
    oauth_pages_per_minute: 1000,
    sign_in_per_minute: 1000,
  };
  return fixture;
}

export async function startOAuthServer(backend: Backend): Promise<OAuthTestServer> {
  const schema: TestSchema | undefined = backend === 'postgres' ? testSchema() : undefined;
  const db = schema?.dbUrl ?? join(tempDir('schedule-oauth-'), 'oauth.db');
  const fixture = oauthFixture();
  // TOKEN_CACHE_MS=0: a revoked token is refused by the very next request, so the tests need neither sleeps nor polling.
  const server = await startInProcess({ workspace: writeWorkspace(fixture.workspace), db }, { TOKEN_CACHE_MS: '0' });
  await setUserPassword(db, HOST.username, HOST.password);
  return {
    origin: server.url,
    fixture,
    stop: async () => {
      await server.stop();
      await schema?.drop();
    },
  };
}

/** The members of an `application/x-www-form-urlencoded` or query string, sorted by name, as an object. */
export function paramsOf(params: URLSearchParams): Record<string, string> {
  return Object.fromEntries([...params].sort(([a], [b]) => a.localeCompare(b)));
}
