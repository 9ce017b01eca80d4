import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import type { WorkingHours } from '../src/availability/working-hours-view.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { ExecuteDeps, Executed } from '../src/operations/execute.js';
import { execute } from '../src/operations/execute.js';
import type { Operation, RawCall } from '../src/operations/operation.js';
import { operationsByName } from '../src/operations/registry.js';
import type { SlotList } from '../src/slots/slot-view.js';
import type { Store } from '../src/storage/store.js';
import { hostOf } from '../src/webhooks/delivery/subscribers.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { outboxOf } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// docs/api/availability.md "Working hours": the four operations through
// `execute`, as every front end calls them, on SQLite and PostgreSQL.

const T0 = '2026-03-02T06:00:00.000Z'; // a Monday
const USER = {
  mia: 'b0000000-0000-4000-8000-00000000000a',
  ursula: 'b0000000-0000-4000-8000-00000000000b',
  oscar: 'b0000000-0000-4000-8000-00000000000c',
  ada: 'b0000000-0000-4000-8000-00000000000d',
} as const;
const CONSULT = 'c0000000-0000-4000-8000-00000000000b';
const RW = ['availability:read', 'availability:write', 'slots:read'];
const TOKEN = {
  mia: 'pat_mia_hours_rw_xx',
  ursula: 'pat_ursula_hours_rw',
  ursulaRead: 'pat_ursula_hours_ro',
  oscar: 'pat_oscar_hours_rw_',
  ada: 'pat_ada_hours_rw_xx',
} as const;
type Caller = keyof typeof TOKEN;

/** Oscar's hours come from the file, written with a touching and an overlapping pair. */
const OSCAR_SCHEDULE = {
  timezone: 'Europe/Berlin',
  weekly: {
    tue: [
      ['13:00', '17:00'],
      ['09:00', '12:00'],
      ['12:00', '12:30'],
    ],
    mon: [['09:00', '17:00']],
  },
  overrides: [{ date: '2026-12-24', intervals: [] }],
};

function workspace(oscarSchedule: unknown = OSCAR_SCHEDULE) {
  return {
    organization: { name: 'Hours' },
    users: [
      { id: USER.mia, username: 'mia', email: 'mia@hours.test', name: 'Mia', role: 'manager', manages: ['ursula'] },
      { id: USER.ursula, username: 'ursula', email: 'ursula@hours.test', name: 'Ursula', role: 'user' },
      { id: USER.oscar, username: 'oscar', email: 'oscar@hours.test', name: 'Oscar', role: 'user', schedule: oscarSchedule },
      { id: USER.ada, username: 'ada', email: 'ada@hours.test', name: 'Ada', role: 'admin' },
    ],
    event_types: [{ id: CONSULT, owner: 'ursula', slug: 'consult', name: 'Consult', duration_minutes: 60 }],
    tokens: [
      { name: 'mia', user: 'mia', secret: TOKEN.mia, scopes: RW },
      { name: 'ursula', user: 'ursula', secret: TOKEN.ursula, scopes: RW },
      { name: 'ursula-ro', user: 'ursula', secret: TOKEN.ursulaRead, scopes: ['availability:read'] },
      { name: 'oscar', user: 'oscar', secret: TOKEN.oscar, scopes: RW },
      { name: 'ada', user: 'ada', secret: TOKEN.ada, scopes: RW },
    ],
  };
}

const AROUND = [['00:00', '24:00']];
const DEFAULT_WEEK = { mon: AROUND, tue: AROUND, wed: AROUND, thu: AROUND, fri: AROUND, sat: AROUND, sun: AROUND };
const NONE = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const WEEKDAY_HOURS = { mon: [['09:00', '17:00']], tue: [['09:00', '12:00']] };

const error = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  code,
  message,
  details,
  retryAfterSeconds: undefined,
});

describe.each(storeFixtures())('working hours on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  const who = {} as Record<Caller, Principal>;
  let counter = 0;

  const load = (oscarSchedule?: unknown) =>
    loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace(oscarSchedule))));

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await load();
    for (const name of Object.keys(TOKEN) as Caller[]) who[name] = await principalOf({ store, clock }, TOKEN[name]);
  });
  afterAll(() => fixture.cleanup());

  beforeEach(async () => {
    clock.set(T0);
    await store.db
      .updateTable('users')
      .set({ schedule_json: null, schedule_version: 0, schedule_updated_at: null })
      .where('id', 'in', [USER.ursula, USER.mia])
      .execute();
    await store.db.deleteFrom('outbox').execute();
  });

  const call = (caller: Caller, name: keyof typeof operationsByName, rest: Partial<RawCall> = {}): Promise<Executed> =>
    execute(
      deps,
      operationsByName[name] as Operation,
      who[caller],
      { params: {}, query: {}, body: undefined, ...rest },
      `req-${++counter}`,
    );
  const get = async (caller: Caller, user: string) => (await call(caller, 'get_availability', { params: { user_id: user } })).outcome;
  /** A replace; If-Match `*` unless given (null: none sent). */
  const put = (caller: Caller, user: string, body: unknown, ifMatch: string | null = '*', key?: string) =>
    call(caller, 'replace_availability', { params: { user_id: user }, body, ifMatch: ifMatch ?? undefined, idempotencyKey: key });
  const addOverride = (caller: Caller, user: string, body: unknown) =>
    call(caller, 'add_availability_override', { params: { user_id: user }, body });
  const removeOverride = (caller: Caller, user: string, date: string) =>
    call(caller, 'remove_availability_override', { params: { user_id: user, date } });
  const hoursRow = (id: string) =>
    store.db
      .selectFrom('users')
      .select(['schedule_json', 'schedule_version', 'schedule_updated_at', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const slotsOn = async (day: string) => {
    const query = { event_type_id: CONSULT, start: `${day}T00:00:00Z`, end: `${day}T23:59:59Z` };
    const { outcome } = await call('ursula', 'list_slots', { query });
    return (outcome.data as SlotList).slots.map((s) => s.start.slice(11, 16));
  };

  describe('GET /v1/people/:user_id/availability', () => {
    it('answers a person with no hours written the hours availability uses, around the clock, marked default at version 0', async () => {
      expect(await get('ursula', 'me')).toEqual({
        status: 200,
        version: 0,
        data: {
          user_id: USER.ursula,
          timezone: null,
          weekly: DEFAULT_WEEK,
          overrides: [],
          default: true,
          version: 0,
          updated_at: null,
        },
      });
    });

    it('answers hours the workspace file wrote in the stored form: each day sorted, touching and overlapping intervals merged', async () => {
      const { data, version } = await get('oscar', USER.oscar);
      expect({ data, version }).toEqual({
        version: 1,
        data: {
          user_id: USER.oscar,
          timezone: 'Europe/Berlin',
          weekly: {
            ...NONE,
            mon: [['09:00', '17:00']],
            tue: [
              ['09:00', '12:30'],
              ['13:00', '17:00'],
            ],
          },
          overrides: [{ date: '2026-12-24', intervals: [] }],
          default: false,
          version: 1,
          updated_at: T0,
        },
      });
    });

    it('names the person by id (any case), username or me', async () => {
      expect(((await get('ada', USER.oscar.toUpperCase())).data as WorkingHours).user_id).toBe(USER.oscar);
      expect(((await get('ada', 'oscar')).data as WorkingHours).user_id).toBe(USER.oscar);
      expect(((await get('ada', 'me')).data as WorkingHours).user_id).toBe(USER.ada);
    });

    it('refuses a person the caller may not act for exactly as an unknown one: 403 host_not_allowed naming user_id', async () => {
      const refused = error('host_not_allowed', 'user_id is not someone this caller may act for.', { fields: ['user_id'] });
      expect(await scheduleErrorOf(get('ursula', USER.oscar))).toEqual(refused);
      expect(await scheduleErrorOf(get('ursula', 'oscar'))).toEqual(refused);
      expect(await scheduleErrorOf(get('ursula', 'b0000000-0000-4000-8000-0000000000ff'))).toEqual(refused);
      expect(await scheduleErrorOf(get('mia', USER.oscar))).toEqual(refused);
    });
  });

  describe('PUT /v1/people/:user_id/availability', () => {
    it('replaces the whole document when If-Match names the version read (0 for none written), and answers it at the next version', async () => {
      clock.set('2026-03-02T07:00:00.000Z');
      const { outcome } = await put('ursula', 'me', { timezone: 'America/New_York', weekly: WEEKDAY_HOURS }, '"0"');
      const expected = {
        user_id: USER.ursula,
        timezone: 'America/New_York',
        weekly: { ...NONE, ...WEEKDAY_HOURS },
        overrides: [],
        default: false,
        version: 1,
        updated_at: '2026-03-02T07:00:00.000Z',
      };
      expect(outcome).toEqual({ status: 200, version: 1, data: expected });
      expect((await get('ursula', 'me')).data).toEqual(expected);
      const row = await hoursRow(USER.ursula);
      expect(row.schedule_version).toBe(1);
      expect(JSON.parse(row.schedule_json!)).toEqual({ timezone: 'America/New_York', weekly: WEEKDAY_HOURS, overrides: [] });
      // The person's own row is not changed by their hours: its updated_at stays the load's.
      expect(row.updated_at).toBe(T0);
    });

    it('answers 409 version_conflict with the current version to a stale If-Match, and changes nothing', async () => {
      await put('ursula', 'me', { weekly: WEEKDAY_HOURS }, '0');
      expect(await scheduleErrorOf(put('ursula', 'me', { weekly: {} }, '0'))).toEqual(
        error('version_conflict', 'The working hours are at version 1.', { current_version: 1 }),
      );
      expect(await scheduleErrorOf(put('ursula', 'me', { weekly: {} }, 'soon'))).toEqual(
        error('version_conflict', 'The working hours are at version 1.', { current_version: 1 }),
      );
      expect((await hoursRow(USER.ursula)).schedule_version).toBe(1);
    });

    it('refuses a replace without If-Match with 428 missing_if_match', async () => {
      expect(await scheduleErrorOf(put('ursula', 'me', { weekly: WEEKDAY_HOURS }, null))).toEqual(
        error('missing_if_match', 'This operation requires an If-Match with the current version.'),
      );
      expect((await hoursRow(USER.ursula)).schedule_version).toBe(0);
    });

    it('replays the first answer for the same Idempotency-Key, writing once', async () => {
      const first = await put('ursula', 'me', { weekly: WEEKDAY_HOURS }, '0', 'hours-once');
      const again = await put('ursula', 'me', { weekly: WEEKDAY_HOURS }, '0', 'hours-once');
      expect(again).toEqual({ ...first, replayed: true });
      expect((await hoursRow(USER.ursula)).schedule_version).toBe(1);
    });

    it('lets a manager replace the hours of someone managed and an admin anyone; a user may not replace another’s', async () => {
      expect((await put('mia', USER.ursula, { weekly: WEEKDAY_HOURS })).outcome.version).toBe(1);
      expect((await put('ada', 'ursula', { weekly: {} })).outcome.version).toBe(2);
      expect(await scheduleErrorOf(put('oscar', USER.ursula, { weekly: {} }))).toEqual(
        error('host_not_allowed', 'user_id is not someone this caller may act for.', { fields: ['user_id'] }),
      );
      expect(await scheduleErrorOf(put('mia', USER.oscar, { weekly: {} }))).toEqual(
        error('host_not_allowed', 'user_id is not someone this caller may act for.', { fields: ['user_id'] }),
      );
      expect((await hoursRow(USER.ursula)).schedule_version).toBe(2);
    });

    it('needs availability:write; availability:read only reads', async () => {
      expect((await get('ursulaRead', 'me')).status).toBe(200);
      expect(await scheduleErrorOf(put('ursulaRead', 'me', { weekly: {} }))).toEqual(
        error('insufficient_scope', 'This token lacks the scope availability:write.', { required_scope: 'availability:write' }),
      );
    });

    it('stores each day sorted with overlapping and touching intervals merged, and answers that form', async () => {
      const weekly = {
        wed: [
          ['14:00', '18:00'],
          ['08:00', '10:00'],
          ['09:30', '12:00'],
          ['12:00', '13:00'],
          ['15:00', '16:00'],
        ],
      };
      const { data } = (await put('ursula', 'me', { weekly })).outcome;
      expect((data as WorkingHours).weekly.wed).toEqual([
        ['08:00', '13:00'],
        ['14:00', '18:00'],
      ]);
    });

    it.each([
      ['a zone that is not IANA', { timezone: 'Mars/Base', weekly: {} }, 'timezone: must be an IANA time zone name', ['timezone']],
      ['no weekly', { overrides: [] }, 'weekly: is required', ['weekly']],
      [
        'a time that is not HH:MM',
        { weekly: { mon: [['9:00', '17:00']] } },
        'weekly.mon.0.0: must be HH:MM (24:00 allowed as an end)',
        ['weekly.mon.0.0'],
      ],
      [
        'a time past 24:00',
        { weekly: { fri: [['09:00', '24:30']] } },
        'weekly.fri.0.1: must be HH:MM (24:00 allowed as an end)',
        ['weekly.fri.0.1'],
      ],
      [
        'an interval that ends before it starts',
        {
          weekly: {
            mon: [
              ['09:00', '12:00'],
              ['17:00', '13:00'],
            ],
          },
        },
        'weekly.mon.1: an interval must end after it starts',
        ['weekly.mon.1'],
      ],
      [
        'an interval of no length',
        { weekly: { mon: [['09:00', '09:00']] } },
        'weekly.mon.0: an interval must end after it starts',
        ['weekly.mon.0'],
      ],
      [
        'more than 12 intervals a day',
        { weekly: { tue: Array.from({ length: 13 }, (_, i) => [`${String(i).padStart(2, '0')}:00`, `${String(i).padStart(2, '0')}:30`]) } },
        'weekly.tue: must have at most 12 items',
        ['weekly.tue'],
      ],
      [
        'a date that does not exist',
        {
          weekly: {},
          overrides: [
            { date: '2026-03-01', intervals: [] },
            { date: '2026-02-30', intervals: [] },
          ],
        },
        'overrides.1.date: must be a date that exists',
        ['overrides.1.date'],
      ],
      [
        'a date overridden twice',
        {
          weekly: {},
          overrides: [
            { date: '2026-03-05', intervals: [] },
            { date: '2026-03-05', intervals: [['09:00', '10:00']] },
          ],
        },
        'overrides.1.date: names a date already overridden',
        ['overrides.1.date'],
      ],
      [
        'more than 500 overrides',
        {
          weekly: {},
          overrides: Array.from({ length: 501 }, (_, i) => ({
            date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10),
            intervals: [],
          })),
        },
        'overrides: must have at most 500 items',
        ['overrides'],
      ],
    ])('refuses %s with 400 validation_error naming the field', async (_, body, message, fields) => {
      expect(await scheduleErrorOf(put('ursula', 'me', body))).toEqual(error('validation_error', message, { fields }));
      expect((await hoursRow(USER.ursula)).schedule_version).toBe(0);
    });

    it('takes 200 overrides (issue 32’s benchmark host)', async () => {
      const overrides = Array.from({ length: 200 }, (_, i) => ({
        date: new Date(Date.UTC(2026, 3, 1 + i)).toISOString().slice(0, 10),
        intervals: [['10:00', '11:00']],
      }));
      const { data } = (await put('ursula', 'me', { weekly: {}, overrides })).outcome;
      expect((data as WorkingHours).overrides).toHaveLength(200);
    });

    it('changes the slots at once: the next GET /v1/slots reads the hours just written', async () => {
      expect(await slotsOn('2026-03-03')).toHaveLength(24);
      await put('ursula', 'me', { weekly: { tue: [['09:00', '12:00']] } });
      expect(await slotsOn('2026-03-03')).toEqual(['09:00', '10:00', '11:00']);
      await put('ursula', 'me', { timezone: 'Europe/Berlin', weekly: { tue: [['09:00', '12:00']] } });
      expect(await slotsOn('2026-03-03')).toEqual(['08:00', '09:00', '10:00']);
    });

    it('records availability.updated with the document in the outbox, and nothing for a refused write', async () => {
      const { outcome } = await put('ursula', 'me', { weekly: WEEKDAY_HOURS }, '0');
      await scheduleErrorOf(put('ursula', 'me', { weekly: {} }, '0'));
      expect(await outboxOf(store)).toEqual([
        { event_type: 'availability.updated', subject_uid: USER.ursula, created_at: T0, dispatched_at: null, payload: outcome.data },
      ]);
    });
  });

  it('routes availability.updated to webhooks by its person, as a booking by its host', async () => {
    const { outcome } = await put('mia', USER.ursula, { weekly: WEEKDAY_HOURS });
    expect(hostOf(outcome.data)).toBe(USER.ursula);
  });

  describe('date overrides', () => {
    it('adds an override (a day off removes that day’s slots), replaces one on the same date, and removes it again', async () => {
      await put('ursula', 'me', { weekly: { tue: [['09:00', '12:00']], wed: [['09:00', '12:00']] } });
      const off = await addOverride('ursula', 'me', { date: '2026-03-03', intervals: [] });
      expect(off.outcome).toMatchObject({ status: 200, version: 2, data: { overrides: [{ date: '2026-03-03', intervals: [] }] } });
      expect(await slotsOn('2026-03-03')).toEqual([]);
      expect(await slotsOn('2026-03-04')).toEqual(['09:00', '10:00', '11:00']);

      await addOverride('ursula', 'me', { date: '2026-03-10', intervals: [] });
      const moved = await addOverride('ursula', 'me', { date: '2026-03-03', intervals: [['14:00', '16:00']] });
      expect((moved.outcome.data as WorkingHours).overrides).toEqual([
        { date: '2026-03-03', intervals: [['14:00', '16:00']] },
        { date: '2026-03-10', intervals: [] },
      ]);
      expect(await slotsOn('2026-03-03')).toEqual(['14:00', '15:00']);

      const removed = await removeOverride('ursula', 'me', '2026-03-03');
      expect(removed.outcome).toMatchObject({ version: 5, data: { overrides: [{ date: '2026-03-10', intervals: [] }] } });
      expect(await slotsOn('2026-03-03')).toEqual(['09:00', '10:00', '11:00']);
      const events = (await outboxOf(store)).map((e) => [e.event_type, e.payload.version]);
      expect(events.sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
        ['availability.updated', 1],
        ['availability.updated', 2],
        ['availability.updated', 3],
        ['availability.updated', 4],
        ['availability.updated', 5],
      ]);
    });

    it('adds an override to default hours by writing them out: the week stays around the clock', async () => {
      const { data } = (await addOverride('ursula', 'me', { date: '2026-03-03', intervals: [] })).outcome as { data: WorkingHours };
      expect(data).toMatchObject({ default: false, version: 1, weekly: DEFAULT_WEEK, overrides: [{ date: '2026-03-03', intervals: [] }] });
      expect(await slotsOn('2026-03-03')).toEqual([]);
      expect(await slotsOn('2026-03-04')).toHaveLength(24);
    });

    it('answers 404 not_found for a date without an override, and 400 naming date for one that is not a date', async () => {
      expect(await scheduleErrorOf(removeOverride('ursula', 'me', '2026-03-03'))).toEqual(
        error('not_found', 'No override on 2026-03-03.', { date: '2026-03-03' }),
      );
      expect(await scheduleErrorOf(removeOverride('ursula', 'me', '2026-02-30'))).toEqual(
        error('validation_error', 'date: must be a date that exists', { fields: ['date'] }),
      );
      expect(await scheduleErrorOf(addOverride('ursula', 'me', { date: 'friday', intervals: [] }))).toEqual(
        // The shared date rule (validation/fields.ts) says both checks of a word that is no date.
        error('validation_error', 'date: must be a date YYYY-MM-DD; date: must be a date that exists', { fields: ['date'] }),
      );
      expect((await hoursRow(USER.ursula)).schedule_version).toBe(0);
    });

    it('stores overrides in date order, however they were added, so a reload of the same hours compares equal', async () => {
      for (const date of ['2026-03-10', '2026-03-03', '2026-03-20', '2026-03-05'])
        await addOverride('ursula', 'me', { date, intervals: [] });
      const stored = JSON.parse((await hoursRow(USER.ursula)).schedule_json ?? 'null') as { overrides: { date: string }[] };
      expect(stored.overrides.map((o) => o.date)).toEqual(['2026-03-03', '2026-03-05', '2026-03-10', '2026-03-20']);
    });

    it('answers 404 not_found for a date without an override while other dates have one, and keeps them', async () => {
      await addOverride('ursula', 'me', { date: '2026-03-10', intervals: [] });
      expect(await scheduleErrorOf(removeOverride('ursula', 'me', '2026-03-03'))).toEqual(
        error('not_found', 'No override on 2026-03-03.', { date: '2026-03-03' }),
      );
      expect(((await get('ursula', 'me')).data as WorkingHours).overrides).toEqual([{ date: '2026-03-10', intervals: [] }]);
    });

    it('lands two overrides added at once without If-Match, each at its own version', async () => {
      const both = await Promise.all([
        addOverride('ursula', 'me', { date: '2026-03-03', intervals: [] }),
        addOverride('mia', USER.ursula, { date: '2026-03-04', intervals: [] }),
      ]);
      expect(both.map((b) => b.outcome.version).sort()).toEqual([1, 2]);
      expect(((await get('ursula', 'me')).data as WorkingHours).overrides.map((o) => o.date)).toEqual(['2026-03-03', '2026-03-04']);
    });

    it('honours If-Match when sent', async () => {
      const stale = call('ursula', 'add_availability_override', {
        params: { user_id: 'me' },
        body: { date: '2026-03-03', intervals: [] },
        ifMatch: '4',
      });
      expect(await scheduleErrorOf(stale)).toEqual(
        error('version_conflict', 'The working hours are at version 0.', { current_version: 0 }),
      );
    });

    it('refuses a user changing another’s overrides', async () => {
      expect(await scheduleErrorOf(addOverride('ursula', USER.mia, { date: '2026-03-03', intervals: [] }))).toEqual(
        error('host_not_allowed', 'user_id is not someone this caller may act for.', { fields: ['user_id'] }),
      );
    });
  });

  describe('the workspace file', () => {
    it('writes hours through the same versioned write: a reload of the same file changes nothing, a changed one the next version, with no event', async () => {
      await load();
      expect((await hoursRow(USER.oscar)).schedule_version).toBe(1);
      clock.set('2026-03-02T08:00:00.000Z');
      await load({ weekly: { mon: [['10:00', '11:00']] } });
      const { data } = await get('oscar', 'me');
      expect(data).toMatchObject({
        version: 2,
        timezone: null,
        weekly: { mon: [['10:00', '11:00']] },
        overrides: [],
        updated_at: '2026-03-02T08:00:00.000Z',
      });
      await load();
      expect(await outboxOf(store)).toEqual([]);
    });

    it('refuses a file whose schedule breaks the same rules, naming the user', () => {
      expect(() => parseWorkspace(JSON.stringify(workspace({ weekly: {}, overrides: [{ date: '2026-02-30', intervals: [] }] })))).toThrow(
        /users\[2\]\.schedule\.overrides\[0\]\.date/,
      );
    });
  });
});
