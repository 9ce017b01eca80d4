import { ERROR_CODES, type ErrorCode, errorsOf, type Operation } from '@schedule/core';

/**
 * Refusals of a request as HTTP, which any path can get: Node's parser
 * (client-error.ts: broken syntax, headers too large, too slow) and the
 * checks of build-app.ts before routing (a target that is not a path,
 * HTTP/1.1 without Host, an `Expect` other than 100-continue).
 */
const REQUEST_ERRORS = [
  'bad_request',
  'request_timeout',
  'headers_too_large',
  'expectation_failed',
] as const satisfies readonly ErrorCode[];

/** Refusals of a request body (content-type.ts, read-body.ts): every POST and PATCH reads one, even an action that ignores it. */
const BODY_ERRORS = ['unsupported_media_type', 'payload_too_large', 'validation_error'] as const satisfies readonly ErrorCode[];

/**
 * What a request for a path or method no operation serves can be answered:
 * the refusals that come before routing, then `404 not_found` or
 * `405 method_not_allowed` (requests.md "Order of checks").
 */
export const UNROUTED_ERRORS: readonly ErrorCode[] = [
  ...REQUEST_ERRORS,
  'rate_limited',
  'not_found',
  'method_not_allowed',
  'database_unavailable',
  'internal_error',
];

/** Every code an operation can answer over HTTP: core's (`errorsOf`) and the HTTP front end's own, in ERROR_CODES order. */
export function httpErrorsOf(operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...errorsOf(operation), ...REQUEST_ERRORS]);
  if (operation.method !== 'GET') for (const code of BODY_ERRORS) codes.add(code);
  return ERROR_CODES.filter((code) => codes.has(code));
}
