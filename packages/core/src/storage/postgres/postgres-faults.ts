import { ScheduleError } from '../../errors.js';

/** What a request answers while the database cannot be reached: the caller retries after this many seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

// SQLSTATE classes and codes that mean the session, not the statement, failed:
// 08 connection exception, 57P01-57P03 the server shutting down or starting,
// 53300 too many connections, 25P03 idle_in_transaction_session_timeout.
const LOST_SESSION_CODES = new Set(['57P01', '57P02', '57P03', '53300', '25P03']);
// Errors the driver and Node's sockets raise without a SQLSTATE.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND']);
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Connection timeout',
];

/** True when the error means this connection can no longer be trusted and must be thrown away. */
export function isLostSession(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || LOST_SESSION_CODES.has(code) || SOCKET_CODES.has(code))) return true;
  return typeof message === 'string' && DRIVER_MESSAGES.some((text) => message.includes(text));
}

/** True for a statement the server canceled after `statement_timeout` (57014). */
function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '57014';
}

/**
 * The error a request answers when the database failed underneath it:
 * `503 database_unavailable` with `Retry-After`, keeping the driver's error
 * as the cause for the log. Undefined for errors of the statement itself
 * (a constraint, a lock timeout), which callers handle as before.
 */
export function databaseFault(error: unknown): ScheduleError | undefined {
  if (!isLostSession(error) && !isStatementTimeout(error)) return undefined;
  return new ScheduleError(
    'database_unavailable',
    'The database is unavailable or too slow to answer; retry shortly.',
    {},
    DATABASE_RETRY_AFTER_SECONDS,
    { cause: error },
  );
}
