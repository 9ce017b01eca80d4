import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Authenticator,
  type ExecuteDeps,
  execute,
  isScheduleError,
  type Limits,
  type Operation,
  type RateLimiter,
  type Readiness,
  ScheduleError,
} from '@schedule/core';
import { admitRequest } from './admit-request.js';
import type { AppMetrics } from './app-metrics.js';
import { CLIENT_CLOSED_STATUS, closedByClient } from './client-closed.js';
import { checkJsonContentType } from './content-type.js';
import { DOCS_PATH, docsEndpoint } from './docs-page.js';
import { METRICS_PATH, metricsEndpoint } from './metrics-endpoint.js';
import { OPENAPI_PATH } from './openapi/meta-paths.js';
import { documentEndpoint } from './openapi/serve-document.js';
import { lingerAfterRefusal, readJsonBody } from './read-body.js';
import { sendError, sendOutcome } from './respond.js';
import { buildRouter } from './router.js';
import { bearerChallenge } from './www-authenticate.js';

/** The structured logger the app writes one line per request to (pino fits). */
export interface RequestLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface AppDeps {
  readonly core: ExecuteDeps;
  readonly authenticate: Authenticator;
  readonly operations: readonly Operation[];
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
  readonly logger: RequestLogger;
  /** Answers `GET /readyz`; without it the probe always reports ready. */
  readonly readiness?: (() => Promise<Readiness>) | undefined;
  /** Counts every request and answers `GET /metrics`; without it that path is an unknown route. */
  readonly metrics?: AppMetrics | undefined;
  /** When set, `GET /metrics` needs `Authorization: Bearer <metricsToken>`. */
  readonly metricsToken?: string | undefined;
  /** Where this API's protected resource metadata is (RFC 9728), named in every 401 and 403 challenge. */
  readonly resourceMetadataUrl?: string | undefined;
  /** How many proxies in front of the server to trust with `X-Forwarded-For` for anonymous buckets (TRUST_PROXY); 0 or absent: none. */
  readonly trustProxy?: number | undefined;
}

/** Probe paths a load balancer or orchestrator calls: no token, no rate limit, no database unless ready. */
const LIVENESS_PATH = '/healthz';
const READINESS_PATH = '/readyz';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

function queryRecord(search: URLSearchParams): Record<string, string | string[]> {
  // A repeated parameter keeps every value, so that it is validated, not silently cut: a list
  // takes them all (`status=confirmed&status=canceled`), any other parameter is refused.
  // Collected in a Map: a parameter named `__proto__` is a key like any other.
  const values = new Map<string, string[]>();
  for (const [name, value] of search) values.set(name, [...(values.get(name) ?? []), value]);
  return Object.fromEntries([...values].map(([name, all]) => [name, all.length === 1 ? all[0]! : all]));
}

/** The path of a request target, or undefined when the target is not a URL (`GET http://[::1 HTTP/1.1`). */
function pathAndQuery(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/**
 * The HTTP API as a node:http request handler. It only translates: HTTP in,
 * a core operation call, the envelope out. Each request: rate limit (bucket
 * from the token, else the client IP), route (404/405), authenticate (401),
 * read the body (413/400), then core's `execute`.
 */
export function buildApp(deps: AppDeps): RequestHandler {
  const route = buildRouter(deps.operations);
  const scrape = deps.metrics ? metricsEndpoint(deps.metrics, deps.metricsToken) : undefined;
  const serveDocument = documentEndpoint(deps.operations);
  const serveDocs = docsEndpoint();

  /** The two probes, answered before anything that could fail with the database. */
  async function probe(path: string, res: ServerResponse, requestId: string): Promise<number> {
    if (path === LIVENESS_PATH) {
      sendOutcome(res, { status: 200, data: { status: 'ok' } }, requestId);
      return 200;
    }
    const readiness = deps.readiness ? await deps.readiness() : undefined;
    const checks = { database: readiness?.database ?? 'ok', rate_limits: readiness?.rateLimits ?? 'ok' };
    if (readiness && !readiness.ready) {
      const error = new ScheduleError(
        'database_unavailable',
        'The database does not answer; this process cannot serve requests now.',
        checks,
        2,
      );
      return sendError(res, error, requestId);
    }
    sendOutcome(res, { status: 200, data: { status: 'ready', ...checks } }, requestId);
    return 200;
  }

  /** Serves one request; `seen.route` names it for the log as soon as it is known (the template, never the raw URL). */
  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    seen: { route: string; closedByClient?: boolean },
  ): Promise<number> {
    const url = pathAndQuery(req.url);
    const method = req.method ?? 'GET';
    if (url && method === 'GET' && (url.pathname === LIVENESS_PATH || url.pathname === READINESS_PATH)) {
      seen.route = `GET ${url.pathname}`;
      return probe(url.pathname, res, requestId);
    }
    // The contract is read before anything else: a client learning the API needs no token and spends no bucket.
    if (url && (method === 'GET' || method === 'HEAD') && url.pathname === OPENAPI_PATH) {
      seen.route = `GET ${OPENAPI_PATH}`;
      return serveDocument(res);
    }
    // The reference page reads that document in the browser; like it, it needs no token.
    if (url && (method === 'GET' || method === 'HEAD') && (url.pathname === DOCS_PATH || url.pathname.startsWith(`${DOCS_PATH}/`))) {
      const served = await serveDocs(url.pathname, res);
      if (served) {
        seen.route = served.route;
        return served.status;
      }
    }
    // Scraped like a probe: a scraper that shares an address with clients must not spend their anonymous bucket.
    if (scrape && url && method === 'GET' && url.pathname === METRICS_PATH) {
      seen.route = `GET ${METRICS_PATH}`;
      return scrape(req, res, requestId);
    }
    const { principal, sentToken } = await admitRequest(deps, req, res);
    if (!url) throw new ScheduleError('bad_request', 'The request target is not a valid path.');
    // RFC 9112 section 3.2: a server must refuse an HTTP/1.1 request without Host.
    if (req.httpVersion === '1.1' && req.headers.host === undefined)
      throw new ScheduleError('bad_request', 'HTTP/1.1 requests need a Host header.');
    const expectation = req.headers.expect;
    if (expectation !== undefined && expectation.toLowerCase() !== '100-continue') {
      throw new ScheduleError('expectation_failed', `Expect: ${expectation} cannot be met; only 100-continue is understood.`);
    }

    // HEAD is GET without the body (RFC 9110 section 9.3.2); Node leaves the body out of a HEAD answer.
    const match = route(method === 'HEAD' ? 'GET' : method, url.pathname);
    if (match.kind === 'not_found') {
      return sendError(res, new ScheduleError('not_found', `No route ${url.pathname}.`), requestId);
    }
    if (match.kind === 'method_not_allowed') {
      res.setHeader('Allow', match.allow.join(', '));
      const error = new ScheduleError('method_not_allowed', `${method} is not allowed here; use ${match.allow.join(' or ')}.`, {
        allow: match.allow,
      });
      return sendError(res, error, requestId);
    }
    const { operation, params } = match;
    seen.route = `${operation.method} ${operation.path}`;
    if (!principal) {
      const error = new ScheduleError(
        'unauthorized',
        !sentToken ? 'Authentication required: send Authorization: Bearer <token>.' : 'The bearer token is not valid.',
      );
      res.setHeader('WWW-Authenticate', bearerChallenge(error, { resourceMetadataUrl: deps.resourceMetadataUrl, sentToken }) ?? '');
      return sendError(res, error, requestId);
    }

    let body: unknown;
    if (operation.method !== 'GET') {
      checkJsonContentType(req);
      body = await readJsonBody(req);
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(',') : value;
    };
    const executed = await execute(
      deps.core,
      operation,
      principal,
      {
        params,
        // Most calls carry no query: skip building URLSearchParams for them.
        query: url.search === '' ? {} : queryRecord(url.searchParams),
        body,
        idempotencyKey: header('idempotency-key'),
        ifMatch: header('if-match'),
        source: 'api',
      },
      requestId,
    );
    if (executed.replayed) {
      res.setHeader('Idempotent-Replayed', 'true');
      res.setHeader('X-Request-Id', executed.requestId);
    }
    sendOutcome(res, executed.outcome, executed.requestId);
    return executed.outcome.status;
  }

  return (req, res) => {
    const started = performance.now();
    const requestId = deps.core.ids.uuid();
    res.setHeader('X-Request-Id', requestId);
    // Logged by route template: a raw URL could carry a token in its query string.
    const seen: { route: string; closedByClient?: boolean } = { route: 'unmatched' };
    handle(req, res, requestId, seen)
      .catch((error: unknown) => {
        if (isScheduleError(error)) {
          if (error.code === 'insufficient_scope' && !res.headersSent) {
            res.setHeader('WWW-Authenticate', bearerChallenge(error, { resourceMetadataUrl: deps.resourceMetadataUrl }) ?? '');
          }
          if (error.cause !== undefined) {
            const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
            deps.logger.warn({ request_id: requestId, code: error.code, cause }, 'request refused');
          }
          // A refused body may still be arriving: let it drain briefly, then drop the connection.
          if (!req.complete) lingerAfterRefusal(req);
          return res.headersSent ? res.statusCode : sendError(res, error, requestId);
        }
        if (closedByClient(req, error)) {
          seen.closedByClient = true;
          return CLIENT_CLOSED_STATUS;
        }
        deps.logger.error({ request_id: requestId, route: seen.route, err: error }, 'unexpected fault');
        const fault = new ScheduleError('internal_error', 'An unexpected error occurred; it has been logged.', {});
        return res.headersSent ? 500 : sendError(res, fault, requestId);
      })
      .then((status) => {
        const seconds = (performance.now() - started) / 1000;
        deps.metrics?.observeRequest(seen.route, status, seconds);
        deps.logger.info(
          {
            request_id: requestId,
            method: req.method,
            route: seen.route,
            status,
            duration_ms: Math.round(seconds * 100_000) / 100,
            // A client that went away is the request's story, told in its one line, not a fault.
            ...(seen.closedByClient ? { client_closed: true } : {}),
          },
          'request',
        );
      });
  };
}
