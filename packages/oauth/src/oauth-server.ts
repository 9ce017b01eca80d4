import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Clock, type Limits, type RateLimiter, rateLimitedError, ScheduleError, type Store } from '@schedule/core';
import { clientAddress, type RequestLogger, sendError, setRateLimitHeaders } from '@schedule/http';
import { createAuthorizationServer, INTERACTION_PATH, OAUTH_ROUTES } from './authorization-server.js';
import { APPS_PATH, connectedApps, SIGN_IN_PATH } from './connected-apps.js';
import { FormError } from './form-body.js';
import { fromOwnPage } from './form-origin.js';
import { interactionHandlers } from './interactions.js';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.js';
import { sendErrorPage } from './pages/layout.js';
import {
  API_METADATA_PATH,
  AUTHORIZATION_SERVER_METADATA_PATH,
  MCP_METADATA_PATH,
  originReached,
  type Resources,
  resourcesOf,
} from './resources.js';

export interface OAuthServerDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: { uuid(): string };
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
  readonly logger: RequestLogger;
  /** The origin clients reach this server at (`PUBLIC_URL`). */
  readonly publicUrl: string;
  /** Other origins clients reach /mcp at (resources.ts `loopbackAliasesOf`); none by default. */
  readonly aliases?: readonly string[];
  /**
   * Whether the HTTP API (and its reference at /docs) is served beside /mcp,
   * as by `schedule serve` (the default). Without it (`schedule mcp --http`)
   * /mcp is the one resource: the API's metadata is not served, no token is
   * issued for the API, and a client that names no resource gets one for /mcp.
   */
  readonly servesApi?: boolean;
  /**
   * How many proxies in front of the server to trust (TRUST_PROXY): their
   * `X-Forwarded-For` keys the per-address buckets (client-address.ts in
   * @schedule/http), and their `X-Forwarded-Proto: https` makes cookies `Secure`.
   */
  readonly trustProxy?: number;
  /** How client ID metadata documents are fetched; see AuthorizationServerDeps. */
  readonly fetch?: typeof fetch;
}

export interface OAuthServer {
  readonly resources: Resources;
  /** Whether a path is the authorization server's (the rest is the API's and /mcp's). */
  handles(path: string): boolean;
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/** The per-address bucket of each public OAuth endpoint (docs/api/requests.md "Rate limits"). */
function endpointBucket(path: string, limits: Limits): { name: string; limit: number } {
  if (path === OAUTH_ROUTES.authorization || path.startsWith(`${OAUTH_ROUTES.authorization}/`))
    return { name: 'oauth_authorize', limit: limits.oauth_authorize_per_minute };
  if (path === OAUTH_ROUTES.token) return { name: 'oauth_token', limit: limits.oauth_token_per_minute };
  if (path === OAUTH_ROUTES.revocation) return { name: 'oauth_revoke', limit: limits.oauth_revoke_per_minute };
  if (path === OAUTH_ROUTES.introspection) return { name: 'oauth_introspect', limit: limits.oauth_introspect_per_minute };
  if (path === OAUTH_ROUTES.registration) return { name: 'oauth_register', limit: limits.oauth_register_per_minute };
  // A host's browser on the pages is not counted with clients polling discovery or /mcp without a token from the same address.
  if (path.startsWith('/oauth/')) return { name: 'oauth_pages', limit: limits.oauth_pages_per_minute };
  // Discovery, the key set: the anonymous bucket, as every unauthenticated request.
  return { name: 'anonymous', limit: limits.anonymous_per_minute };
}

function sendJson(res: ServerResponse, body: unknown): number {
  const text = JSON.stringify(body);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Browser-based MCP clients read discovery from other origins.
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.end(text);
  return 200;
}

/**
 * The methods each path of the library takes (OPTIONS is its CORS
 * preflight). Anything else is answered here, as the rest of /v1 answers
 * it (404 not_found, 405 with Allow), instead of by the library's bare 404.
 */
function libraryMethods(path: string): readonly string[] | undefined {
  if (path === OAUTH_ROUTES.authorization) return ['GET', 'POST'];
  // The authorization request resumed after sign-in and consent.
  if (path.startsWith(`${OAUTH_ROUTES.authorization}/`)) return ['GET'];
  if (path === OAUTH_ROUTES.token || path === OAUTH_ROUTES.revocation || path === OAUTH_ROUTES.introspection) return ['POST'];
  if (path === OAUTH_ROUTES.registration) return ['POST'];
  // RFC 7592 read of one's own registration, with the registration access token.
  if (path.startsWith(`${OAUTH_ROUTES.registration}/`)) return ['GET'];
  if (path === OAUTH_ROUTES.jwks) return ['GET'];
  return undefined;
}

const INTERACTION = new RegExp(`^${INTERACTION_PATH}/([A-Za-z0-9_-]{1,64})(?:/(sign-in|consent))?$`);

/**
 * The authorization server as a node:http handler: discovery documents,
 * the OAuth endpoints (oidc-provider), and the sign-in, consent and
 * connected-apps pages. Each request is counted first in its endpoint's
 * bucket per client address, with the `X-RateLimit-*` headers.
 */
export async function createOAuthServer(deps: OAuthServerDeps): Promise<OAuthServer> {
  const resources = resourcesOf(deps.publicUrl, deps.aliases);
  const servesApi = deps.servesApi ?? true;
  const trustProxy = deps.trustProxy ?? 0;
  const { provider, cookieKey } = await createAuthorizationServer({
    ...deps,
    resources,
    servesApi,
    trustProxy: trustProxy > 0,
    log: (message) => deps.logger.info({ library: 'oidc-provider' }, message),
  });
  provider.on('server_error', (_ctx, error) => deps.logger.error({ err: error }, 'authorization server fault'));
  const callback = provider.callback();
  const pageDeps = {
    provider,
    records: { db: deps.store.db, clock: deps.clock },
    cookieKey,
    rateLimiter: deps.rateLimiter,
    limits: deps.limits,
    resources,
    trustProxy: trustProxy > 0,
  };
  const interactions = interactionHandlers(pageDeps);
  const apps = connectedApps(pageDeps);

  async function route(req: IncomingMessage, res: ServerResponse, path: string, address: string, seen: { route: string }): Promise<number> {
    const method = req.method ?? 'GET';
    const get = method === 'GET' || method === 'HEAD';
    if (get && path === AUTHORIZATION_SERVER_METADATA_PATH) return sendJson(res, authorizationServerMetadata(resources, servesApi));
    const described = { reached: originReached(resources, req.headers.host), documented: servesApi };
    if (get && path === API_METADATA_PATH && servesApi) return sendJson(res, protectedResourceMetadata(resources, 'api', described));
    if (get && path === MCP_METADATA_PATH) return sendJson(res, protectedResourceMetadata(resources, 'mcp', described));
    if (path.startsWith('/v1/oauth/')) {
      const allowed = libraryMethods(path);
      if (!allowed) throw new ScheduleError('not_found', `No route ${path}.`);
      if (method !== 'OPTIONS' && !allowed.includes(method === 'HEAD' ? 'GET' : method)) {
        res.setHeader('Allow', allowed.join(', '));
        throw new ScheduleError('method_not_allowed', `${method} is not allowed here; use ${allowed.join(' or ')}.`, { allow: allowed });
      }
      seen.route = `${method} ${path.startsWith(`${OAUTH_ROUTES.authorization}/`) ? `${OAUTH_ROUTES.authorization}/:uid` : path}`;
      callback(req, res);
      return new Promise((resolve) => res.on('finish', () => resolve(res.statusCode)));
    }
    // Every form of the pages, whatever its token says: a post from another site's page is login or consent forgery.
    if (method === 'POST' && path.startsWith('/oauth/') && !fromOwnPage(req, resources.issuer)) {
      return sendErrorPage(
        res,
        403,
        'This form was sent from another site. Open this server’s page yourself and send the form from there.',
      );
    }
    const interaction = INTERACTION.exec(path);
    if (interaction) {
      const [, uid = '', step] = interaction;
      seen.route = `${method} ${INTERACTION_PATH}/:uid${step ? `/${step}` : ''}`;
      if (!step && get) return interactions.show(req, res, uid);
      if (step === 'sign-in' && method === 'POST') return interactions.signIn(req, res, uid, address);
      if (step === 'consent' && method === 'POST') return interactions.consent(req, res, uid);
    }
    if (path === APPS_PATH && get) return apps.show(req, res);
    if (path === SIGN_IN_PATH && get) return apps.signInForm(req, res);
    if (path === SIGN_IN_PATH && method === 'POST') return apps.signIn(req, res, address);
    if (path === `${APPS_PATH}/revoke` && method === 'POST') return apps.revoke(req, res);
    if (path === '/oauth/sign-out' && method === 'POST') return apps.signOut(req, res);
    return sendErrorPage(res, 404, 'There is no such page.');
  }

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string, seen: { route: string }): Promise<number> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    seen.route = `${req.method} ${path.startsWith('/oauth/') || path.startsWith('/v1/oauth/') ? path.split('/').slice(0, 4).join('/') : path}`;
    const bucket = endpointBucket(path, deps.limits);
    const address = clientAddress(req, trustProxy);
    const decision = await deps.rateLimiter.consume({ key: `${bucket.name}:${address}`, limit: bucket.limit });
    setRateLimitHeaders(res, decision);
    if (!decision.allowed) return sendError(res, rateLimitedError(decision), requestId);
    return route(req, res, path, address, seen);
  }

  return {
    resources,
    handles: (path) => path.startsWith('/.well-known/') || path.startsWith('/v1/oauth/') || path.startsWith('/oauth/'),
    handler(req, res) {
      const started = performance.now();
      const requestId = deps.ids.uuid();
      res.setHeader('X-Request-Id', requestId);
      const seen = { route: 'unmatched' };
      serve(req, res, requestId, seen)
        .catch((error: unknown) => {
          if (res.headersSent) return res.statusCode;
          if (error instanceof FormError) return sendErrorPage(res, error.status, error.message);
          if (error instanceof ScheduleError) return sendError(res, error, requestId);
          deps.logger.error({ request_id: requestId, route: seen.route, err: error }, 'unexpected fault');
          return sendErrorPage(res, 500, 'An unexpected error occurred; it has been logged.');
        })
        .then((status) => {
          const ms = Math.round((performance.now() - started) * 100) / 100;
          // The route, never the raw URL: an authorization request's query carries state and challenges.
          deps.logger.info({ request_id: requestId, method: req.method, route: seen.route, status, duration_ms: ms }, 'request');
        });
    },
  };
}
