import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, queryBinding } from '../src/pagination/cursor.js';
import { scheduleErrorOf } from './support/errors.js';

const binding = queryBinding({ sort: 'start_at_desc', status: ['confirmed'] });
const position = { value: '2026-01-05T09:00:00.000Z', uid: '30000000-0000-4000-8000-000000000007' };
const invalidCursor = { code: 'invalid_query_param', details: { param: 'cursor' }, retryAfterSeconds: undefined };

const base64url = (text: string) => Buffer.from(text).toString('base64url');

describe('cursor', () => {
  it('round-trips a position for the same query', () => {
    expect(decodeCursor(encodeCursor(binding, position), binding)).toEqual(position);
  });

  it('is opaque URL-safe text', () => {
    expect(encodeCursor(binding, position)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuses a cursor from another query binding', async () => {
    const other = queryBinding({ sort: 'start_at_desc', status: ['canceled'] });
    const cursor = encodeCursor(other, position);
    expect(await scheduleErrorOf(() => decodeCursor(cursor, binding))).toEqual({
      ...invalidCursor,
      message: 'The cursor is not valid for this query.',
    });
  });

  it.each([
    ['garbage', 'not a cursor'],
    ['an empty string', ''],
    ['base64 of JSON null', base64url('null')],
    ['base64 of a JSON array', base64url('[]')],
    ['a position whose value is not text', base64url(JSON.stringify({ q: binding, v: 1, u: position.uid }))],
    ['a position without a uid', base64url(JSON.stringify({ q: binding, v: position.value }))],
  ])('refuses %s', async (_, cursor) => {
    expect(await scheduleErrorOf(() => decodeCursor(cursor, binding))).toEqual({
      ...invalidCursor,
      message: 'The cursor is not valid for this query.',
    });
  });
});

describe('queryBinding', () => {
  it('ignores key order of the filters', () => {
    expect(queryBinding({ status: ['confirmed'], sort: 'start_at_desc' })).toBe(binding);
  });

  it('differs for different filters', () => {
    expect(queryBinding({ sort: 'start_at_asc', status: ['confirmed'] })).not.toBe(binding);
  });

  it('is 16 hex characters', () => {
    expect(binding).toMatch(/^[0-9a-f]{16}$/);
  });
});
