import { describe, expect, it } from 'vitest';
import type { CallWords } from '../src/call-words.js';
import { ScheduleError } from '../src/errors.js';
import { checkKeyShape } from '../src/idempotency/idempotency.js';

// Issue 13: core words a message about a call input for no front end; each
// front end shows it in its own words, from its own table, never by rewriting text.

const TOOL: CallWords = {
  call: 'This tool',
  name: { idempotency_key: 'idempotency_key', if_match: 'if_match' },
  carried: { idempotency_key: 'idempotency_key', if_match: 'if_match' },
};

function refusalOf(work: () => void): ScheduleError {
  try {
    work();
  } catch (error) {
    if (error instanceof ScheduleError) return error;
    throw error;
  }
  throw new Error('expected a ScheduleError');
}

describe('ScheduleError.shownIn', () => {
  it('says a refused key in core’s words, and in a front end’s from its table, message and details alike', () => {
    const refused = refusalOf(() => checkKeyShape(''));
    expect({ message: refused.message, details: refused.details }).toEqual({
      message: 'Idempotency-Key must be 1 to 255 characters.',
      details: { fields: ['Idempotency-Key'] },
    });
    expect(refused.shownIn(TOOL)).toEqual({
      code: 'validation_error',
      message: 'idempotency_key must be 1 to 255 characters.',
      details: { fields: ['idempotency_key'] },
    });
  });

  it('shows a message that names no input as it is', () => {
    const plain = new ScheduleError('slot_unavailable', 'The host is not free at this time.', { reason: 'slot_busy' });
    expect(plain.shownIn(TOOL)).toEqual({ code: 'slot_unavailable', message: plain.message, details: plain.details });
  });
});
