import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode, isScheduleError, ScheduleError } from '../src/errors.js';

// The one error type every front end maps (http status-codes.ts, MCP isError,
// CLI exit codes): what a client reading a code off the wire, and a front end
// catching a failure, are told.

describe('isErrorCode', () => {
  it('is true for every code of the API, and for nothing else', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    for (const other of ['', 'not_a_code', 'Validation_Error', 'validation_error ', 42, null, undefined, {}, ['validation_error']]) {
      expect(isErrorCode(other)).toBe(false);
    }
  });
});

describe('ScheduleError', () => {
  it('is named ScheduleError, carries its code, details and Retry-After, and keeps a cause for the log', () => {
    const cause = new Error('socket hang up');
    const error = new ScheduleError('database_unavailable', 'The database does not answer.', { database: 'unavailable' }, 2, { cause });
    expect(error.name).toBe('ScheduleError');
    expect(String(error)).toBe('ScheduleError: The database does not answer.');
    expect([error.code, error.message, error.details, error.retryAfterSeconds, error.cause]).toEqual([
      'database_unavailable',
      'The database does not answer.',
      { database: 'unavailable' },
      2,
      cause,
    ]);
  });

  it('isScheduleError tells it from any other thrown value', () => {
    expect(isScheduleError(new ScheduleError('not_found', 'No route.', {}))).toBe(true);
    for (const other of [new Error('x'), { code: 'not_found', message: 'x' }, 'not_found', undefined])
      expect(isScheduleError(other)).toBe(false);
  });
});
