import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TimeOff } from '../src/time-off/time-off-view.js';
import { MAX_TIME_OFF_RANGES } from '../src/time-off/write-time-off.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';
import { callAs, openTimeOffScenario, resetTimeOffScenario, type TimeOffScenario, TO_USERS } from './support/time-off-calls.js';

// docs/api/time-off.md "Refusals": a person holds at most MAX_TIME_OFF_RANGES
// ranges, past ones included; the next create is `409 time_off_limit_reached`
// and adds nothing. The cap is a dependency, so most cases use a small one.

const T0 = '2026-12-01T09:00:00.000Z';
const ANN = TO_USERS.ann;
const range = (day: number) => ({
  start: `2027-01-${String(day).padStart(2, '0')}T10:00:00Z`,
  end: `2027-01-${String(day).padStart(2, '0')}T11:00:00Z`,
});

describe.each(storeFixtures())('the time off cap on $name', (fixture) => {
  let s: TimeOffScenario;

  beforeAll(async () => {
    s = await openTimeOffScenario(fixture, T0);
  });
  afterAll(() => fixture.cleanup());
  beforeEach(() => resetTimeOffScenario(s, T0));

  const create = (max: number | undefined, body: Record<string, unknown>, user = 'me', caller: 'ann' | 'ada' = 'ann') =>
    callAs({ ...s.deps, maxTimeOffRanges: max }, s.who[caller], 'create_time_off', { params: { user_id: user }, body });
  const refusal = (max: number | undefined, body: Record<string, unknown>) =>
    scheduleErrorOf(create(max, body)).then(({ message, ...seen }) => ({ message, ...seen }));
  const count = async (userId: string) =>
    (await s.store.db.selectFrom('time_off').select('id').where('user_id', '=', userId).execute()).length;

  it('takes ranges up to the cap, then answers 409 time_off_limit_reached with the cap and adds nothing', async () => {
    for (const day of [1, 2]) expect((await create(3, range(day))).outcome.status).toBe(201);
    // A past range counts as well: the cap bounds the rows a person holds.
    await create(3, { start: '2026-11-01T10:00:00Z', end: '2026-11-01T11:00:00Z' });
    expect(await refusal(3, range(4))).toEqual({
      code: 'time_off_limit_reached',
      message: 'A person may have at most 3 time off ranges; delete one first.',
      details: { max: 3 },
      retryAfterSeconds: undefined,
    });
    expect(await count(ANN)).toBe(3);
  });

  it('counts each person apart: a full Ann leaves an admin free to add for Ada', async () => {
    await create(1, range(1));
    expect((await refusal(1, range(2))).code).toBe('time_off_limit_reached');
    expect((await create(1, range(2), 'me', 'ada')).outcome.status).toBe(201);
    expect([await count(ANN), await count(TO_USERS.ada)]).toEqual([1, 1]);
  });

  it('takes a new range again once one is deleted', async () => {
    const first = (await create(1, range(1))).outcome.data as TimeOff;
    await callAs(s.deps, s.who.ann, 'delete_time_off', { params: { user_id: 'me', id: first.id } });
    expect((await create(1, range(2))).outcome.status).toBe(201);
  });

  it(`caps at ${MAX_TIME_OFF_RANGES} when no cap is given`, async () => {
    expect(MAX_TIME_OFF_RANGES).toBe(500);
    const rows = Array.from({ length: MAX_TIME_OFF_RANGES - 1 }, (_, i) => ({
      id: `d0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      user_id: ANN,
      start_at: '2026-10-01T10:00:00.000Z',
      end_at: '2026-10-01T11:00:00.000Z',
      reason: null,
      version: 1,
      created_at: T0,
      updated_at: T0,
    }));
    await s.store.db.insertInto('time_off').values(rows).execute();
    expect((await create(undefined, range(1))).outcome.status).toBe(201);
    expect(await refusal(undefined, range(2))).toMatchObject({ code: 'time_off_limit_reached', details: { max: 500 } });
  });
});
