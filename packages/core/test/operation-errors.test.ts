import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { CALL_ERRORS, errorsOf } from '../src/operations/operation-errors.js';
import { operations, operationsByName } from '../src/operations/registry.js';

// Issue 14: which codes an operation can answer, as the OpenAPI document
// lists them. Its own declaration, plus what the rules of `execute` give it.

describe('errorsOf', () => {
  it('holds every operation’s own codes and those any call can meet, without repeats, in ERROR_CODES order', () => {
    for (const operation of operations) {
      const codes = errorsOf(operation);
      for (const code of [...operation.errors, ...CALL_ERRORS]) expect(codes, operation.name).toContain(code);
      expect(codes).toEqual(ERROR_CODES.filter((code) => codes.includes(code)));
    }
  });

  it('gives a write with a required key its idempotency and lock codes, and a read none of them', () => {
    expect(errorsOf(operationsByName.create_booking)).toEqual(
      expect.arrayContaining(['missing_idempotency_key', 'idempotency_key_conflict', 'idempotency_in_progress', 'slot_lock_timeout']),
    );
    const read = errorsOf(operationsByName.list_bookings);
    for (const code of ['missing_idempotency_key', 'idempotency_key_conflict', 'missing_if_match', 'slot_lock_timeout', 'not_found']) {
      expect(read, code).not.toContain(code);
    }
    expect(read).toContain('insufficient_scope');
  });

  it('asks If-Match only where it is required, a scope only where one is needed, and not_found of a path parameter only where there is one', () => {
    expect(errorsOf(operationsByName.update_series)).toContain('missing_if_match');
    expect(errorsOf(operationsByName.resume_series)).not.toContain('missing_if_match');
    expect(errorsOf(operationsByName.whoami)).not.toContain('insufficient_scope');
    expect(errorsOf(operationsByName.get_booking)).toContain('not_found');
  });
});
