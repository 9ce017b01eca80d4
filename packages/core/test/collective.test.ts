import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import type { RescheduleBookingBody } from '../src/bookings/booking-input.js';
import { moveBooking, prepareMove } from '../src/bookings/reschedule-booking.js';
import type { ManualClock } from '../src/clock.js';
import type { EventType } from '../src/event-types/event-type-view.js';
import { randomIds } from '../src/ids.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';
import { openTokenWorld, TEAM_SCOPES, WEEKDAYS_9_TO_5 } from './support/token-world.js';
import { callWebhooks } from './support/webhook-calls.js';

// docs/api/teams.md: bookings with several hosts, through the operations, on
// SQLite and PostgreSQL. A collective type's booking meets every host of its
// pool; a round-robin type's meets its fixed hosts and the one the rule
// picks. Each such booking blocks every host's time, wherever availability
// is read (their own types included), moves with its hosts, is seen by each,
// and is refused where a single host's time is all a feature can hold.

const T0 = '2026-05-04T08:00:00.000Z'; // a Monday
const U = (n: number) => `e6000000-0000-4000-8000-00000000000${n}`;
const ID = { boss: U(1), ana: U(2), ben: U(3), cid: U(4), mgr: U(5) };
const COLL = 'e6100000-0000-4000-8000-000000000001';
const MIX = 'e6100000-0000-4000-8000-000000000002';
const OWN = {
  ana: 'e6200000-0000-4000-8000-000000000002',
  ben: 'e6200000-0000-4000-8000-000000000003',
  cid: 'e6200000-0000-4000-8000-000000000004',
};
const TOKENS = { boss: 'pat_coll_boss_all', mgr: 'pat_coll_mgr_all' };
type Caller = keyof typeof TOKENS;
const ALL = TEAM_SCOPES;
const HOURS = WEEKDAYS_9_TO_5;
const user = (name: keyof typeof ID, extra: Record<string, unknown> = {}) => ({
  id: ID[name],
  username: name,
  email: `${name}@coll.test`,
  timezone: 'UTC',
  schedule: HOURS,
  ...extra,
});
const type = (id: string, owner: string, slug: string, extra: Record<string, unknown> = {}) => ({
  id,
  owner,
  slug,
  name: slug,
  duration_minutes: 30,
  minimum_notice_minutes: 0,
  ...extra,
});

const WORKSPACE = {
  organization: { name: 'Collective' },
  users: [
    user('boss', { role: 'owner' }),
    user('ana'),
    user('ben', { timezone: 'Europe/Berlin' }),
    user('cid'),
    user('mgr', { role: 'manager', manages: ['ana'] }),
  ],
  event_types: [
    type(COLL, 'boss', 'together', { scheduling: 'collective', hosts: [{ username: 'ana' }, { username: 'ben' }] }),
    type(MIX, 'boss', 'mixed', {
      scheduling: 'round_robin',
      hosts: [{ username: 'ana' }, { username: 'ben' }, { username: 'cid', fixed: true }],
    }),
    type(OWN.ana, 'ana', 'own'),
    type(OWN.ben, 'ben', 'own'),
    type(OWN.cid, 'cid', 'own'),
  ],
  tokens: Object.entries(TOKENS).map(([name, secret]) => ({ name, user: name, secret, scopes: ALL })),
};

const refusal = (code: string, fields: string[]) => expect.objectContaining({ code, details: { fields } });
type Shown = { uid: string; version: number; host: { username: string }; hosts: { username: string }[] };

describe.each(storeFixtures())('bookings with several hosts on $name', (fixture) => {
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
    await store.db.deleteFrom('booking_hosts').execute();
    await store.db.deleteFrom('time_off').execute();
    await store.db.deleteFrom('bookings').execute();
    await store.db.deleteFrom('notifications').execute();
    await store.db.deleteFrom('outbox').execute();
    await store.db
      .deleteFrom('event_types')
      .where('id', 'not in', [COLL, MIX, ...Object.values(OWN)])
      .execute();
    await store.db.updateTable('users').set({ deactivated_at: null, calendars_json: '[]' }).execute();
  });

  const call = (caller: Caller, name: Parameters<typeof callWebhooks>[2], rest: Parameters<typeof callWebhooks>[3] = {}) =>
    callWebhooks(deps, who[caller], name, rest);
  const book = (eventTypeId: string, start: string, changes: Record<string, unknown> = {}, caller: Caller = 'boss') =>
    call(caller, 'create_booking', { body: { event_type_id: eventTypeId, start, attendee: { email: 'pat@example.com' }, ...changes } });
  const booked = async (eventTypeId: string, start: string, changes: Record<string, unknown> = {}) => {
    const { outcome } = await book(eventTypeId, start, changes);
    expect(outcome.status).toBe(201);
    return outcome.data as Shown;
  };
  const namesOf = (b: Shown) => b.hosts.map((h) => h.username);
  const starts = async (eventTypeId: string, start: string, end: string) =>
    (
      (await call('boss', 'list_slots', { query: { event_type_id: eventTypeId, start, end } })).outcome.data as {
        slots: { start: string }[];
      }
    ).slots.map((s) => s.start.slice(11, 16));
  const available = async (eventTypeId: string, start: string) =>
    (await call('boss', 'check_slot', { query: { event_type_id: eventTypeId, start } })).outcome.data as {
      available: boolean;
      reason?: string;
    };
  const busy = expect.objectContaining({ code: 'slot_unavailable', details: { reason: 'slot_busy' } });
  const typeBody = (changes: Record<string, unknown>) => ({ slug: 'new', name: 'New', duration_minutes: 30, ...changes });

  describe('the pool', () => {
    it('every host of a collective pool is fixed, whatever was sent; round robin shows which are', async () => {
      const { outcome } = await call('boss', 'create_event_type', {
        body: typeBody({ scheduling: 'collective', hosts: [{ username: 'ana' }, { username: 'ben', fixed: false }] }),
      });
      expect(outcome.status).toBe(201);
      expect((outcome.data as EventType).hosts).toEqual([
        { user_id: ID.ana, weight: 1, priority: 0, fixed: true },
        { user_id: ID.ben, weight: 1, priority: 0, fixed: true },
      ]);
      const mixed = (await call('boss', 'get_event_type', { params: { id: MIX } })).outcome.data as EventType;
      expect(mixed.hosts.map((h) => h.fixed)).toEqual([false, false, true]);
    });

    it.each([
      [
        'a collective pool of one',
        { scheduling: 'collective', hosts: [{ username: 'ana' }] },
        ['hosts'],
        'hosts: collective needs at least two hosts',
      ],
      [
        'round robin with every host fixed',
        { scheduling: 'round_robin', hosts: [{ username: 'ana', fixed: true }] },
        ['hosts'],
        'hosts: round_robin needs a host that is not fixed to choose from',
      ],
      [
        'seats on a collective type',
        { scheduling: 'collective', hosts: [{ username: 'ana' }, { username: 'ben' }], seats: 2 },
        ['seats'],
        'seats: a team type has no seats',
      ],
      [
        'fixed that is not a boolean',
        { scheduling: 'round_robin', hosts: [{ username: 'ana', fixed: 'yes' }] },
        ['hosts.0.fixed'],
        undefined,
      ],
    ])('%s is refused naming the field', async (_, changes, fields, message) => {
      const error = await scheduleErrorOf(call('boss', 'create_event_type', { body: typeBody(changes) }));
      expect(error).toEqual(refusal('validation_error', fields));
      if (message !== undefined) expect(error.message).toBe(message);
    });

    it('a PATCH to round robin must leave a host to choose from', async () => {
      expect(
        await scheduleErrorOf(
          call('boss', 'update_event_type', { params: { id: COLL }, body: { scheduling: 'round_robin' }, ifMatch: '*' }),
        ),
      ).toEqual(refusal('validation_error', ['hosts']));
    });
  });

  it('a single host’s type takes only its owner as host_user_id', async () => {
    expect(await scheduleErrorOf(book(OWN.ana, '2026-05-04T10:00:00Z', { host_user_id: ID.ben }))).toEqual(
      refusal('host_not_allowed', ['host_user_id']),
    );
    expect(namesOf(await booked(OWN.ana, '2026-05-04T10:00:00Z', { host_user_id: ID.ana }))).toEqual(['ana']);
  });

  describe('a collective type', () => {
    it('is free only where every host is free, and its booking lists them all, the first as its host', async () => {
      await booked(OWN.ana, '2026-05-04T10:00:00Z');
      await booked(OWN.ben, '2026-05-04T11:00:00Z');
      expect(await starts(COLL, '2026-05-04T10:00:00Z', '2026-05-04T12:00:00Z')).toEqual(['10:30', '11:30']);
      expect(await starts(MIX, '2026-05-04T10:00:00Z', '2026-05-04T12:00:00Z')).toEqual(['10:00', '10:30', '11:00', '11:30']);
      expect(await available(COLL, '2026-05-04T11:00:00Z')).toEqual(expect.objectContaining({ available: false, reason: 'slot_busy' }));
      expect(await scheduleErrorOf(book(COLL, '2026-05-04T10:00:00Z'))).toEqual(busy);
      const made = await booked(COLL, '2026-05-04T12:00:00Z');
      expect(made.host.username).toBe('ana');
      expect(namesOf(made)).toEqual(['ana', 'ben']);
      expect((await call('boss', 'get_booking', { params: { uid: made.uid } })).outcome.data).toMatchObject({
        hosts: [
          { user_id: ID.ana, username: 'ana', email: 'ana@coll.test' },
          { user_id: ID.ben, username: 'ben', email: 'ben@coll.test' },
        ],
      });
    });

    it('blocks every host’s time, for their own types too, until it is canceled', async () => {
      const made = await booked(COLL, '2026-05-04T12:00:00Z');
      for (const own of [OWN.ana, OWN.ben]) {
        expect(await scheduleErrorOf(book(own, '2026-05-04T12:15:00Z'))).toEqual(busy);
        expect(await starts(own, '2026-05-04T11:30:00Z', '2026-05-04T13:00:00Z')).toEqual(['11:30', '12:30']);
      }
      expect(await starts(COLL, '2026-05-04T11:30:00Z', '2026-05-04T13:00:00Z')).toEqual(['11:30', '12:30']);
      await call('boss', 'cancel_booking', { params: { uid: made.uid }, body: {} });
      expect(await starts(OWN.ben, '2026-05-04T11:30:00Z', '2026-05-04T13:00:00Z')).toEqual(['11:30', '12:00', '12:30']);
      expect((await book(OWN.ben, '2026-05-04T12:00:00Z')).outcome.status).toBe(201);
    });

    it('each host gets the host’s mail in their own zone; every change reaches them all', async () => {
      const made = await booked(COLL, '2026-05-04T12:00:00Z');
      const mail = async () =>
        (
          await store.db
            .selectFrom('notifications')
            .select(['kind', 'recipient', 'payload_json'])
            .where('kind', '<>', 'booking_reminder')
            .orderBy('recipient')
            .execute()
        ).map((m) => {
          const payload = JSON.parse(m.payload_json) as { role: string; timezone: string; host: { email: string } };
          return [m.kind, m.recipient, payload.role, payload.timezone, payload.host.email];
        });
      expect(await mail()).toEqual([
        ['booking_created', 'ana@coll.test', 'host', 'UTC', 'ana@coll.test'],
        ['booking_created', 'ben@coll.test', 'host', 'Europe/Berlin', 'ana@coll.test'],
        ['booking_created', 'pat@example.com', 'attendee', 'UTC', 'ana@coll.test'],
      ]);
      await store.db.deleteFrom('notifications').execute();
      await call('boss', 'cancel_booking', { params: { uid: made.uid }, body: {} });
      expect((await mail()).map((m) => [m[0], m[1]])).toEqual([
        ['booking_canceled', 'ana@coll.test'],
        ['booking_canceled', 'ben@coll.test'],
        ['booking_canceled', 'pat@example.com'],
      ]);
    });

    it('check names the next start every host is free at', async () => {
      // The last host is free first; the next start is where the first is free too.
      await booked(OWN.ben, '2026-05-04T10:00:00Z');
      await booked(OWN.ana, '2026-05-04T10:30:00Z');
      await booked(OWN.ana, '2026-05-04T11:00:00Z');
      expect(await available(COLL, '2026-05-04T10:00:00Z')).toEqual({
        available: false,
        reason: 'slot_busy',
        next_available: '2026-05-04T11:30:00.000Z',
      });
    });

    it('host_user_id names which host of the pool is its host; anyone else is refused', async () => {
      const made = await booked(COLL, '2026-05-04T12:00:00Z', { host_user_id: ID.ben });
      expect(namesOf(made)).toEqual(['ben', 'ana']);
      expect(await scheduleErrorOf(book(COLL, '2026-05-04T13:00:00Z', { host_user_id: ID.cid }))).toEqual(
        refusal('host_not_allowed', ['host_user_id']),
      );
    });

    it('a reschedule moves every host’s time, and is refused where one of them is busy', async () => {
      const made = await booked(COLL, '2026-05-04T12:00:00Z');
      await booked(OWN.ben, '2026-05-04T14:00:00Z');
      const move = (start: string) => call('boss', 'reschedule_booking', { params: { uid: made.uid }, body: { start } });
      expect(await scheduleErrorOf(move('2026-05-04T14:00:00Z'))).toEqual(busy);
      // A move onto its own time is not blocked by itself, for its host or its co-host.
      expect((await move('2026-05-04T12:00:00Z')).outcome.status).toBe(200);
      const moved = (await move('2026-05-04T15:00:00Z')).outcome.data as Shown;
      expect(namesOf(moved)).toEqual(['ana', 'ben']);
      expect(await starts(OWN.ben, '2026-05-04T12:00:00Z', '2026-05-04T13:00:00Z')).toEqual(['12:00', '12:30']);
      expect(await available(OWN.ben, '2026-05-04T15:00:00Z')).toEqual(expect.objectContaining({ available: false }));
      expect(await available(OWN.ana, '2026-05-04T15:00:00Z')).toEqual(expect.objectContaining({ available: false }));
    });

    it('a reschedule is refused where a co-host is away, and where one was booked since its checks', async () => {
      const made = await booked(COLL, '2026-05-04T12:00:00Z');
      const now = T0;
      await store.db
        .insertInto('time_off')
        .values({
          id: randomIds.uuid(),
          user_id: ID.ben,
          start_at: '2026-05-04T14:00:00.000Z',
          end_at: '2026-05-04T15:00:00.000Z',
          reason: null,
          version: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      expect(
        await scheduleErrorOf(call('boss', 'reschedule_booking', { params: { uid: made.uid }, body: { start: '2026-05-04T14:00:00Z' } })),
      ).toEqual(busy);
      // Checked free at 15:00, then ben is booked there before the write: the write, under the hosts' locks, refuses.
      const body = { start: '2026-05-04T15:00:00Z' } as RescheduleBookingBody;
      const writeDeps = { ...deps, db: store.db, dialect: store.dialect, ids: randomIds };
      const move = await prepareMove(writeDeps, who.boss, made.uid, body);
      await booked(OWN.ben, '2026-05-04T15:00:00Z');
      expect(await scheduleErrorOf(store.db.transaction().execute((trx) => moveBooking(trx, writeDeps, who.boss, move, body)))).toEqual(
        busy,
      );
      expect((await call('boss', 'get_booking', { params: { uid: made.uid } })).outcome.data).toMatchObject({
        start_at: '2026-05-04T12:00:00.000Z',
      });
    });

    it('each host sees it: a manager of the co-host gets it and lists it, by host too', async () => {
      const made = await booked(COLL, '2026-05-04T12:00:00Z', { host_user_id: ID.ben });
      const other = await booked(OWN.ben, '2026-05-04T13:00:00Z');
      expect((await call('mgr', 'get_booking', { params: { uid: made.uid } })).outcome.status).toBe(200);
      expect(await scheduleErrorOf(call('mgr', 'get_booking', { params: { uid: other.uid } }))).toEqual(
        expect.objectContaining({ code: 'booking_not_found' }),
      );
      const listed = async (caller: Caller, query: Record<string, unknown> = {}) =>
        ((await call(caller, 'list_bookings', { query })).outcome.data as { uid: string }[]).map((b) => b.uid);
      expect(await listed('mgr')).toEqual([made.uid]);
      expect(await listed('boss', { host_user_id: ID.ana })).toEqual([made.uid]);
      expect((await listed('boss', { host_user_id: ID.ben })).sort()).toEqual([made.uid, other.uid].sort());
    });

    it('takes no holds, series or reassign yet', async () => {
      expect(await scheduleErrorOf(call('boss', 'create_hold', { body: { event_type_id: COLL, start: '2026-05-04T12:00:00Z' } }))).toEqual(
        expect.objectContaining({
          code: 'forbidden',
          message: 'A team event type takes no holds yet; book it directly.',
          details: { reason: 'collective' },
        }),
      );
      // A hold of another type named on a create of this one is that hold's mismatch, and books nothing.
      const held = (await call('boss', 'create_hold', { body: { event_type_id: OWN.ana, start: '2026-05-04T13:00:00Z' } })).outcome
        .data as {
        id: string;
      };
      expect(await scheduleErrorOf(book(COLL, '2026-05-04T13:00:00Z', { hold_id: held.id }))).toEqual(
        expect.objectContaining({ code: 'hold_mismatch' }),
      );
      expect(await store.db.selectFrom('bookings').select('uid').where('event_type_id', '=', COLL).execute()).toEqual([]);
      const series = {
        event_type_id: COLL,
        host_user_id: ID.ana,
        attendee: { email: 'pat@example.com' },
        frequency: 'weekly',
        weekdays: ['mon'],
        time: '12:00',
        timezone: 'UTC',
        starts_on: '2026-05-11',
        count: 3,
      };
      expect(await scheduleErrorOf(call('boss', 'create_series', { body: series }))).toEqual(
        expect.objectContaining({ code: 'forbidden', details: { reason: 'several_hosts' } }),
      );
      const made = await booked(COLL, '2026-05-04T12:00:00Z');
      expect(await scheduleErrorOf(call('boss', 'reassign_booking', { params: { uid: made.uid }, body: {} }))).toEqual(
        expect.objectContaining({ code: 'invalid_change' }),
      );
    });

    it('a fixed host whose calendar cannot be read makes the team’s answer 503', async () => {
      const feed = JSON.stringify([{ kind: 'ics', url: 'https://feeds.example.com/x.ics', writable: false }]);
      await store.db.updateTable('users').set({ calendars_json: feed }).where('id', '=', ID.ben).execute();
      for (const attempt of [
        () => call('boss', 'list_slots', { query: { event_type_id: COLL, start: '2026-05-04T10:00:00Z', end: '2026-05-04T11:00:00Z' } }),
        () => call('boss', 'check_slot', { query: { event_type_id: COLL, start: '2026-05-04T10:00:00Z' } }),
        () => book(COLL, '2026-05-04T10:00:00Z'),
      ]) {
        expect(await scheduleErrorOf(attempt())).toEqual(expect.objectContaining({ code: 'availability_unavailable' }));
      }
    });
  });

  describe('round robin with a fixed host', () => {
    it('books the rule’s host with the fixed host, who must be free too', async () => {
      const first = await booked(MIX, '2026-05-04T10:00:00Z');
      expect(namesOf(first)).toEqual(['ana', 'cid']);
      // ben is free at 10:00, but cid is not: nobody can take it.
      expect(await starts(MIX, '2026-05-04T10:00:00Z', '2026-05-04T11:00:00Z')).toEqual(['10:30']);
      expect(await scheduleErrorOf(book(MIX, '2026-05-04T10:00:00Z'))).toEqual(busy);
      expect(namesOf(await booked(MIX, '2026-05-04T11:00:00Z'))).toEqual(['ben', 'cid']);
      await booked(OWN.cid, '2026-05-04T12:00:00Z');
      expect(await available(MIX, '2026-05-04T12:00:00Z')).toEqual(expect.objectContaining({ available: false, reason: 'slot_busy' }));
    });

    it('is busy where the fixed host is free but every host to choose from is not, and check names the next start', async () => {
      await booked(OWN.ana, '2026-05-04T10:00:00Z');
      await booked(OWN.ben, '2026-05-04T10:00:00Z');
      await booked(OWN.ana, '2026-05-04T10:30:00Z');
      await booked(OWN.ben, '2026-05-04T10:30:00Z');
      await booked(OWN.cid, '2026-05-04T11:00:00Z');
      expect(await starts(MIX, '2026-05-04T10:00:00Z', '2026-05-04T12:00:00Z')).toEqual(['11:30']);
      expect(await available(MIX, '2026-05-04T10:00:00Z')).toEqual({
        available: false,
        reason: 'slot_busy',
        next_available: '2026-05-04T11:30:00.000Z',
      });
      expect(await scheduleErrorOf(book(MIX, '2026-05-04T10:30:00Z'))).toEqual(busy);
    });

    it('host_user_id names a host the rule chooses from, never the fixed one', async () => {
      expect(namesOf(await booked(MIX, '2026-05-04T10:00:00Z', { host_user_id: ID.ben }))).toEqual(['ben', 'cid']);
      expect(await scheduleErrorOf(book(MIX, '2026-05-04T11:00:00Z', { host_user_id: ID.cid }))).toEqual(
        refusal('host_not_allowed', ['host_user_id']),
      );
    });

    it('reassign and reschedule change the chosen host only; the fixed host stays', async () => {
      const made = await booked(MIX, '2026-05-04T10:00:00Z');
      const reassigned = (await call('boss', 'reassign_booking', { params: { uid: made.uid }, body: {} })).outcome.data as Shown;
      expect(namesOf(reassigned)).toEqual(['ben', 'cid']);
      expect(
        await scheduleErrorOf(call('boss', 'reassign_booking', { params: { uid: made.uid }, body: { host_user_id: ID.cid } })),
      ).toEqual(refusal('host_not_allowed', ['host_user_id']));
      await booked(OWN.ben, '2026-05-04T14:00:00Z');
      const moved = (await call('boss', 'reschedule_booking', { params: { uid: made.uid }, body: { start: '2026-05-04T14:00:00Z' } }))
        .outcome.data as Shown;
      expect(namesOf(moved)).toEqual(['ana', 'cid']);
      // ana is busy at 16:00 and so is ben: only the fixed host is free, and a fixed host never takes a booking over.
      await booked(OWN.ana, '2026-05-04T16:00:00Z');
      await booked(OWN.ben, '2026-05-04T16:00:00Z');
      expect(
        await scheduleErrorOf(call('boss', 'reschedule_booking', { params: { uid: made.uid }, body: { start: '2026-05-04T16:00:00Z' } })),
      ).toEqual(busy);
      await booked(OWN.cid, '2026-05-04T15:00:00Z');
      expect(
        await scheduleErrorOf(call('boss', 'reschedule_booking', { params: { uid: made.uid }, body: { start: '2026-05-04T15:00:00Z' } })),
      ).toEqual(busy);
    });

    it('with every host it chooses from deactivated, nobody hosts it', async () => {
      await store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', 'in', [ID.ana, ID.ben]).execute();
      expect(await starts(MIX, '2026-05-04T10:00:00Z', '2026-05-04T11:00:00Z')).toEqual([]);
      expect(await available(MIX, '2026-05-04T10:00:00Z')).toEqual(expect.objectContaining({ available: false, reason: 'slot_busy' }));
    });
  });
});
