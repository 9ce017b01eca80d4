import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseQuery } from '../src/pagination/query-params.js';
import { parseBody } from '../src/validation/parse-body.js';
import { scheduleErrorOf } from './support/errors.js';

// Issue 29 item 13: every refusal says what was wrong in the caller's terms.
// zod's own words ("Invalid input: expected number, received string", "Too
// big: expected int to be <=9007199254740991") are for programmers; these
// are the rules a body field or query parameter is held to, as answered.

const messageOf = async (schema: z.ZodType, value: unknown) =>
  (await scheduleErrorOf(() => parseBody(z.object({ f: schema }), { f: value }))).message;

describe('a refused body field, in plain words', () => {
  it.each([
    ['missing', z.string(), undefined, 'f: is required'],
    ['text for a number', z.number(), '4', 'f: must be a number, not a string'],
    ['a fraction for an integer', z.int(), 2.5, 'f: must be an integer, not 2.5'],
    ['text for an integer', z.int(), '4', 'f: must be an integer, not a string'],
    ['a number for text', z.string(), 7, 'f: must be a string, not 7'],
    ['text for true or false', z.boolean(), 'no', 'f: must be true or false, not a string'],
    ['an array for an object', z.object({}), [], 'f: must be an object, not an array'],
    ['null for a list', z.array(z.string()), null, 'f: must be an array, not null'],
    ['an object for text', z.string(), {}, 'f: must be a string, not an object'],
    ['true for text', z.string(), true, 'f: must be a string, not true'],
    ['an integer past the safe ones', z.int(), 1e308, 'f: is too large'],
    ['an integer below the safe ones', z.int(), -1e308, 'f: is too small'],
    ['over a maximum', z.number().max(8), 9, 'f: must be at most 8'],
    ['at an exclusive maximum', z.number().lt(8), 8, 'f: must be less than 8'],
    ['under a minimum', z.number().min(1), 0, 'f: must be at least 1'],
    ['at an exclusive minimum', z.number().gt(0), 0, 'f: must be more than 0'],
    ['too long', z.string().max(3), 'abcd', 'f: must be at most 3 characters'],
    ['empty', z.string().min(1), '', 'f: must not be empty'],
    ['too short', z.string().min(3), 'ab', 'f: must be at least 3 characters'],
    ['more than one item', z.array(z.string()).max(1), ['a', 'b'], 'f: must have at most 1 item'],
    ['too many items', z.array(z.string()).max(2), ['a', 'b', 'c'], 'f: must have at most 2 items'],
    ['no items', z.array(z.string()).min(1), [], 'f: must not be empty'],
    ['too few items', z.array(z.string()).min(2), ['a'], 'f: must have at least 2 items'],
    ['not one of an enum', z.enum(['weekly', 'monthly_same_day']), 'daily', 'f: must be one of weekly, monthly_same_day'],
    ['not a literal', z.literal('x'), 'y', 'f: must be "x"'],
    ['not an email', z.email(), 'x', 'f: must be an email address'],
    ['not a URL', z.url(), 'x', 'f: must be a URL'],
    ['not a UUID', z.uuid(), 'x', 'f: must be a UUID'],
    ['not of a pattern', z.string().regex(/^a$/), 'b', 'f: must be a valid regex'],
    ['of no type a union takes', z.union([z.email(), z.object({ email: z.email() })]), 5, 'f: must be a string or an object, not 5'],
    ['of no form a union takes', z.union([z.literal('a'), z.literal('b')]), 'c', 'f: is not in any form this field takes'],
    [
      'of a union whose branches are not all about type',
      z.union([z.string(), z.literal(5)]),
      true,
      'f: is not in any form this field takes',
    ],
    ['a number for an email', z.email(), 5, 'f: must be a string, not 5'],
    ['not a multiple', z.number().multipleOf(5), 7, 'f: must be a multiple of 5'],
    ['a bad key of a record', z.record(z.string().min(2), z.number()), { a: 1 }, 'f.a: has a key that is not valid'],
  ])('%s', async (_, schema, value, message) => {
    expect(await messageOf(schema, value)).toBe(message);
  });

  it('says a rule about the whole body as the body’s, and refuses a body that is null or not an object', async () => {
    expect(
      (
        await scheduleErrorOf(() =>
          parseBody(
            z.object({}).refine(() => false, 'must name something'),
            {},
          ),
        )
      ).message,
    ).toBe('body: must name something');
    for (const body of [null, [1], 'x']) {
      expect(await scheduleErrorOf(() => parseBody(z.object({}), body))).toMatchObject({
        code: 'validation_error',
        message: 'The body must be a JSON object.',
        details: { fields: [] },
      });
    }
  });

  it('keeps the words a schema gives its own rule, and says a rule broken twice once', async () => {
    expect(
      await messageOf(
        z.string().refine(() => false, 'must be a date that exists'),
        'x',
      ),
    ).toBe('f: must be a date that exists');
    const rule = 'must be an integer from 1 to 8';
    expect(await messageOf(z.int({ error: rule }).min(1, rule).max(8, rule), 1e308)).toBe(`f: ${rule}`);
  });
});

describe('a refused query parameter, in plain words', () => {
  const query = z.object({ limit: z.int().optional(), status: z.array(z.string()).optional() });
  const refusal = (value: Record<string, unknown>) => scheduleErrorOf(() => parseQuery(query, value));

  it('names the parameter and its rule, with no "Query parameter" a tool argument is not', async () => {
    expect(await refusal({ limit: 'x' })).toMatchObject({
      code: 'invalid_query_param',
      message: 'limit: must be an integer, not a string.',
    });
  });

  it('says a one-value parameter sent more than once is given twice, or n times; a list takes them all', async () => {
    expect((await refusal({ limit: ['1', '2'] })).message).toBe('limit is given twice; send it once.');
    expect((await refusal({ limit: ['1', '2', '3'] })).message).toBe('limit is given 3 times; send it once.');
    expect((await refusal({ limit: ['1'] })).message).toBe('limit: must be an integer, not an array.');
    expect(parseQuery(query, { status: ['a', 'b'] })).toEqual({ status: ['a', 'b'] });
  });
});
