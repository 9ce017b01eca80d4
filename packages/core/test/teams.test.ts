import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { visitorPrincipal } from '../src/auth/visitor.js';
import { createCalendarReader } from '../src/availability/calendar-reader.js';
import { prepareReassign, reassignBooking } from '../src/bookings/reassign-booking.js';
import type { ManualClock } from '../src/clock.js';
import type { EventType } from '../src/event-types/event-type-view.js';
import { randomIds } from '../src/ids.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';
import { openTokenWorld, TEAM_SCOPES, WEEKDAYS_9_TO_5 } from './support/token-world.js';
import { callWebhooks } from './support/webhook-calls.js';

// docs/api/teams.md: round-robin event types through the operations, on
// SQLite and PostgreSQL: the pool as set and shown, every refusal with the
// field it names, asking for a host, and what holds, series, reschedules and
// limits do with a team type.

const T0 = '2026-05-04T08:00:00.000Z'; // a Monday
const U = (n: number) => `e5000000-0000-4000-8000-00000000000${n}`;
const ID = { boss: U(1), ana: U(2), ben: U(3), cid: U(4), ula: U(5), mgr: U(6) };
const TEAM = 'e5100000-0000-4000-8000-000000000001';
/** Twelve more hosts, for a pool past one batch of reads. */
const PEERS = Array.from({ length: 12 }, (_, i) => `peer${i}`);
const TOKENS = { boss: 'pat_teams_boss_all', ula: 'pat_teams_ula_all', mgr: 'pat_teams_mgr_all' };
type Caller = keyof typeof TOKENS;
const ALL = TEAM_SCOPES;
const HOURS = WEEKDAYS_9_TO_5;
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
    ...PEERS.map((name) => ({ username: name, email: `${name}@teams.test`, timezone: 'UTC', schedule: HOURS })),
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
  let who: Record<Caller, Principal>;

  beforeAll(async () => {
    ({ store, clock, deps, who } = await openTokenWorld(fixture, T0, WORKSPACE, TOKENS));
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

    it('takes hosts named by id alone, and a single host’s type keeps its seats', async () => {
      const byIds = await call('boss', 'create_event_type', { body: typeBody({ hosts: [{ user_id: ID.ben }, { user_id: ID.ana }] }) });
      expect((byIds.outcome.data as EventType).hosts.map((h) => h.user_id)).toEqual([ID.ben, ID.ana]);
      const seated = await call('boss', 'create_event_type', { body: { slug: 'class', name: 'Class', duration_minutes: 60, seats: 4 } });
      expect(seated.outcome.data).toMatchObject({ scheduling: 'single', hosts: [], seats: 4 });
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
      expect(replaced.hosts).toEqual([{ user_id: ID.cid, weight: 2, priority: 0, fixed: false }]);
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
      ['a kind not offered', { scheduling: 'weekly' }, 'validation_error', ['scheduling']],
      ['501 hosts', { hosts: Array.from({ length: 501 }, () => ({ username: 'ana' })) }, 'validation_error', ['hosts']],
    ])('%s is refused naming the field', async (_, changes, code, fields) => {
      if (code === 'host_not_allowed' && JSON.stringify(changes).includes('cid')) {
        await store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', '=', ID.cid).execute();
      }
      expect(await scheduleErrorOf(call('boss', 'create_event_type', { body: typeBody(changes) }))).toEqual(refusal(code, fields));
    });

    it('says what is wrong in words, naming the entry', async () => {
      const error = (changes: Record<string, unknown>) => scheduleErrorOf(call('boss', 'create_event_type', { body: typeBody(changes) }));
      expect(await error({ hosts: [{ username: 'nobody' }] })).toEqual({
        code: 'host_not_allowed',
        message: 'hosts.0 is not an active user this caller may act for.',
        details: { fields: ['hosts.0'] },
        retryAfterSeconds: undefined,
      });
      expect((await error({ hosts: [{ username: 'ana' }, { username: 'ana' }] })).message).toBe(
        'hosts.1: this host is in the pool already',
      );
      expect((await error({ scheduling: 'single' })).message).toBe('hosts: a single host’s type has no pool; set scheduling');
      expect((await error({ hosts: [] })).message).toBe('hosts: round_robin needs at least one host');
      expect((await error({ seats: 2 })).message).toBe('seats: a team type has no seats');
      expect((await error({ hosts: [{ weight: 2 }] })).message).toBe(
        'hosts.0.user_id: name the host by exactly one of user_id and username',
      );
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
      const mail = await store.db
        .selectFrom('notifications')
        .select(['kind', 'recipient', 'payload_json'])
        .where('kind', '<>', 'booking_reminder')
        .orderBy('recipient')
        .execute();
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
      const mail = await store.db
        .selectFrom('notifications')
        .select(['kind', 'recipient'])
        .where('kind', '<>', 'booking_reminder')
        .orderBy('recipient')
        .execute();
      expect(mail).toEqual([
        { kind: 'booking_canceled', recipient: 'ana@teams.test' },
        { kind: 'booking_changed', recipient: 'ben@teams.test' },
        { kind: 'booking_changed', recipient: 'pat@example.com' },
      ]);
      const events = await store.db.selectFrom('outbox').select(['event_type', 'payload_json']).execute();
      expect(events.map((e) => e.event_type)).toEqual(['booking.host_changed']);
      expect(JSON.parse(events[0]!.payload_json)).toMatchObject({ previous_host: { user_id: ID.ana }, reason: 'Ana is out' });
      const payloads = await store.db
        .selectFrom('notifications')
        .select(['recipient', 'payload_json'])
        .where('kind', '<>', 'booking_reminder')
        .orderBy('recipient')
        .execute();
      expect(payloads.map((p) => JSON.parse(p.payload_json))).toEqual([
        expect.objectContaining({ reason: 'Ana is out', host: { email: 'ana@teams.test', name: 'ana' } }),
        expect.objectContaining({ reason: 'Ana is out', changed: 'host', host: { email: 'ben@teams.test', name: 'ben' } }),
        expect.objectContaining({ reason: 'Ana is out', changed: 'host', host: { email: 'ben@teams.test', name: 'ben' } }),
      ]);
      // ana is free again at 10:00; ben is not.
      expect(await hostOf('2026-05-04T10:00:00Z')).toBe('ana');
    });

    it('a pending booking counts for the rule, and can be reassigned while pending', async () => {
      await store.db.updateTable('event_types').set({ requires_confirmation: 1 }).where('id', '=', TEAM).execute();
      try {
        const first = (await book('2026-05-04T10:00:00Z')).outcome.data as { uid: string; status: string; host: { username: string } };
        expect([first.status, first.host.username]).toEqual(['pending', 'ana']);
        // ana is free at 11:00 too, but her pending booking counts: ben's share is lower.
        expect(await hostOf('2026-05-04T11:00:00Z')).toBe('ben');
        await store.db.deleteFrom('bookings').where('uid', '!=', first.uid).execute();
        const moved = (await call('boss', 'reassign_booking', { params: { uid: first.uid }, body: {} })).outcome.data;
        expect(moved).toMatchObject({ status: 'pending', host: { username: 'ben' } });
      } finally {
        await store.db.updateTable('event_types').set({ requires_confirmation: 0 }).where('id', '=', TEAM).execute();
      }
    });

    it('reassign picks among several free hosts by the rule: the fewest recent bookings first', async () => {
      const trio = (
        await call('boss', 'create_event_type', {
          body: typeBody({ slug: 'trio', hosts: [{ username: 'ana' }, { username: 'ben' }, { username: 'cid' }] }),
        })
      ).outcome.data as EventType;
      const bookTrio = async (start: string, host: string) =>
        (
          await call('boss', 'create_booking', {
            body: { event_type_id: trio.id, start, attendee: { email: 'pat@example.com' }, host_user_id: host },
          })
        ).outcome.data as { uid: string };
      // ben has one booking of the type already; cid none.
      await bookTrio('2026-05-05T10:00:00Z', ID.ben);
      const booked = await bookTrio('2026-05-04T10:00:00Z', ID.ana);
      const moved = (await call('boss', 'reassign_booking', { params: { uid: booked.uid }, body: {} })).outcome.data;
      expect(moved).toMatchObject({ host: { username: 'cid' } });
    });

    it('reassign to a named host of the pool; a manager may hand their person’s booking to the next by the rule', async () => {
      const first = (await book('2026-05-04T10:00:00Z')).outcome.data as { uid: string };
      const named = await call('boss', 'reassign_booking', { params: { uid: first.uid }, body: { host_user_id: ID.ben } });
      expect((named.outcome.data as { host: { username: string } }).host.username).toBe('ben');
      const mail = await store.db
        .selectFrom('notifications')
        .select(['kind', 'payload_json'])
        .where('kind', '=', 'booking_changed')
        .execute();
      expect(JSON.parse(mail[0]!.payload_json)).toMatchObject({ changed: 'host' });
      const second = (await book('2026-05-04T11:00:00Z', { host_user_id: ID.ana })).outcome.data as { uid: string };
      const byManager = await call('mgr', 'reassign_booking', { params: { uid: second.uid }, body: {} });
      expect((byManager.outcome.data as { host: { username: string } }).host.username).toBe('ben');
    });

    it('reassign keeps the type’s buffers and limits for the new host', async () => {
      const reassignAt = async (before: number, after: number, bens: string) => {
        await store.db.deleteFrom('bookings').execute();
        await store.db
          .updateTable('event_types')
          .set({ buffer_before_minutes: 0, buffer_after_minutes: 0 })
          .where('id', '=', TEAM)
          .execute();
        await book(bens, { host_user_id: ID.ben });
        const booked = (await book('2026-05-04T12:00:00Z', { host_user_id: ID.ana })).outcome.data as { uid: string };
        await store.db
          .updateTable('event_types')
          .set({ buffer_before_minutes: before, buffer_after_minutes: after })
          .where('id', '=', TEAM)
          .execute();
        try {
          return (await call('boss', 'reassign_booking', { params: { uid: booked.uid }, body: {} })).outcome.status;
        } catch (error) {
          return (error as { code: string }).code;
        } finally {
          await store.db
            .updateTable('event_types')
            .set({ buffer_before_minutes: 0, buffer_after_minutes: 0 })
            .where('id', '=', TEAM)
            .execute();
        }
      };
      // ben's 11:00–11:30 lies within 45 minutes before 12:00; his 12:30–13:00 within 45 after 12:30.
      expect(await reassignAt(45, 0, '2026-05-04T11:00:00Z')).toBe('slot_unavailable');
      expect(await reassignAt(0, 45, '2026-05-04T12:30:00Z')).toBe('slot_unavailable');
      expect(await reassignAt(15, 15, '2026-05-04T11:00:00Z')).toBe(200);
      await store.db.deleteFrom('bookings').execute();
      await store.db.updateTable('event_types').set({ max_bookings_per_day: 1 }).where('id', '=', TEAM).execute();
      try {
        await book('2026-05-04T14:00:00Z', { host_user_id: ID.ben });
        const booked = (await book('2026-05-04T10:00:00Z', { host_user_id: ID.ana })).outcome.data as { uid: string };
        // ben has his one booking of the day already.
        expect(await scheduleErrorOf(call('boss', 'reassign_booking', { params: { uid: booked.uid }, body: {} }))).toEqual(
          expect.objectContaining({ code: 'slot_unavailable' }),
        );
        // On Tuesday both have theirs: a move there finds ana at her limit, and ben too.
        await book('2026-05-05T11:00:00Z', { host_user_id: ID.ana });
        await book('2026-05-05T14:00:00Z', { host_user_id: ID.ben });
        expect(
          await scheduleErrorOf(
            call('boss', 'reschedule_booking', { params: { uid: booked.uid }, body: { start: '2026-05-05T16:00:00Z' } }),
          ),
        ).toEqual(expect.objectContaining({ code: 'slot_unavailable' }));
      } finally {
        await store.db.updateTable('event_types').set({ max_bookings_per_day: null }).where('id', '=', TEAM).execute();
      }
    });

    it('reassign checks the version it was sent, and one changed since its read', async () => {
      const booked = (await book('2026-05-04T10:00:00Z')).outcome.data as { uid: string; version: number };
      expect(await scheduleErrorOf(call('boss', 'reassign_booking', { params: { uid: booked.uid }, body: {}, ifMatch: '"7"' }))).toEqual({
        code: 'version_conflict',
        message: 'The booking is at version 1.',
        details: { current_version: 1 },
        retryAfterSeconds: undefined,
      });
      const deps2 = { db: store.db, clock, ids: randomIds, calendars: deps.calendars, dialect: store.dialect };
      const prepared = await prepareReassign(deps2, who.boss, booked.uid, {});
      await call('boss', 'update_booking', { params: { uid: booked.uid }, body: { metadata: { note: 'changed' } }, ifMatch: '"1"' });
      const late = store.db.transaction().execute((trx) => reassignBooking(trx, deps2, who.boss, prepared, undefined, {}));
      expect(await scheduleErrorOf(late)).toEqual({
        code: 'version_conflict',
        message: 'The booking changed while this request ran; read it and retry.',
        details: { current_version: 2 },
        retryAfterSeconds: undefined,
      });
      // The booking page's visitor may see its booking but not hand it to someone.
      const visitor = visitorPrincipal({ kind: 'manage', bookingUid: booked.uid });
      expect(await scheduleErrorOf(prepareReassign(deps2, visitor, booked.uid, {}))).toEqual(
        expect.objectContaining({ code: 'booking_not_found', message: 'No booking with this uid.', details: { uid: booked.uid } }),
      );
    });

    it('reassign refuses what it cannot do, each with its code', async () => {
      const booked = (await book('2026-05-04T10:00:00Z')).outcome.data as { uid: string };
      const reassign = (body: Record<string, unknown> = {}, caller: Caller = 'boss') =>
        scheduleErrorOf(call(caller, 'reassign_booking', { params: { uid: booked.uid }, body }));
      // The only other host is busy then.
      await book('2026-05-04T10:00:00Z', { host_user_id: ID.ben });
      expect(await reassign()).toEqual(expect.objectContaining({ code: 'slot_unavailable', details: { reason: 'slot_busy' } }));
      // Named: outside the pool, or its own host.
      expect(await reassign({ host_user_id: ID.cid })).toEqual({
        code: 'host_not_allowed',
        message: 'host_user_id is not another host of this pool that this caller may act for.',
        details: { fields: ['host_user_id'] },
        retryAfterSeconds: undefined,
      });
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
      expect(await scheduleErrorOf(call('ula', 'reassign_booking', { params: { uid: own.uid }, body: {} }))).toEqual({
        code: 'invalid_change',
        message: 'Only a booking of a round-robin event type can be reassigned.',
        details: { fields: [] },
        retryAfterSeconds: undefined,
      });
      // Started, or canceled.
      clock.set('2026-05-04T10:00:00.000Z');
      expect(await reassign()).toEqual(
        expect.objectContaining({
          code: 'booking_in_past',
          message: 'The booking has already started or finished.',
          details: { start_at: '2026-05-04T10:00:00.000Z' },
        }),
      );
      clock.set(T0);
      await call('boss', 'cancel_booking', { params: { uid: booked.uid }, body: {} });
      expect(await reassign()).toEqual(
        expect.objectContaining({
          code: 'booking_already_cancelled',
          message: 'Only a confirmed or pending booking can be reassigned; this one is canceled.',
          details: {},
        }),
      );
    });

    it('check gives the type’s reason when no host is free, and slot_busy for a pool with no active host', async () => {
      const check = async (start: string) => (await call('boss', 'check_slot', { query: { event_type_id: TEAM, start } })).outcome.data;
      expect(await check('2026-09-07T10:00:00Z')).toMatchObject({ available: false, reason: 'outside_future_limit' });
      await store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', 'in', [ID.ana, ID.ben]).execute();
      expect(await check('2026-05-04T10:00:00Z')).toEqual({ available: false, reason: 'slot_busy', next_available: null });
      const window = { event_type_id: TEAM, start: '2026-05-04T00:00:00Z', end: '2026-05-05T00:00:00Z' };
      expect(((await call('boss', 'list_slots', { query: window })).outcome.data as { slots: unknown[] }).slots).toEqual([]);
    });

    it('lists the starts of hosts with different hours in order', async () => {
      // ana works Tuesdays only, ben Mondays: ben's Monday comes first though ana is read first.
      const stored = (await store.db.selectFrom('users').select('schedule_json').where('id', '=', ID.ana).executeTakeFirstOrThrow())
        .schedule_json;
      const tuesday = JSON.stringify({ timezone: 'UTC', weekly: { tue: [['09:00', '10:00']] }, overrides: [] });
      const monday = JSON.stringify({ timezone: 'UTC', weekly: { mon: [['15:00', '16:00']] }, overrides: [] });
      await store.db.updateTable('users').set({ schedule_json: tuesday }).where('id', '=', ID.ana).execute();
      await store.db.updateTable('users').set({ schedule_json: monday }).where('id', '=', ID.ben).execute();
      try {
        const window = { event_type_id: TEAM, start: '2026-05-04T00:00:00Z', end: '2026-05-06T00:00:00Z' };
        const listed = ((await call('boss', 'list_slots', { query: window })).outcome.data as { slots: { start: string }[] }).slots;
        // From Monday 09:00 (nobody works then) the next free start is ben's Monday, not ana's Tuesday.
        const check = (await call('boss', 'check_slot', { query: { event_type_id: TEAM, start: '2026-05-04T09:00:00Z' } })).outcome.data;
        expect(check).toEqual({ available: false, reason: 'slot_busy', next_available: '2026-05-04T15:00:00.000Z' });
        expect(listed.map((x) => x.start)).toEqual([
          '2026-05-04T15:00:00.000Z',
          '2026-05-04T15:30:00.000Z',
          '2026-05-05T09:00:00.000Z',
          '2026-05-05T09:30:00.000Z',
        ]);
      } finally {
        await store.db.updateTable('users').set({ schedule_json: stored }).where('id', 'in', [ID.ana, ID.ben]).execute();
      }
    });

    it('a host whose calendar cannot be read is left out; when every host’s cannot, the answer is 503', async () => {
      const feed = JSON.stringify([{ kind: 'ics', url: 'https://feeds.example.com/x.ics', writable: false }]);
      await store.db.updateTable('users').set({ calendars_json: feed }).where('id', '=', ID.ana).execute();
      try {
        const window = { event_type_id: TEAM, start: '2026-05-04T10:00:00Z', end: '2026-05-04T11:00:00Z' };
        const listed = ((await call('boss', 'list_slots', { query: window })).outcome.data as { slots: unknown[] }).slots;
        expect(listed).toHaveLength(2);
        expect(await hostOf('2026-05-04T10:00:00Z')).toBe('ben');
        await store.db.updateTable('users').set({ calendars_json: feed }).where('id', '=', ID.ben).execute();
        // One call at a time: a second started beside the first would reject before anything awaits it.
        for (const attempt of [
          () => call('boss', 'list_slots', { query: window }),
          () => call('boss', 'check_slot', { query: { event_type_id: TEAM, start: '2026-05-04T10:30:00Z' } }),
        ]) {
          expect(await scheduleErrorOf(attempt())).toEqual(expect.objectContaining({ code: 'availability_unavailable' }));
        }
      } finally {
        await store.db.updateTable('users').set({ calendars_json: '[]' }).where('id', 'in', [ID.ana, ID.ben]).execute();
      }
    });

    it('a failure other than an unreadable calendar is not taken for a busy host', async () => {
      const feed = JSON.stringify([{ kind: 'ics', url: 'https://feeds.example.com/x.ics', writable: false }]);
      await store.db.updateTable('users').set({ calendars_json: feed }).where('id', '=', ID.ana).execute();
      const broken = testDeps(store, clock, {
        calendars: createCalendarReader(async () => {
          throw new TypeError('a bug in the reader');
        }),
      });
      try {
        const window = { event_type_id: TEAM, start: '2026-05-04T10:00:00Z', end: '2026-05-04T11:00:00Z' };
        await expect(callWebhooks(broken, who.boss, 'list_slots', { query: window })).rejects.toThrow('a bug in the reader');
        await expect(
          callWebhooks(broken, who.boss, 'check_slot', { query: { event_type_id: TEAM, start: '2026-05-04T10:00:00Z' } }),
        ).rejects.toThrow('a bug in the reader');
      } finally {
        await store.db.updateTable('users').set({ calendars_json: '[]' }).where('id', '=', ID.ana).execute();
      }
    });

    it('reads at most eight hosts’ calendars at once, for slots and checks alike', async () => {
      const pool = await call('boss', 'create_event_type', {
        body: typeBody({ slug: 'peers', hosts: PEERS.map((username) => ({ username })) }),
      });
      const id = (pool.outcome.data as { id: string }).id;
      const feed = JSON.stringify([{ kind: 'ics', url: 'https://feeds.example.com/peer.ics', writable: false }]);
      const peerIds = (await store.db.selectFrom('users').select('id').where('username', 'in', PEERS).execute()).map((r) => r.id);
      await store.db.updateTable('users').set({ calendars_json: feed }).where('id', 'in', peerIds).execute();
      let inFlight = 0;
      let most = 0;
      let reads = 0;
      const counting = testDeps(store, clock, {
        calendars: createCalendarReader(async () => {
          inFlight++;
          reads++;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          // Every peer busy all day: no start is ever listed, so every peer is read.
          return [{ startMs: Date.parse('2026-05-04T00:00:00Z'), endMs: Date.parse('2026-05-05T00:00:00Z') }];
        }),
      });
      try {
        const window = { event_type_id: id, start: '2026-05-04T09:00:00Z', end: '2026-05-04T17:00:00Z' };
        const listed = await callWebhooks(counting, who.boss, 'list_slots', { query: window });
        expect([(listed.outcome.data as { slots: unknown[] }).slots.length, reads, most]).toEqual([0, 12, 8]);
        most = 0;
        await callWebhooks(counting, who.boss, 'check_slot', { query: { event_type_id: id, start: '2026-05-04T10:00:00Z' } });
        expect(most).toBe(8);
      } finally {
        await store.db.updateTable('users').set({ calendars_json: '[]' }).where('id', 'in', peerIds).execute();
      }
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
