import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { EventType } from '../src/event-types/event-type-view.js';
import { randomIds } from '../src/ids.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';
import { callWebhooks } from './support/webhook-calls.js';

// docs/api/teams.md: round-robin event types through the operations, on
// SQLite and PostgreSQL: the pool as set and shown, every refusal with the
// field it names, asking for a host, and what holds, series, reschedules and
// limits do with a team type.

const T0 = '2026-05-04T08:00:00.000Z'; // a Monday
const U = (n: number) => `e5000000-0000-4000-8000-00000000000${n}`;
const ID = { boss: U(1), ana: U(2), ben: U(3), cid: U(4), ula: U(5), mgr: U(6) };
const TEAM = 'e5100000-0000-4000-8000-000000000001';
const TOKENS = { boss: 'pat_teams_boss_all', ula: 'pat_teams_ula_all', mgr: 'pat_teams_mgr_all' };
type Caller = keyof typeof TOKENS;
const ALL = [
  'event_types:write',
  'bookings:create',
  'bookings:read',
  'bookings:reschedule',
  'bookings:update',
  'bookings:cancel',
  'series:write',
  'slots:read',
];
const HOURS = { timezone: 'UTC', weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])) };
const user = (name: keyof typeof ID, extra: Record<string, unknown> = {}) => ({
  id: ID[name],
  username: name,
  email: `${name}@teams.test`,
  timezone: 'UTC',
  schedule: HOURS,
  ...extra,
});

const WORKSPACE = {
  organization: { name: 'Teams' },
  users: [
    user('boss', { role: 'owner' }),
    user('ana'),
    user('ben'),
    user('cid'),
    user('ula'),
    user('mgr', { role: 'manager', manages: ['ana'] }),
  ],
  event_types: [
    {
      id: TEAM,
      owner: 'boss',
      slug: 'team',
      name: 'Team call',
      duration_minutes: 30,
      minimum_notice_minutes: 0,
      scheduling: 'round_robin',
      hosts: [{ username: 'ana' }, { username: 'ben' }],
    },
  ],
  tokens: Object.entries(TOKENS).map(([name, secret]) => ({ name, user: name, secret, scopes: ALL })),
};

const refusal = (code: string, fields: string[]) => expect.objectContaining({ code, details: { fields } });

describe.each(storeFixtures())('round-robin event types on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  const who = {} as Record<Caller, Principal>;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(WORKSPACE)));
    for (const name of Object.keys(TOKENS) as Caller[]) who[name] = await principalOf({ store, clock }, TOKENS[name]);
  });
  afterAll(() => fixture.cleanup());
  beforeEach(async () => {
    clock.set(T0);
    await store.db.deleteFrom('bookings').execute();
    await store.db.deleteFrom('notifications').execute();
    await store.db.deleteFrom('outbox').execute();
    await store.db.deleteFrom('event_types').where('id', '!=', TEAM).execute();
    await store.db.updateTable('users').set({ deactivated_at: null }).execute();
  });

  const call = (caller: Caller, name: Parameters<typeof callWebhooks>[2], rest: Parameters<typeof callWebhooks>[3] = {}) =>
    callWebhooks(deps, who[caller], name, rest);
  const typeBody = (changes: Record<string, unknown> = {}) => ({
    slug: 'rr',
    name: 'RR',
    duration_minutes: 30,
    minimum_notice_minutes: 0,
    scheduling: 'round_robin',
    hosts: [{ username: 'ana' }, { user_id: ID.ben, weight: 3, priority: 2 }],
    ...changes,
  });
  const book = (start: string, changes: Record<string, unknown> = {}, caller: Caller = 'boss') =>
    call(caller, 'create_booking', { body: { event_type_id: TEAM, start, attendee: { email: 'pat@example.com' }, ...changes } });
  const hostOf = async (start: string, changes: Record<string, unknown> = {}) =>
    ((await book(start, changes)).outcome.data as { host: { username: string } }).host.username;

  describe('the pool as set and shown', () => {
    it('names hosts by username or user id, stores them by id with weight and priority (defaults 1 and 0)', async () => {
      const { outcome } = await call('boss', 'create_event_type', { body: typeBody() });
      expect(outcome.status).toBe(201);
      expect(outcome.data).toMatchObject({
        scheduling: 'round_robin',
        hosts: [
          { user_id: ID.ana, weight: 1, priority: 0 },
          { user_id: ID.ben, weight: 3, priority: 2 },
        ],
      });
    });

    it('a PATCH without hosts keeps the pool; one with hosts replaces it', async () => {
      const created = (await call('boss', 'create_event_type', { body: typeBody() })).outcome.data as EventType;
      const renamed = (await call('boss', 'update_event_type', { params: { id: created.id }, body: { name: 'Renamed' }, ifMatch: '*' }))
        .outcome.data as EventType;
      expect(renamed.hosts).toEqual(created.hosts);
      const replaced = (
        await call('boss', 'update_event_type', {
          params: { id: created.id },
          body: { hosts: [{ username: 'cid', weight: 2 }] },
          ifMatch: '*',
        })
      ).outcome.data as EventType;
      expect(replaced.hosts).toEqual([{ user_id: ID.cid, weight: 2, priority: 0 }]);
    });

    it.each([
      ['an unknown username', { hosts: [{ username: 'nobody' }] }, 'host_not_allowed', ['hosts.0']],
      ['a deactivated host', { hosts: [{ username: 'ana' }, { username: 'cid' }] }, 'host_not_allowed', ['hosts.1']],
      ['a weight of 0', { hosts: [{ username: 'ana', weight: 0 }] }, 'validation_error', ['hosts.0.weight']],
      ['a weight of 1.5', { hosts: [{ username: 'ana', weight: 1.5 }] }, 'validation_error', ['hosts.0.weight']],
      ['a host named twice', { hosts: [{ username: 'ana' }, { user_id: ID.ana }] }, 'validation_error', ['hosts.1']],
      ['both user_id and username', { hosts: [{ username: 'ana', user_id: ID.ana }] }, 'validation_error', ['hosts.0.user_id']],
      ['round_robin without hosts', { hosts: [] }, 'validation_error', ['hosts']],
      ['a single host’s type with hosts', { scheduling: 'single' }, 'validation_error', ['hosts']],
      ['seats on a team type', { seats: 3 }, 'validation_error', ['seats']],
      ['a kind not offered', { scheduling: 'collective' }, 'validation_error', ['scheduling']],
      ['501 hosts', { hosts: Array.from({ length: 501 }, () => ({ username: 'ana' })) }, 'validation_error', ['hosts']],
    ])('%s is refused naming the field', async (_, changes, code, fields) => {
      if (code === 'host_not_allowed' && JSON.stringify(changes).includes('cid')) {
        await store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', '=', ID.cid).execute();
      }
      expect(await scheduleErrorOf(call('boss', 'create_event_type', { body: typeBody(changes) }))).toEqual(refusal(code, fields));
    });

    it('a caller names only hosts it may act for: a user none but themself, a manager their people', async () => {
      expect(
        await scheduleErrorOf(call('ula', 'create_event_type', { body: typeBody({ hosts: [{ username: 'ula' }, { username: 'ana' }] }) })),
      ).toEqual(refusal('host_not_allowed', ['hosts.1']));
      expect((await call('mgr', 'create_event_type', { body: typeBody({ hosts: [{ username: 'ana' }] }) })).outcome.status).toBe(201);
      expect(await scheduleErrorOf(call('mgr', 'create_event_type', { body: typeBody({ hosts: [{ username: 'ben' }] }) }))).toEqual(
        refusal('host_not_allowed', ['hosts.0']),
      );
    });
  });

  describe('booking a team type', () => {
    it('goes to the free host by the rule, and to the next when that one is busy', async () => {
      // Equal weights, no bookings: the lower user id (ana) first; then ben, whose share is lower.
      expect(await hostOf('2026-05-04T10:00:00Z')).toBe('ana');
      expect(await hostOf('2026-05-04T11:00:00Z')).toBe('ben');
      // ana is busy at 10:00: the next free host takes it whatever the rule would prefer.
      expect(await hostOf('2026-05-04T10:00:00Z')).toBe('ben');
      expect(await scheduleErrorOf(book('2026-05-04T10:00:00Z'))).toEqual(
        expect.objectContaining({ code: 'slot_unavailable', details: { reason: 'slot_busy' } }),
      );
    });

    it('host_user_id books that host of the pool; anyone else is refused naming the field', async () => {
      expect(await hostOf('2026-05-04T10:00:00Z', { host_user_id: ID.ben })).toBe('ben');
      expect(await scheduleErrorOf(book('2026-05-04T10:00:00Z', { host_user_id: ID.ben }))).toEqual(
        expect.objectContaining({ code: 'slot_unavailable' }),
      );
      expect(await scheduleErrorOf(book('2026-05-04T11:00:00Z', { host_user_id: ID.cid }))).toEqual(
        refusal('host_not_allowed', ['host_user_id']),
      );
      // A manager of ana may ask for ana, not for ben.
      await store.db.updateTable('event_types').set({ owner_user_id: ID.ana }).where('id', '=', TEAM).execute();
      try {
        expect(await scheduleErrorOf(book('2026-05-04T11:00:00Z', { host_user_id: ID.ben }, 'mgr'))).toEqual(
          refusal('host_not_allowed', ['host_user_id']),
        );
        expect(
          ((await book('2026-05-04T11:00:00Z', { host_user_id: ID.ana }, 'mgr')).outcome.data as { host: { username: string } }).host
            .username,
        ).toBe('ana');
      } finally {
        await store.db.updateTable('event_types').set({ owner_user_id: ID.boss }).where('id', '=', TEAM).execute();
      }
    });

    it('a deactivated host is left out of slots and creates', async () => {
      await store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', '=', ID.ana).execute();
      expect(await hostOf('2026-05-04T10:00:00Z')).toBe('ben');
      const { outcome } = await call('boss', 'check_slot', { query: { event_type_id: TEAM, start: '2026-05-04T10:00:00Z' } });
      expect(outcome.data).toMatchObject({ available: false, reason: 'slot_busy' });
    });

    it('slots list a start while one host is free; check names the next free start', async () => {
      await book('2026-05-04T10:00:00Z');
      const window = { event_type_id: TEAM, start: '2026-05-04T10:00:00Z', end: '2026-05-04T11:00:00Z' };
      const listed = ((await call('boss', 'list_slots', { query: window })).outcome.data as { slots: { start: string }[] }).slots;
      expect(listed.map((s) => s.start)).toEqual(['2026-05-04T10:00:00.000Z', '2026-05-04T10:30:00.000Z']);
      await book('2026-05-04T10:00:00Z');
      const check = (await call('boss', 'check_slot', { query: { event_type_id: TEAM, start: '2026-05-04T10:00:00Z' } })).outcome.data;
      expect(check).toEqual({ available: false, reason: 'slot_busy', next_available: '2026-05-04T10:30:00.000Z' });
    });

    it('a daily limit counts each host’s own bookings of the type', async () => {
      await store.db.updateTable('event_types').set({ max_bookings_per_day: 1 }).where('id', '=', TEAM).execute();
      try {
        expect(await hostOf('2026-05-04T10:00:00Z')).toBe('ana');
        expect(await hostOf('2026-05-04T13:00:00Z')).toBe('ben');
        expect(await scheduleErrorOf(book('2026-05-04T15:00:00Z'))).toEqual(expect.objectContaining({ code: 'slot_unavailable' }));
        expect(await hostOf('2026-05-05T10:00:00Z')).toBe('ana');
      } finally {
        await store.db.updateTable('event_types').set({ max_bookings_per_day: null }).where('id', '=', TEAM).execute();
      }
    });

    it('a reschedule keeps the booking’s host while they are free, else hands it to the next free host, else is refused', async () => {
      const booked = (await book('2026-05-04T10:00:00Z')).outcome.data as { uid: string; host: { username: string } };
      expect(booked.host.username).toBe('ana');
      const move = (start: string) => call('boss', 'reschedule_booking', { params: { uid: booked.uid }, body: { start, reason: 'Clash' } });
      const hostAfter = async (start: string) => ((await move(start)).outcome.data as { host: { username: string } }).host.username;
      expect(await hostAfter('2026-05-04T11:00:00Z')).toBe('ana');
      // ana is busy at 12:00: ben takes it over with the move; ana is told it is canceled for her, at the time she had it.
      await book('2026-05-04T12:00:00Z', { host_user_id: ID.ana });
      await store.db.deleteFrom('notifications').execute();
      await store.db.deleteFrom('outbox').execute();
      expect(await hostAfter('2026-05-04T12:00:00Z')).toBe('ben');
      const mail = await store.db.selectFrom('notifications').select(['kind', 'recipient', 'payload_json']).orderBy('recipient').execute();
      expect(mail.map((m) => [m.kind, m.recipient, JSON.parse(m.payload_json).start_at])).toEqual([
        ['booking_canceled', 'ana@teams.test', '2026-05-04T11:00:00.000Z'],
        ['booking_rescheduled', 'ben@teams.test', '2026-05-04T12:00:00.000Z'],
        ['booking_rescheduled', 'pat@example.com', '2026-05-04T12:00:00.000Z'],
      ]);
      const [event] = await store.db.selectFrom('outbox').select(['event_type', 'payload_json']).execute();
      expect(event!.event_type).toBe('booking.rescheduled');
      expect(JSON.parse(event!.payload_json)).toMatchObject({
        host: { username: 'ben' },
        previous_host: { username: 'ana' },
        previous_start_at: '2026-05-04T11:00:00.000Z',
        reason: 'Clash',
      });
      // Both busy at 13:00: refused, and the booking stays with ben at 12:00.
      await book('2026-05-04T13:00:00Z', { host_user_id: ID.ana });
      await book('2026-05-04T13:00:00Z', { host_user_id: ID.ben });
      expect(await scheduleErrorOf(move('2026-05-04T13:00:00Z'))).toEqual(expect.objectContaining({ code: 'slot_unavailable' }));
      expect((await call('boss', 'get_booking', { params: { uid: booked.uid } })).outcome.data).toMatchObject({
        start_at: '2026-05-04T12:00:00.000Z',
        host: { username: 'ben' },
      });
    });

    it('reassign hands a booking to the other free host, keeps its uid and time, and tells both hosts', async () => {
      const booked = (await book('2026-05-04T10:00:00Z')).outcome.data as { uid: string; version: number; host: { username: string } };
      expect(booked.host.username).toBe('ana');
      await store.db.deleteFrom('notifications').execute();
      await store.db.deleteFrom('outbox').execute();
      const { outcome } = await call('boss', 'reassign_booking', { params: { uid: booked.uid }, body: { reason: 'Ana is out' } });
      expect(outcome.status).toBe(200);
      expect(outcome.data).toMatchObject({
        uid: booked.uid,
        start_at: '2026-05-04T10:00:00.000Z',
        version: booked.version + 1,
        host: { user_id: ID.ben, username: 'ben' },
        title: 'Team call between ben and pat@example.com',
      });
      const mail = await store.db.selectFrom('notifications').select(['kind', 'recipient']).orderBy('recipient').execute();
      expect(mail).toEqual([
        { kind: 'booking_canceled', recipient: 'ana@teams.test' },
        { kind: 'booking_changed', recipient: 'ben@teams.test' },
        { kind: 'booking_changed', recipient: 'pat@example.com' },
      ]);
      const events = await store.db.selectFrom('outbox').select(['event_type', 'payload_json']).execute();
      expect(events.map((e) => e.event_type)).toEqual(['booking.host_changed']);
      expect(JSON.parse(events[0]!.payload_json)).toMatchObject({ previous_host: { user_id: ID.ana }, reason: 'Ana is out' });
      // ana is free again at 10:00; ben is not.
      expect(await hostOf('2026-05-04T10:00:00Z')).toBe('ana');
    });

    it('reassign refuses what it cannot do, each with its code', async () => {
      const booked = (await book('2026-05-04T10:00:00Z')).outcome.data as { uid: string };
      const reassign = (body: Record<string, unknown> = {}, caller: Caller = 'boss') =>
        scheduleErrorOf(call(caller, 'reassign_booking', { params: { uid: booked.uid }, body }));
      // The only other host is busy then.
      await book('2026-05-04T10:00:00Z', { host_user_id: ID.ben });
      expect(await reassign()).toEqual(expect.objectContaining({ code: 'slot_unavailable', details: { reason: 'slot_busy' } }));
      // Named: outside the pool, or its own host.
      expect(await reassign({ host_user_id: ID.cid })).toEqual(refusal('host_not_allowed', ['host_user_id']));
      expect(await reassign({ host_user_id: ID.ana })).toEqual(refusal('host_not_allowed', ['host_user_id']));
      // A user who may not act for its host does not see it.
      expect(await reassign({}, 'ula')).toEqual(expect.objectContaining({ code: 'booking_not_found' }));
      // A single host's booking.
      const solo = (
        await call('ula', 'create_event_type', { body: { slug: 'solo', name: 'Solo', duration_minutes: 30, minimum_notice_minutes: 0 } })
      ).outcome.data as { id: string };
      const own = (
        await call('ula', 'create_booking', {
          body: { event_type_id: solo.id, start: '2026-05-04T10:00:00Z', attendee: { email: 'p@example.com' } },
        })
      ).outcome.data as { uid: string };
      expect(await scheduleErrorOf(call('ula', 'reassign_booking', { params: { uid: own.uid }, body: {} }))).toEqual(
        expect.objectContaining({ code: 'invalid_change' }),
      );
      // Started, or canceled.
      clock.set('2026-05-04T10:00:00.000Z');
      expect(await reassign()).toEqual(expect.objectContaining({ code: 'booking_in_past' }));
      clock.set(T0);
      await call('boss', 'cancel_booking', { params: { uid: booked.uid }, body: {} });
      expect(await reassign()).toEqual(expect.objectContaining({ code: 'booking_already_cancelled' }));
    });

    it('takes no holds yet', async () => {
      expect(await scheduleErrorOf(call('boss', 'create_hold', { body: { event_type_id: TEAM, start: '2026-05-04T10:00:00Z' } }))).toEqual(
        expect.objectContaining({ code: 'forbidden', details: { reason: 'round_robin' } }),
      );
    });

    it('a series keeps the one host of the pool it names for every date, skipping the dates that host is busy', async () => {
      await book('2026-05-18T10:00:00Z', { host_user_id: ID.ana });
      const seriesBody = (host: Record<string, unknown>) => ({
        event_type_id: TEAM,
        ...host,
        attendee: { email: 'pat@example.com' },
        frequency: 'weekly',
        weekdays: ['mon'],
        time: '10:00',
        timezone: 'UTC',
        starts_on: '2026-05-11',
        count: 3,
      });
      const created = (
        (await call('boss', 'create_series', { body: seriesBody({ host_username: 'ana' }) })).outcome.data as {
          series: { uid: string; host: { username: string } };
        }
      ).series;
      expect(created.host.username).toBe('ana');
      const rows = await store.db
        .selectFrom('bookings')
        .select(['host_user_id', 'start_at'])
        .where('series_uid', '=', created.uid)
        .orderBy('start_at')
        .execute();
      // 2026-05-18 is ana's already: skipped, not given to ben.
      expect(rows).toEqual([
        { host_user_id: ID.ana, start_at: '2026-05-11T10:00:00.000Z' },
        { host_user_id: ID.ana, start_at: '2026-05-25T10:00:00.000Z' },
      ]);
      // A host outside the pool is refused, at create and at a host change.
      expect(await scheduleErrorOf(call('boss', 'create_series', { body: seriesBody({ host_user_id: ID.cid }) }))).toEqual(
        refusal('host_not_allowed', ['host_user_id']),
      );
      expect(await scheduleErrorOf(call('boss', 'create_series', { body: seriesBody({ host_username: 'boss' }) }))).toEqual(
        refusal('host_not_allowed', ['host_username']),
      );
      expect(
        await scheduleErrorOf(call('boss', 'change_series_host', { params: { uid: created.uid }, body: { host_user_id: ID.cid } })),
      ).toEqual(refusal('host_not_allowed', ['host_user_id']));
      const changed = await call('boss', 'change_series_host', { params: { uid: created.uid }, body: { host_user_id: ID.ben } });
      expect(changed.outcome.data).toMatchObject({ moved: 2, stopped_by: null });
    });
  });
});
