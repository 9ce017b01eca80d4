import { describe, expect, it } from 'vitest';
import { pathParam, requiredIfMatch, sentIfMatch } from '../src/operations/call-parts.js';
import { scheduleErrorOf } from './support/errors.js';

// The parts of a call `execute` checks before `parse` (operations/call-parts.ts):
// read the same way by every operation, refused with execute's own errors.

describe('the parts of a call', () => {
  it('reads a path parameter, and refuses one left out naming it', async () => {
    expect(pathParam({ id: 'x1' }, 'id')).toBe('x1');
    expect(pathParam({ id: '' }, 'id')).toBe('');
    expect(await scheduleErrorOf(() => pathParam({}, 'user_id'))).toMatchObject({
      code: 'validation_error',
      message: 'user_id: is required.',
      details: { fields: ['user_id'] },
    });
  });

  it('reads a required If-Match, and refuses one left out as missing_if_match', async () => {
    expect(requiredIfMatch({ ifMatch: '"3"' })).toEqual({ kind: 'version', version: 3 });
    expect(requiredIfMatch({ ifMatch: 'x' })).toEqual({ kind: 'invalid' });
    expect((await scheduleErrorOf(() => requiredIfMatch({}))).code).toBe('missing_if_match');
  });

  it('reads an optional If-Match, undefined when none was sent', () => {
    expect(sentIfMatch({ ifMatch: '*' })).toEqual({ kind: 'any' });
    expect(sentIfMatch({})).toBeUndefined();
  });
});
