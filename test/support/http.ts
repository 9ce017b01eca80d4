import { expect } from 'vitest';
import { checkAgainstContract } from './openapi-contract.js';

/** A response read whole: status, headers and the parsed JSON body. */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body; undefined when the body is not JSON. */
  readonly body: any;
  /** Wall-clock milliseconds the request took. */
  readonly elapsedMs: number;
}

export interface ApiRequest {
  method?: string;
  /** A bearer secret; omitted means no Authorization header. */
  token?: string;
  headers?: Record<string, string>;
  /** A value to send as JSON, or a raw string sent as is. */
  json?: unknown;
  raw?: string;
  /** False when the server is not the HTTP API (`schedule mcp --http`): its answers are not checked against docs/openapi.json. */
  apiServer?: boolean;
}

/** Sends one request to a running server and reads the whole answer. */
export async function api(baseUrl: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  let body: string | undefined;
  if (request.json !== undefined) body = JSON.stringify(request.json);
  if (request.raw !== undefined) body = request.raw;
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const started = performance.now();
  const res = await fetch(`${baseUrl}${path}`, { method: request.method ?? 'GET', headers, body });
  const text = await res.text();
  const elapsedMs = performance.now() - started;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const exchange = { method: request.method ?? 'GET', target: path, status: res.status, headers: res.headers, text, body: parsed };
  checkAgainstContract(exchange, request.apiServer);
  return { status: res.status, headers: res.headers, text, body: parsed, elapsedMs };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The headers every response carries (docs/api/requests.md "Request limits",
 * docs/api/requests.md "Rate limits"): X-Request-Id, and the three X-RateLimit-* values.
 * Returns the rate-limit values as numbers.
 */
export function expectCommonHeaders(res: ApiResponse, expectedLimit?: number): { limit: number; remaining: number; reset: number } {
  expect(res.headers.get('x-request-id')).toMatch(UUID_RE);
  const limit = res.headers.get('x-ratelimit-limit');
  const remaining = res.headers.get('x-ratelimit-remaining');
  const reset = res.headers.get('x-ratelimit-reset');
  expect(limit).toMatch(/^\d+$/);
  expect(remaining).toMatch(/^\d+$/);
  expect(reset).toMatch(/^\d+$/);
  const values = { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
  if (expectedLimit !== undefined) expect(values.limit).toBe(expectedLimit);
  expect(values.remaining).toBeLessThanOrEqual(values.limit);
  // A fixed 60-second window: the reset is a whole minute no more than a minute away.
  expect(values.reset % 60).toBe(0);
  // Compared with when the request was sent, not when its answer was read: on a busy machine an answer
  // that left in one window can arrive in the next, and its reset is then rightly in the past.
  const sentSeconds = (Date.now() - res.elapsedMs) / 1000;
  expect(values.reset).toBeGreaterThan(sentSeconds - 1);
  expect(values.reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  return values;
}

/** A success in the common envelope; returns `data`. */
export function expectData(res: ApiResponse, status = 200): any {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectCommonHeaders(res);
  expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
  expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
  return res.body.data;
}

/** A list page in the common envelope; returns items and the pagination meta. */
export function expectPage(res: ApiResponse): { items: any[]; nextCursor: string | null; hasMore: boolean } {
  const data = expectData(res);
  expect(Array.isArray(data)).toBe(true);
  expect(Object.keys(res.body.meta).sort()).toEqual(['has_more', 'next_cursor', 'request_id']);
  const { next_cursor: nextCursor, has_more: hasMore } = res.body.meta;
  expect(typeof hasMore).toBe('boolean');
  // A cursor exactly when there is more.
  if (hasMore) expect(typeof nextCursor).toBe('string');
  else expect(nextCursor).toBeNull();
  return { items: data, nextCursor, hasMore };
}

/**
 * An error in the common envelope: exact status and code, `details` exactly
 * as given (when given), `request_id` equal to the X-Request-Id header.
 */
export function expectError(
  res: ApiResponse,
  status: number,
  code: string,
  details?: Record<string, unknown>,
  message?: string | RegExp,
): { code: string; message: string; details: Record<string, unknown>; request_id: string } {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status}: ${res.text}`);
  }
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectCommonHeaders(res);
  expect(Object.keys(res.body)).toEqual(['error']);
  const error = res.body.error;
  expect(Object.keys(error).sort()).toEqual(['code', 'details', 'message', 'request_id']);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.details).toBeTypeOf('object');
  expect(error.details).not.toBeNull();
  expect(error.request_id).toBe(res.headers.get('x-request-id'));
  if (details !== undefined) expect(error.details).toEqual(details);
  if (typeof message === 'string') expect(error.message).toBe(message);
  else if (message instanceof RegExp) expect(error.message).toMatch(message);
  return error;
}

/**
 * The `WWW-Authenticate` of a refusal (docs/oauth.md "Discovery"): the
 * realm; on `schedule serve`, the resource metadata URL of the API (or of
 * `/mcp` with `resource: 'mcp'`); and `error="invalid_token"` when the
 * request carried credentials that are not valid here.
 */
export function bearerChallenge(options: { origin?: string; resource?: 'api' | 'mcp'; sentToken?: boolean; scope?: string }): string {
  const params = ['realm="schedule"'];
  if (options.origin) {
    const suffix = options.resource === 'mcp' ? '/mcp' : '';
    params.push(`resource_metadata="${options.origin}/.well-known/oauth-protected-resource${suffix}"`);
  }
  if (options.sentToken) params.push('error="invalid_token"', 'error_description="The access token is not valid here."');
  if (options.scope) params.push('error="insufficient_scope"', `scope="${options.scope}"`);
  return `Bearer ${params.join(', ')}`;
}
