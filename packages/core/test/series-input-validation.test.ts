import { describe, expect, it } from 'vitest';
import { createSeriesBodySchema, parseCreateSeriesBody } from '../src/series/series-input.js';
import { scheduleErrorOf } from './support/errors.js';
import { seriesBody } from './support/series-expect.js';

// The create body's rules as the schema itself states them, without a store:
// the bounds of starts_on, the two ways to name an event type, and what the
// exported schema (MCP derives its tool input from it) says of a body that
// is not an object at all.

const refusal = (changes: Record<string, unknown>) => scheduleErrorOf(() => parseCreateSeriesBody(seriesBody(changes)));
const invalid = (field: string, message: string) => ({
  code: 'validation_error',
  message,
  details: { fields: [field] },
  retryAfterSeconds: undefined,
});
const STARTS_ON_RANGE = 'starts_on: must be between 1900-01-01 and 9000-12-31';

describe('starts_on bounds', () => {
  it.each(['1900-01-01', '9000-12-31'])('accepts the bound %s itself', (startsOn) => {
    expect(parseCreateSeriesBody(seriesBody({ starts_on: startsOn })).starts_on).toBe(startsOn);
  });

  it.each(['1899-12-31', '9001-01-01'])('refuses %s, a day past a bound, with 400 validation_error', async (startsOn) => {
    expect(await refusal({ starts_on: startsOn })).toEqual(invalid('starts_on', STARTS_ON_RANGE));
  });
});

describe('naming the event type', () => {
  const UNNAMED = 'event_type_id: name the event type: event_type_id, or both username and event_slug';

  it('refuses an event_slug without a username, as a username without an event_slug', async () => {
    expect(await refusal({ event_type_id: undefined, event_slug: 'weekly' })).toEqual(invalid('event_type_id', UNNAMED));
  });

  it('accepts username and event_slug together in place of event_type_id', () => {
    const parsed = parseCreateSeriesBody(seriesBody({ event_type_id: undefined, username: 'hana', event_slug: 'weekly' }));
    expect(parsed).toMatchObject({ username: 'hana', event_slug: 'weekly' });
    expect(parsed.event_type_id).toBeUndefined();
  });
});

describe('the exported create schema', () => {
  it.each([null, 'a text', 5, true])('refuses %j with the one type issue at the root, asking nothing of its fields', (body) => {
    const result = createSeriesBodySchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => ({ code: i.code, path: i.path }))).toEqual([{ code: 'invalid_type', path: [] }]);
  });

  it.each([
    ['an event type', { event_type_id: undefined }, 'event_type_id', 'name the event type: event_type_id, or both username and event_slug'],
    ['a weekday for a weekly series', { weekdays: [] }, 'weekdays', 'a weekly series needs at least one weekday'],
  ])('words a missing %s as a custom issue at its field', (_, changes, field, message) => {
    const result = createSeriesBodySchema.safeParse(seriesBody(changes));
    expect(result.error?.issues.map((i) => ({ code: i.code, path: i.path, message: i.message }))).toEqual([
      { code: 'custom', path: [field], message },
    ]);
  });
});
