import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { type Clock, SCOPES, type Store, sharedSecret } from '@schedule/core';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import { guardErrorRedirects } from './error-redirects.js';
import { loadOidcProvider } from './load-library.js';
import { escapeHtml, page, pageHeaders } from './pages/layout.js';
import { recordAdapter } from './record-adapter.js';
import { registrationPolicy } from './registration-policy.js';
import { mcpResources, type Resources } from './resources.js';

// The authorization server is oidc-provider (panva): a certified,
// maintained implementation of OAuth 2.x and its extensions (PKCE, RFC 8707
// resources, RFC 7009 revocation, RFC 7662 introspection, RFC 7591
// registration, RFC 9207 `iss`, client ID metadata documents). Written here
// instead, each of those would be protocol code of our own to get right;
// what stays ours is storage (core's tables), accounts, the pages, and
// policy: which resources exist, which scopes, how long things live.

/** The endpoints docs/api/requests.md names, mapped onto the library's routes. */
export const OAUTH_ROUTES = {
  authorization: '/v1/oauth/authorize',
  token: '/v1/oauth/token',
  revocation: '/v1/oauth/revoke',
  introspection: '/v1/oauth/introspect',
  registration: '/v1/oauth/register',
  jwks: '/v1/oauth/jwks',
} as const;

/** Where a sign-in or consent step is shown (pages/…). */
export const INTERACTION_PATH = '/oauth/interaction';

/** Lifetimes, in seconds (docs/oauth.md "Tokens"). */
export const TTL = {
  /** Short: a stolen access token is worth little, and refreshing is cheap. */
  AccessToken: 15 * 60,
  /** RFC 6749 recommends at most ten minutes; a code crosses one redirect, so a minute is plenty. */
  AuthorizationCode: 60,
  /** Rotated on every use, so each one lives only until the next refresh. */
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 365 * 24 * 60 * 60,
  Interaction: 10 * 60,
  Session: 24 * 60 * 60,
} as const;

export interface AuthorizationServerDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly resources: Resources;
  /** Whether the HTTP API is a resource here beside /mcp (OAuthServerDeps `servesApi`). */
  readonly servesApi: boolean;
  /**
   * How client ID metadata documents are fetched (the library's own fetch,
   * with its SSRF guard, when absent). A test passes one that answers from
   * memory: the library accepts only https URLs as client ids.
   */
  readonly fetch?: typeof fetch;
  /** Where the library's own start-up notices go. */
  readonly log: (message: string) => void;
  /** Trust X-Forwarded-Proto and X-Forwarded-For (behind a TLS-terminating proxy), so cookies are `Secure`. */
  readonly trustProxy?: boolean;
}

/** The cookie and token signing keys, shared by every process on the database. */
async function serverKeys(deps: AuthorizationServerDeps) {
  const cookieKey = await sharedSecret(deps.store.db, deps, 'oauth_cookie_key', () => randomBytes(32).toString('base64url'));
  const signingJwk = await sharedSecret(deps.store.db, deps, 'oauth_signing_jwk', () =>
    JSON.stringify({
      ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
      kid: randomBytes(8).toString('hex'),
      alg: 'ES256',
      use: 'sig',
    }),
  );
  return { cookieKey, jwks: { keys: [JSON.parse(signingJwk)] } };
}

/** The configured library, and the key its cookies are signed with (the pages sign their forms' CSRF tokens with it too). */
export async function createAuthorizationServer(deps: AuthorizationServerDeps): Promise<{ provider: Provider; cookieKey: string }> {
  const { resources } = deps;
  const { default: Provider, errors } = await loadOidcProvider(deps.log);
  const { cookieKey, jwks } = await serverKeys(deps);
  const scope = SCOPES.join(' ');
  const isResource = (indicator: string) => (deps.servesApi && indicator === resources.api) || mcpResources(resources).includes(indicator);

  const configuration: Configuration = {
    adapter: recordAdapter({ db: deps.store.db, clock: deps.clock }),
    routes: OAUTH_ROUTES,
    // api.md's scopes are also listed as the server's own, so that a client may name them in its registration
    // (`scope`, which MCP clients send); what a token carries is still decided per resource, below. No `openid`:
    // this is no OpenID provider (docs/oauth.md "Not offered"), so no ID token can be asked for.
    scopes: ['offline_access', ...SCOPES],
    // OAuth 2.1: the code flow only. The library's defaults also offer the implicit and hybrid OpenID flows.
    responseTypes: ['code'],
    jwks,
    cookies: {
      keys: [cookieKey],
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    ttl: { ...TTL },
    pkce: { required: () => true },
    // A token outlives the browser session that made it: an assistant keeps working after the host signs out.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every use of a refresh token gives a new one; the old one used again revokes the grant (stolen-token detection).
    rotateRefreshToken: true,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      // No ID tokens are issued (there is no `openid` scope), but the library checks the key type anyway.
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    extraClientMetadata: { properties: ['registered_by'], validator: registrationPolicy(errors) },
    async findAccount(_ctx, id) {
      const user = await deps.store.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    interactions: { url: async (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      // No OpenID sessions for other sites to end (and its page would be one more the server does not show).
      rpInitiatedLogout: { enabled: false },
      revocation: {
        enabled: true,
        // A client revokes only what was issued to it (RFC 7009 section 2.1). A confidential client asking for
        // another's is told so; a public one proved nothing by naming an id, so it is answered as for any token.
        async allowedPolicy(_ctx, client, token) {
          if (token.clientId === client.clientId) return true;
          if (client.clientAuthMethod === 'none') return false;
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
        },
      },
      introspection: {
        enabled: true,
        // A confidential client may introspect the tokens issued to it; a public client proves nothing by asking.
        allowedPolicy: async (_ctx, client, token) => client.clientAuthMethod !== 'none' && token.clientId === client.clientId,
      },
      registration: { enabled: true, initialAccessToken: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the HTTP API (for /mcp where it is the only resource).
        defaultResource: async (_ctx, _client, oneOf) => (oneOf ? oneOf[0] : deps.servesApi ? resources.api : resources.mcp),
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (!isResource(indicator)) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
          return { scope, accessTokenFormat: 'opaque', accessTokenTTL: TTL.AccessToken };
        },
      },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
    },
    ...(deps.fetch ? { fetch: deps.fetch as NonNullable<Configuration['fetch']> } : {}),
    async renderError(ctx, out) {
      // Never a redirect: an unknown client, a redirect_uri that does not match, or an error of a client that is not
      // trusted with redirects (error-redirects.ts) gets this page.
      const lines = Object.entries(out)
        .filter(([key]) => key === 'error' || key === 'error_description')
        .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`);
      // A page like the others: never framed, never cached (it can name the client and the redirect URI).
      ctx.set(pageHeaders());
      // The library gives `prompt=none` errors a 303 (they are meant to be redirected); as a page, it is a bad request.
      if (ctx.status < 400) ctx.status = 400;
      ctx.type = 'html';
      ctx.body = page('Authorization failed', `<h1>This request cannot be authorized</h1>${lines.join('')}`);
    },
  };

  const provider = new Provider(resources.issuer, configuration);
  provider.proxy = deps.trustProxy === true;
  guardErrorRedirects(provider, { db: deps.store.db, authorizationPath: OAUTH_ROUTES.authorization });
  return { provider, cookieKey };
}
