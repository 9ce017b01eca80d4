import { type KyselyPlugin, sql, WhereNode } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeWorkingHours, loadWorkingHours } from '../src/availability/working-hours-store.js';
import { parseIfMatch } from '../src/conditional.js';
import type { Schedule } from '../src/event-types/schedule.js';
import { randomIds } from '../src/ids.js';
import type { Executor } from '../src/storage/store.js';
import type { TimeOff } from '../src/time-off/time-off-view.js';
import { updateTimeOff } from '../src/time-off/write-time-off.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';
import { callAs, openTimeOffScenario, resetTimeOffScenario, type TimeOffScenario, TO_USERS } from './support/time-off-calls.js';

// A versioned write (working hours, a time off range) that loses its race:
// the UPDATE matched no row because another writer bumped the version between
// the read and the write. Such races need two processes; here a plugin makes
// the first `lose` UPDATEs answer no row (the write itself still lands, as
// the other writer's would), so each retry and refusal can be seen.

const T0 = '2026-12-01T09:00:00.000Z';
const ANN = TO_USERS.ann;
const WEEK: Schedule = { weekly: { mon: [['10:00', '11:00']] }, overrides: [] };

/**
 * `db` whose first `lose` UPDATEs answer no rows; `updates` counts every
 * UPDATE. A lost write lands (as the other writer's would have) unless
 * `lands` is false: then it matches no row, as if the hours had moved on.
 */
function losing(db: Executor, lose: number, lands = true) {
  const updates = new WeakSet<object>();
  const seen = { updates: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      if (args.node.kind === 'UpdateQueryNode') {
        seen.updates++;
        if (seen.updates <= lose) {
          updates.add(args.queryId);
          if (!lands) return { ...args.node, where: WhereNode.create(sql`1 = 0`.toOperationNode()) };
        }
      }
      return args.node;
    },
    transformResult: async (args) => (updates.has(args.queryId) ? { ...args.result, rows: [] } : args.result),
  };
  return { db: db.withPlugin(plugin), seen };
}

describe.each(storeFixtures())('lost write races on $name', (fixture) => {
  let s: TimeOffScenario;

  beforeAll(async () => {
    s = await openTimeOffScenario(fixture, T0);
  });
  afterAll(() => fixture.cleanup());
  beforeEach(() => resetTimeOffScenario(s, T0));

  const deps = () => ({ clock: s.clock, ids: randomIds });
  const hoursRow = () =>
    s.store.db.selectFrom('users').select(['schedule_json', 'schedule_version']).where('id', '=', ANN).executeTakeFirstOrThrow();
  const kept = (current: Schedule): Schedule => ({ ...current, overrides: [{ date: '2027-01-04', intervals: [] }] });
  const timedOut = {
    code: 'slot_lock_timeout',
    message: 'The working hours kept changing meanwhile; nothing was written. Retry shortly.',
    details: {},
    retryAfterSeconds: 1,
  };

  describe('working hours', () => {
    it('without If-Match reads again and reapplies the change after losing once', async () => {
      const { version } = await hoursRow().then((r) => ({ version: r.schedule_version }));
      const { db, seen } = losing(s.store.db, 1);
      let applied = 0;
      const hours = await changeWorkingHours(db, deps(), s.who.ann, 'me', undefined, (current) => {
        applied++;
        return kept(current);
      });
      expect([hours.version, hours.overrides, applied, seen.updates]).toEqual([version + 2, [{ date: '2027-01-04', intervals: [] }], 2, 2]);
    });

    it('with If-Match answers 409 with the version the other writer left', async () => {
      const { schedule_version: version } = await hoursRow();
      const { db } = losing(s.store.db, 1);
      expect(await scheduleErrorOf(changeWorkingHours(db, deps(), s.who.ann, 'me', parseIfMatch(String(version)), kept))).toEqual({
        code: 'version_conflict',
        message: `The working hours are at version ${version + 1}.`,
        details: { current_version: version + 1 },
        retryAfterSeconds: undefined,
      });
    });

    it('gives up after five lost attempts with 503 slot_lock_timeout', async () => {
      const { db, seen } = losing(s.store.db, Number.POSITIVE_INFINITY);
      expect(await scheduleErrorOf(changeWorkingHours(db, deps(), s.who.ann, 'me', undefined, kept))).toEqual(timedOut);
      expect(seen.updates).toBe(5);
    });

    it('a workspace load gives up after five lost attempts too, and stops once the hours it writes are stored', async () => {
      const always = losing(s.store.db, Number.POSITIVE_INFINITY, false);
      expect(await scheduleErrorOf(loadWorkingHours(always.db, deps(), ANN, WEEK))).toEqual(timedOut);
      expect(always.seen.updates).toBe(5);
      // The lost write landed (another writer's would have): the next read finds these hours and writes no more.
      const once = losing(s.store.db, 1);
      await loadWorkingHours(once.db, deps(), ANN, { ...WEEK, overrides: [{ date: '2027-01-04', intervals: [] }] });
      expect(once.seen.updates).toBe(1);
    });

    it('a workspace load without hours stores none (SQL NULL), and loading that again writes nothing', async () => {
      await loadWorkingHours(s.store.db, deps(), ANN, null);
      const cleared = await hoursRow();
      expect(cleared.schedule_json).toBeNull();
      await loadWorkingHours(s.store.db, deps(), ANN, null);
      await loadWorkingHours(s.store.db, deps(), ANN, WEEK);
      await loadWorkingHours(s.store.db, deps(), ANN, WEEK);
      expect(await hoursRow()).toEqual({ schedule_json: JSON.stringify(WEEK), schedule_version: cleared.schedule_version + 1 });
    });
  });

  describe('time off', () => {
    it('a PATCH whose UPDATE loses answers 409 version_conflict with the version the other writer left', async () => {
      const created = await callAs(s.deps, s.who.ann, 'create_time_off', {
        params: { user_id: 'me' },
        body: { start: '2027-01-05T10:00:00Z', end: '2027-01-05T11:00:00Z' },
      });
      const range = created.outcome.data as TimeOff;
      const { db } = losing(s.store.db, 1);
      const owner = { id: ANN, zone: 'Europe/Berlin' };
      expect(await scheduleErrorOf(updateTimeOff(db, s.deps, owner, range.id, parseIfMatch('1'), { reason: 'Away' }))).toEqual({
        code: 'version_conflict',
        message: 'The time off is at version 2.',
        details: { current_version: 2 },
        retryAfterSeconds: undefined,
      });
    });
  });
});
