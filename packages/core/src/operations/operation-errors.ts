import { ERROR_CODES, type ErrorCode } from '../errors.js';
import type { Operation } from './operation.js';

/**
 * What any call can meet, whatever it asks and through whichever front end:
 * admission (a token that is not valid, a spent bucket) and faults (the
 * database away, a bug).
 */
export const CALL_ERRORS = [
  'unauthorized',
  'rate_limited',
  'database_unavailable',
  'internal_error',
] as const satisfies readonly ErrorCode[];

/**
 * Every code an operation can answer: its own (`operation.errors`), the ones
 * every call can meet, and the ones the rules of `execute` give it by its
 * declaration, in the order ERROR_CODES lists them. Kept beside execute.ts,
 * so a rule added there is added here.
 */
export function errorsOf(operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...CALL_ERRORS, ...operation.errors]);
  if (operation.scope !== null) codes.add('insufficient_scope');
  if (operation.idempotencyKey === 'required') codes.add('missing_idempotency_key');
  if (operation.idempotencyKey !== 'none') {
    // An empty or over-long key (checkKeyShape), then the key's use by another request or one still running.
    codes.add('validation_error');
    codes.add('idempotency_key_conflict');
    codes.add('idempotency_in_progress');
  }
  if (operation.ifMatch === 'required') codes.add('missing_if_match');
  // checkRawCallBounds: every call's query values, a path parameter no resource can have, a body's bounds.
  codes.add('invalid_query_param');
  if (operation.schemas.params.length > 0) codes.add('not_found');
  if (operation.method !== 'GET') {
    codes.add('validation_error');
    // A write waits for the host's lock or the SQLite file; one not had in time is refused, nothing written.
    codes.add('slot_lock_timeout');
  }
  return ERROR_CODES.filter((code) => codes.has(code));
}
