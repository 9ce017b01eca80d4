import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Authenticator,
  bearerSecret,
  bucketFor,
  type ExecuteDeps,
  execute,
  isScheduleError,
  type Limits,
  type Operation,
  type Principal,
  type RateLimitDecision,
  type RateLimiter,
  rateLimitedError,
  ScheduleError,
} from '@schedule/core';
import { lingerAfterRefusal, readJsonBody } from './read-body.js';
import { sendError, sendOutcome } from './respond.js';
import { buildRouter } from './router.js';

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
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

function queryRecord(search: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  // A repeated parameter is kept whole (`a,b`) so that it is validated, not silently cut.
  for (const [name, value] of search) query[name] = name in query ? `${query[name]},${value}` : value;
  return query;
}

function setRateLimitHeaders(res: ServerResponse, decision: RateLimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetEpochSeconds));
}

/**
 * The HTTP API as a node:http request handler. It only translates: HTTP in,
 * a core operation call, the envelope out. Each request: rate limit (bucket
 * from the token, else the client IP), route (404/405), authenticate (401),
 * read the body (413/400), then core's `execute`.
 */
export function buildApp(deps: AppDeps): RequestHandler {
  const route = buildRouter(deps.operations);

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<{ status: number; route: string }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const secret = bearerSecret(req.headers.authorization);
    const principal: Principal | undefined = secret ? await deps.authenticate(secret) : undefined;

    const decision = await deps.rateLimiter.consume(bucketFor(principal, req.socket.remoteAddress ?? 'unknown', deps.limits));
    setRateLimitHeaders(res, decision);
    if (!decision.allowed) {
      return { status: sendError(res, rateLimitedError(decision), requestId), route: url.pathname };
    }

    const match = route(method, url.pathname);
    if (match.kind === 'not_found') {
      return { status: sendError(res, new ScheduleError('not_found', `No route ${url.pathname}.`), requestId), route: 'unmatched' };
    }
    if (match.kind === 'method_not_allowed') {
      res.setHeader('Allow', match.allow.join(', '));
      const error = new ScheduleError('method_not_allowed', `${method} is not allowed here; use ${match.allow.join(' or ')}.`, {
        allow: match.allow,
      });
      return { status: sendError(res, error, requestId), route: url.pathname };
    }
    const { operation, params } = match;
    const routeName = `${operation.method} ${operation.path}`;
    if (!principal) {
      const error = new ScheduleError(
        'unauthorized',
        secret === undefined ? 'Authentication required: send Authorization: Bearer <token>.' : 'The bearer token is not valid.',
      );
      return { status: sendError(res, error, requestId), route: routeName };
    }

    const body = method === 'GET' ? undefined : await readJsonBody(req);
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(',') : value;
    };
    const executed = await execute(
      deps.core,
      operation,
      principal,
      { params, query: queryRecord(url.searchParams), body, idempotencyKey: header('idempotency-key'), ifMatch: header('if-match') },
      requestId,
    );
    if (executed.replayed) {
      res.setHeader('Idempotent-Replayed', 'true');
      res.setHeader('X-Request-Id', executed.requestId);
    }
    sendOutcome(res, executed.outcome, executed.requestId);
    return { status: executed.outcome.status, route: routeName };
  }

  return (req, res) => {
    const started = performance.now();
    const requestId = deps.core.ids.uuid();
    res.setHeader('X-Request-Id', requestId);
    handle(req, res, requestId)
      .catch((error: unknown) => {
        if (isScheduleError(error)) {
          if (error.cause !== undefined) {
            const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
            deps.logger.warn({ request_id: requestId, code: error.code, cause }, 'request refused');
          }
          if (error.code === 'payload_too_large') lingerAfterRefusal(req);
          return { status: sendError(res, error, requestId), route: req.url ?? '' };
        }
        deps.logger.error({ request_id: requestId, err: error }, 'unexpected fault');
        const fault = new ScheduleError('internal_error', 'An unexpected error occurred; it has been logged.', {});
        return { status: res.headersSent ? 500 : sendError(res, fault, requestId), route: req.url ?? '' };
      })
      .then(({ status, route }) => {
        deps.logger.info(
          { request_id: requestId, method: req.method, route, status, duration_ms: Math.round((performance.now() - started) * 100) / 100 },
          'request',
        );
      });
  };
}
