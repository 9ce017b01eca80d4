import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import type { ActsFor } from '../src/auth/roles.js';
import type { Booking } from '../src/bookings/booking-view.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { parseIfMatch } from '../src/conditional.js';
import { eventTypeDeclaration } from '../src/event-types/event-type-fields.js';
import type { EventType } from '../src/event-types/event-type-view.js';
import { checkSlugFree } from '../src/event-types/find-event-type.js';
import { eventTypeById, resolveEventType } from '../src/event-types/resolve-event-type.js';
import { archiveEventTypeRow, updateEventType, writeEventTypeFields } from '../src/event-types/write-event-type.js';
import { randomIds } from '../src/ids.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { ListOutcome } from '../src/operations/operation.js';
import type { Executor, Store } from '../src/storage/store.js';
import { hostOf, receiversOf, type Subscriber } from '../src/webhooks/delivery/subscribers.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';
import { callWebhooks } from './support/webhook-calls.js';

// docs/api/event-types.md: the event type operations through `execute`, on
// SQLite and PostgreSQL, with every refusal and what a change does to
// slots, bookings and series.

const T0 = '2026-05-04T08:00:00.000Z'; // a Monday
const ANN = 'e0000000-0000-4000-8000-00000000000a';
const BOB = 'e0000000-0000-4000-8000-00000000000b';
const MIA = 'e0000000-0000-4000-8000-00000000000c';
const INTRO = 'e1000000-0000-4000-8000-00000000000a';
const UNKNOWN = 'e1000000-0000-4000-8000-0000000000ff';

const TOKENS = {
  ann: 'pat_ann_event_types_all',
  annRead: 'pat_ann_reads_only_x',
  bob: 'pat_bob_event_types_w',
  mia: 'pat_mia_event_types_w',
};
type Caller = keyof typeof TOKENS;
const ALL = ['event_types:write', 'bookings:create', 'bookings:read', 'series:read', 'series:write', 'slots:read'];
const HOURS = { timezone: 'UTC', weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])) };

const WORKSPACE = {
  organization: { name: 'Types' },
  users: [
    { id: ANN, username: 'ann', email: 'ann@types.test', name: 'Ann', schedule: HOURS },
    { id: BOB, username: 'bob', email: 'bob@types.test', name: 'Bob', schedule: HOURS },
    { id: MIA, username: 'mia', email: 'mia@types.test', name: 'Mia', role: 'manager', manages: ['ann'] },
  ],
  event_types: [{ id: INTRO, owner: 'ann', slug: 'intro', name: 'Intro call', duration_minutes: 30 }],
  tokens: [
    { name: 'ann', user: 'ann', secret: TOKENS.ann, scopes: ALL },
    { name: 'ann-read', user: 'ann', secret: TOKENS.annRead, scopes: ['bookings:read'] },
    { name: 'bob', user: 'bob', secret: TOKENS.bob, scopes: ['event_types:write'] },
    { name: 'mia', user: 'mia', secret: TOKENS.mia, scopes: ['event_types:write'] },
  ],
};

const ATTENDEE = { name: 'Pat', email: 'pat@example.com' };

/**
 * The same database under a handle whose prepared queries (prepared-query.ts,
 * cached per adapter) are built again when first run: a change to how one is
 * built shows in the test that uses this handle, not only in the first test
 * that ran the query.
 */
function unprepared(db: Executor): Executor {
  const bound = (target: object, key: PropertyKey) => {
    const value: unknown = Reflect.get(target, key, target);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const adapter: object = Object.create(db.getExecutor().adapter);
  const executor = new Proxy(db.getExecutor(), { get: (target, key) => (key === 'adapter' ? adapter : bound(target, key)) });
  return new Proxy(db, { get: (target, key) => (key === 'getExecutor' ? () => executor : bound(target, key)) });
}

describe.each(storeFixtures())('event types through the API on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  const who = {} as Record<Caller, Principal>;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    // Booking pages served at a test address, so every view's booking_url is one to compare.
    deps = testDeps(store, clock, { pages: () => 'https://pages.test/' });
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(WORKSPACE)));
    for (const name of Object.keys(TOKENS) as Caller[]) who[name] = await principalOf({ store, clock }, TOKENS[name]);
  });
  afterAll(() => fixture.cleanup());

  beforeEach(async () => {
    clock.set(T0);
    await store.db.deleteFrom('outbox').execute();
    await store.db.deleteFrom('notifications').execute();
    await store.db.deleteFrom('series_owed').execute();
    await store.db.deleteFrom('bookings').execute();
    await store.db.deleteFrom('series').execute();
    await store.db.deleteFrom('event_types').where('id', '!=', INTRO).execute();
    await store.db
      .updateTable('event_types')
      .set({
        slug: 'intro',
        archived_slug: null,
        archived_at: null,
        status: 'on',
        duration_minutes: 30,
        slot_interval_minutes: 30,
        version: 1,
      })
      .where('id', '=', INTRO)
      .execute();
  });

  const call = (caller: Caller, name: Parameters<typeof callWebhooks>[2], rest: Parameters<typeof callWebhooks>[3] = {}) =>
    callWebhooks(deps, who[caller], name, rest);
  const create = async (body: Record<string, unknown>, caller: Caller = 'ann') =>
    (await call(caller, 'create_event_type', { body })).outcome.data as EventType;
  const patch = async (id: string, body: Record<string, unknown>, ifMatch: string, caller: Caller = 'ann') =>
    (await call(caller, 'update_event_type', { params: { id }, body, ifMatch })).outcome.data as EventType;
  const events = async () =>
    (await store.db.selectFrom('outbox').select(['event_type', 'subject_uid', 'payload_json']).orderBy('created_at').execute()).filter(
      (e) => e.event_type.startsWith('event_type.'),
    );
  const book = async (start: string, ref: Record<string, unknown> = { event_type_id: INTRO }) =>
    (await call('ann', 'create_booking', { body: { ...ref, start, attendee: ATTENDEE } })).outcome.data as Booking;
  const slots = async (id: string) =>
    (
      (await call('ann', 'list_slots', { query: { event_type_id: id, start: '2026-05-05T00:00:00Z', end: '2026-05-06T00:00:00Z' } }))
        .outcome.data as { slots: { start: string; end: string }[] }
    ).slots;
  const listed = async () => ((await call('ann', 'list_event_types')).outcome as ListOutcome).data.map((t) => (t as EventType).slug);

  describe('POST /v1/event-types', () => {
    it('answers 201 with the whole type, version 1, its Location; defaults as the workspace file; records event_type.created', async () => {
      const { outcome } = await call('ann', 'create_event_type', { body: { slug: 'deep-dive', name: 'Deep dive', duration_minutes: 45 } });
      const data = outcome.data as EventType;
      expect(outcome).toEqual({ status: 201, version: 1, location: `/v1/event-types/${data.id}`, data });
      expect(data).toEqual({
        id: data.id,
        slug: 'deep-dive',
        name: 'Deep dive',
        description: null,
        owner: { user_id: ANN, username: 'ann' },
        duration_minutes: 45,
        slot_interval_minutes: 45,
        buffer_before_minutes: 0,
        buffer_after_minutes: 0,
        minimum_notice_minutes: 0,
        cancel_notice_minutes: 0,
        reschedule_notice_minutes: 0,
        future_limit_days: 60,
        status: 'on',
        recurring: 'on',
        allow_reschedule: true,
        requires_confirmation: false,
        attendee_mail: true,
        location: { type: 'conference' },
        visibility: 'public',
        max_bookings_per_day: null,
        max_bookings_per_week: null,
        seats: null,
        scheduling: 'single',
        hosts: [],
        booking_url: 'https://pages.test/@ann/deep-dive',
        questions: [],
        reminders: [
          { minutes: 1440, relative_to: 'start', to: 'attendee', via: 'email', text: null },
          { minutes: 60, relative_to: 'start', to: 'attendee', via: 'email', text: null },
        ],
        version: 1,
        created_at: T0,
        updated_at: T0,
        archived_at: null,
      });
      expect(await events()).toEqual([{ event_type: 'event_type.created', subject_uid: data.id, payload_json: JSON.stringify(data) }]);
      expect(await listed()).toEqual(['deep-dive', 'intro']);
    });

    it('replays the first answer for the same key and creates nothing more', async () => {
      const body = { slug: 'once', name: 'Once', duration_minutes: 20 };
      const first = await call('ann', 'create_event_type', { body, key: 'et-once' });
      const again = await call('ann', 'create_event_type', { body, key: 'et-once' });
      expect(again).toEqual({ ...first, replayed: true });
      expect(await store.db.selectFrom('event_types').select('id').where('slug', '=', 'once').execute()).toHaveLength(1);
    });

    it('requires an Idempotency-Key and the event_types:write scope', async () => {
      const body = { slug: 'x', name: 'X', duration_minutes: 20 };
      expect((await scheduleErrorOf(call('ann', 'create_event_type', { body, key: null }))).code).toBe('missing_idempotency_key');
      expect((await scheduleErrorOf(call('annRead', 'create_event_type', { body }))).code).toBe('insufficient_scope');
    });

    it('creates for someone the caller manages, by username; refuses an owner it may not act for with 403 host_not_allowed', async () => {
      const made = await create({ owner: 'ann', slug: 'by-mia', name: 'By Mia', duration_minutes: 15 }, 'mia');
      expect(made.owner).toEqual({ user_id: ANN, username: 'ann' });
      for (const owner of ['ann', ANN, 'nobody']) {
        expect(
          await scheduleErrorOf(call('bob', 'create_event_type', { body: { owner, slug: 'no', name: 'No', duration_minutes: 15 } })),
        ).toEqual({
          code: 'host_not_allowed',
          message: 'owner is not someone this caller may act for.',
          details: { fields: ['owner'] },
          retryAfterSeconds: undefined,
        });
      }
    });

    it.each([
      [{ duration_minutes: 0 }, 'duration_minutes'],
      [{ duration_minutes: 1441 }, 'duration_minutes'],
      [{ duration_minutes: 1.5 }, 'duration_minutes'],
      [{ slot_interval_minutes: 0 }, 'slot_interval_minutes'],
      [{ slot_interval_minutes: 1441 }, 'slot_interval_minutes'],
      [{ buffer_before_minutes: -1 }, 'buffer_before_minutes'],
      [{ buffer_after_minutes: -5 }, 'buffer_after_minutes'],
      [{ minimum_notice_minutes: -1 }, 'minimum_notice_minutes'],
      [{ cancel_notice_minutes: -1 }, 'cancel_notice_minutes'],
      [{ cancel_notice_minutes: 525_601 }, 'cancel_notice_minutes'],
      [{ cancel_notice_minutes: 1.5 }, 'cancel_notice_minutes'],
      [{ reschedule_notice_minutes: -1 }, 'reschedule_notice_minutes'],
      [{ reschedule_notice_minutes: 525_601 }, 'reschedule_notice_minutes'],
      [{ reschedule_notice_minutes: '60' }, 'reschedule_notice_minutes'],
      [{ future_limit_days: 0 }, 'future_limit_days'],
      [{ slug: 'Not A Slug' }, 'slug'],
      [{ slug: '~archived' }, 'slug'],
      [{ name: '' }, 'name'],
      [{ status: 'paused' }, 'status'],
      [{ recurring: 'yes' }, 'recurring'],
      [{ requires_confirmation: 'yes' }, 'requires_confirmation'],
      [
        {
          questions: [
            { id: 'a', label: 'A' },
            { id: 'a', label: 'Again' },
          ],
        },
        'questions.1.id',
      ],
      [{ questions: [{ id: 'size', label: 'Size', type: 'select' }] }, 'questions.0.options'],
      [{ questions: [{ id: 'size', label: 'Size', type: 'text', options: ['S'] }] }, 'questions.0.options'],
      [{ questions: [{ id: 'size', label: 'Size', type: 'colour' }] }, 'questions.0.type'],
      [{ location: { type: 'link' } }, 'location.url'],
      [{ location: { type: 'link', url: 'ftp://files.example.com' } }, 'location.url'],
      [{ location: { type: 'phone', value: '' } }, 'location.value'],
      [{ location: { type: 'teleport' } }, 'location.type'],
      [{ max_bookings_per_day: 0 }, 'max_bookings_per_day'],
      [{ max_bookings_per_week: 1001 }, 'max_bookings_per_week'],
      [{ max_bookings_per_day: 2.5 }, 'max_bookings_per_day'],
      [{ seats: 1 }, 'seats'],
      [{ seats: 1001 }, 'seats'],
    ])('refuses %j with 400 validation_error naming %s; nothing stored', async (bad, field) => {
      const body = { slug: 'bad', name: 'Bad', duration_minutes: 30, ...bad };
      const seen = await scheduleErrorOf(call('ann', 'create_event_type', { body }));
      expect([seen.code, seen.details.fields]).toEqual(['validation_error', [field]]);
      expect(await store.db.selectFrom('event_types').select('id').where('name', '=', 'Bad').execute()).toEqual([]);
    });

    it('refuses a slug the owner already uses with 409 slug_taken; another owner may use it', async () => {
      expect(
        await scheduleErrorOf(call('ann', 'create_event_type', { body: { slug: 'intro', name: 'Again', duration_minutes: 30 } })),
      ).toEqual({
        code: 'slug_taken',
        message: 'The owner already has an event type with the slug "intro".',
        details: { fields: ['slug'] },
        retryAfterSeconds: undefined,
      });
      expect((await create({ slug: 'intro', name: "Bob's intro", duration_minutes: 30 }, 'bob')).owner.username).toBe('bob');
    });
  });

  describe('GET /v1/event-types/:id', () => {
    it('answers the whole type with its version; for the owner and their manager, 404 event_type_not_found for anyone else', async () => {
      const { outcome } = await call('ann', 'get_event_type', { params: { id: INTRO.toUpperCase() } });
      expect(outcome).toMatchObject({ status: 200, version: 1, data: { id: INTRO, slug: 'intro', owner: { username: 'ann' } } });
      expect((await call('mia', 'get_event_type', { params: { id: INTRO } })).outcome.data).toEqual(outcome.data);
      for (const id of [INTRO, UNKNOWN, 'not-an-id']) {
        expect(await scheduleErrorOf(call('bob', 'get_event_type', { params: { id } }))).toEqual({
          code: 'event_type_not_found',
          message: 'No such event type.',
          details: { id },
          retryAfterSeconds: undefined,
        });
      }
    });
  });

  describe('PATCH /v1/event-types/:id', () => {
    it('sets the cancel and reschedule notices (0 to 525600), shown by get and the directory list; a PATCH of one keeps the other', async () => {
      const created = await create({ slug: 'noticed', name: 'Noticed', duration_minutes: 30, cancel_notice_minutes: 525_600 });
      expect([created.cancel_notice_minutes, created.reschedule_notice_minutes]).toEqual([525_600, 0]);
      const patched = await patch(created.id, { reschedule_notice_minutes: 90, cancel_notice_minutes: 0 }, '1');
      expect([patched.cancel_notice_minutes, patched.reschedule_notice_minutes]).toEqual([0, 90]);
      expect((await call('ann', 'get_event_type', { params: { id: created.id } })).outcome.data).toMatchObject({
        cancel_notice_minutes: 0,
        reschedule_notice_minutes: 90,
      });
      const listed = (await call('ann', 'list_event_types', {})).outcome.data as { slug: string }[];
      expect(listed.find((type) => type.slug === 'noticed')).toMatchObject({ cancel_notice_minutes: 0, reschedule_notice_minutes: 90 });
      const refused = await scheduleErrorOf(patch(created.id, { cancel_notice_minutes: -1 }, '2'));
      expect([refused.code, refused.details.fields]).toEqual(['validation_error', ['cancel_notice_minutes']]);
    });

    it('changes what is sent, bumps the version, records event_type.updated', async () => {
      clock.set('2026-05-04T08:05:00.000Z');
      const { outcome } = await call('ann', 'update_event_type', {
        params: { id: INTRO },
        body: { name: 'Intro', description: 'Hello', location: { type: 'link', url: 'https://meet.example.com/ann' } },
        ifMatch: '"1"',
      });
      const data = outcome.data as EventType;
      expect(outcome).toEqual({ status: 200, version: 2, data });
      expect(data).toMatchObject({
        name: 'Intro',
        description: 'Hello',
        location: { type: 'link', url: 'https://meet.example.com/ann' },
        duration_minutes: 30,
        version: 2,
        updated_at: '2026-05-04T08:05:00.000Z',
      });
      expect(await events()).toEqual([{ event_type: 'event_type.updated', subject_uid: INTRO, payload_json: JSON.stringify(data) }]);
      expect((await patch(INTRO, { description: null }, '2')).description).toBeNull();
    });

    it('requires If-Match; a stale one is 409 version_conflict with the current version, and changes nothing', async () => {
      expect((await scheduleErrorOf(call('ann', 'update_event_type', { params: { id: INTRO }, body: { name: 'N' } }))).code).toBe(
        'missing_if_match',
      );
      await patch(INTRO, { name: 'Two' }, '1');
      expect(
        await scheduleErrorOf(call('ann', 'update_event_type', { params: { id: INTRO }, body: { name: 'Three' }, ifMatch: '1' })),
      ).toEqual({
        code: 'version_conflict',
        message: 'The event type is at version 2.',
        details: { current_version: 2 },
        retryAfterSeconds: undefined,
      });
      expect((await call('ann', 'get_event_type', { params: { id: INTRO } })).outcome.data).toMatchObject({ name: 'Two', version: 2 });
    });

    it('answers 422 field_immutable naming every field that cannot change; an unknown key is 400 validation_error', async () => {
      const seen = await scheduleErrorOf(
        call('ann', 'update_event_type', { params: { id: INTRO }, body: { id: UNKNOWN, owner: 'bob', name: 'N' }, ifMatch: '1' }),
      );
      expect([seen.code, seen.details]).toEqual(['field_immutable', { fields: ['id', 'owner'] }]);
      const unknown = await scheduleErrorOf(
        call('ann', 'update_event_type', { params: { id: INTRO }, body: { durration: 5 }, ifMatch: '1' }),
      );
      expect([unknown.code, unknown.details]).toEqual(['validation_error', { fields: ['durration'] }]);
      const bad = await scheduleErrorOf(
        call('ann', 'update_event_type', { params: { id: INTRO }, body: { duration_minutes: 0 }, ifMatch: '1' }),
      );
      expect([bad.code, bad.details]).toEqual(['validation_error', { fields: ['duration_minutes'] }]);
    });

    it('refuses a new slug the owner already uses with 409 slug_taken', async () => {
      await create({ slug: 'other', name: 'Other', duration_minutes: 30 });
      const seen = await scheduleErrorOf(
        call('ann', 'update_event_type', { params: { id: INTRO }, body: { slug: 'other' }, ifMatch: '1' }),
      );
      expect([seen.code, seen.details]).toEqual(['slug_taken', { fields: ['slug'] }]);
    });

    it('renaming the slug keeps the id: bookings made before point at it and show the new slug; the new slug books, the old is unknown', async () => {
      const before = await book('2026-05-05T10:00:00Z');
      const renamed = await patch(INTRO, { slug: 'hello' }, '1');
      expect(renamed.id).toBe(INTRO);
      const again = (await call('ann', 'get_booking', { params: { uid: before.uid } })).outcome.data as Booking;
      expect([again.event_type_id, again.event_type_slug]).toEqual([INTRO, 'hello']);
      expect((await book('2026-05-05T11:00:00Z', { username: 'ann', event_slug: 'hello' })).event_type_id).toBe(INTRO);
      expect((await scheduleErrorOf(book('2026-05-05T12:00:00Z', { username: 'ann', event_slug: 'intro' }))).code).toBe(
        'event_type_not_found',
      );
    });

    it('a new duration and interval change the slots offered, never a booking already made', async () => {
      const made = await book('2026-05-05T10:00:00Z');
      expect((await slots(INTRO)).slice(0, 2)).toEqual([
        { start: '2026-05-05T09:00:00.000Z', end: '2026-05-05T09:30:00.000Z', available: true },
        { start: '2026-05-05T09:30:00.000Z', end: '2026-05-05T10:00:00.000Z', available: true },
      ]);
      await patch(INTRO, { duration_minutes: 60, slot_interval_minutes: 60 }, '1');
      expect((await slots(INTRO)).slice(0, 2)).toEqual([
        { start: '2026-05-05T09:00:00.000Z', end: '2026-05-05T10:00:00.000Z', available: true },
        { start: '2026-05-05T11:00:00.000Z', end: '2026-05-05T12:00:00.000Z', available: true },
      ]);
      const kept = (await call('ann', 'get_booking', { params: { uid: made.uid } })).outcome.data as Booking;
      expect([kept.start_at, kept.end_at, kept.version]).toEqual(['2026-05-05T10:00:00.000Z', '2026-05-05T10:30:00.000Z', 1]);
      expect((await book('2026-05-05T14:00:00Z')).end_at).toBe('2026-05-05T15:00:00.000Z');
    });

    it('status off takes no bookings and offers no slots; the bookings made before stay', async () => {
      const made = await book('2026-05-05T10:00:00Z');
      await patch(INTRO, { status: 'off' }, '1');
      expect(await slots(INTRO)).toEqual([]);
      expect((await scheduleErrorOf(book('2026-05-05T11:00:00Z'))).code).toBe('event_type_inactive');
      expect(((await call('ann', 'get_booking', { params: { uid: made.uid } })).outcome.data as Booking).status).toBe('confirmed');
    });
  });

  describe('location', () => {
    it('a booking of a type with a fixed link meets there; of a type without one at its own generated link', async () => {
      await patch(INTRO, { location: { type: 'link', url: 'https://meet.example.com/ann' } }, '1');
      expect((await book('2026-05-05T10:00:00Z')).location).toEqual({ type: 'link', url: 'https://meet.example.com/ann', value: null });
      await patch(INTRO, { location: { type: 'in_person', value: 'Main St 1' } }, '2');
      expect((await book('2026-05-05T11:00:00Z')).location).toEqual({ type: 'in_person', url: null, value: 'Main St 1' });
      await patch(INTRO, { location: { type: 'conference' } }, '3');
      const generated = await book('2026-05-05T12:00:00Z');
      expect(generated.location).toEqual({ type: 'conference', url: `https://meet.test/${generated.uid}`, value: null });
    });
  });

  describe('DELETE /v1/event-types/:id', () => {
    it('archives: GET answers it with archived_at, it is not listed, not bookable, no slots; records event_type.deleted once', async () => {
      const made = await book('2026-05-05T10:00:00Z');
      clock.set('2026-05-04T09:00:00.000Z');
      const { outcome } = await call('ann', 'delete_event_type', { params: { id: INTRO } });
      const data = outcome.data as EventType;
      expect(outcome).toEqual({ status: 200, version: 2, data });
      expect(data).toMatchObject({ id: INTRO, slug: 'intro', archived_at: '2026-05-04T09:00:00.000Z', version: 2 });
      expect((await call('ann', 'get_event_type', { params: { id: INTRO } })).outcome.data).toEqual(data);
      expect(await listed()).toEqual([]);
      expect(await slots(INTRO)).toEqual([]);
      expect((await scheduleErrorOf(book('2026-05-05T11:00:00Z'))).code).toBe('event_type_inactive');
      const kept = (await call('ann', 'get_booking', { params: { uid: made.uid } })).outcome.data as Booking;
      expect([kept.status, kept.event_type_id, kept.event_type_slug]).toEqual(['confirmed', INTRO, 'intro']);
      // Again: the same answer, nothing recorded twice.
      expect((await call('ann', 'delete_event_type', { params: { id: INTRO } })).outcome.data).toEqual(data);
      expect((await events()).map((e) => e.event_type)).toEqual(['event_type.deleted']);
      expect(JSON.parse((await events())[0]!.payload_json)).toEqual(data);
    });

    it('frees the slug: a new type takes it with a new id; the archived one keeps showing it', async () => {
      await call('ann', 'delete_event_type', { params: { id: INTRO } });
      const fresh = await create({ slug: 'intro', name: 'New intro', duration_minutes: 20 });
      expect(fresh.id).not.toBe(INTRO);
      expect(await listed()).toEqual(['intro']);
      expect(((await call('ann', 'get_event_type', { params: { id: INTRO } })).outcome.data as EventType).slug).toBe('intro');
      expect((await book('2026-05-05T10:00:00Z', { username: 'ann', event_slug: 'intro' })).event_type_id).toBe(fresh.id);
    });

    it('leaves an archived type as it was: PATCH is 422 invalid_change, naming no field', async () => {
      await call('ann', 'delete_event_type', { params: { id: INTRO } });
      expect(
        await scheduleErrorOf(call('ann', 'update_event_type', { params: { id: INTRO }, body: { name: 'Back' }, ifMatch: '2' })),
      ).toEqual({
        code: 'invalid_change',
        message: 'An archived event type cannot be changed; create a new one.',
        details: { fields: [] },
        retryAfterSeconds: undefined,
      });
    });

    it('is refused for a type of someone the caller may not act for (404) and without the scope', async () => {
      expect((await scheduleErrorOf(call('bob', 'delete_event_type', { params: { id: INTRO } }))).code).toBe('event_type_not_found');
      expect((await scheduleErrorOf(call('annRead', 'delete_event_type', { params: { id: INTRO } }))).code).toBe('insufficient_scope');
    });
  });

  describe('an active series whose type is switched off', () => {
    const SERIES = {
      host_user_id: ANN,
      event_type_id: INTRO,
      attendee: ATTENDEE,
      frequency: 'weekly',
      weekdays: ['tue'],
      time: '10:00',
      timezone: 'UTC',
      starts_on: '2026-05-05',
      count: 3,
    };

    it('keeps its booked occurrences; a resume books none of the held dates (cause event_type_inactive); new series are refused', async () => {
      const created = (await call('ann', 'create_series', { body: SERIES })).outcome.data as { series: { uid: string; version: number } };
      const uid = created.series.uid;
      await patch(INTRO, { status: 'off' }, '1');
      const occurrences = async () =>
        ((await call('ann', 'list_bookings', { query: { series_id: uid } })).outcome as ListOutcome).data.map((b) => (b as Booking).status);
      expect(await occurrences()).toEqual(['confirmed', 'confirmed', 'confirmed']);

      expect((await call('ann', 'pause_series', { params: { uid } })).outcome.data).toEqual({ held: 3, superseded: false });
      const resumed = (await call('ann', 'resume_series', { params: { uid } })).outcome.data as {
        created: number;
        owed: number;
        skipped: { cause: string }[];
      };
      // Held dates stay owed: switching the type on again and resuming after a pause books them.
      expect([resumed.created, resumed.owed]).toEqual([0, 3]);
      expect(resumed.skipped.map((s) => s.cause)).toEqual(['event_type_inactive', 'event_type_inactive', 'event_type_inactive']);
      expect(await occurrences()).toEqual(['canceled', 'canceled', 'canceled']);
      expect((await scheduleErrorOf(call('ann', 'create_series', { body: { ...SERIES, starts_on: '2026-05-12' } }))).code).toBe(
        'event_type_inactive',
      );
      // Switched on again, the next pause and resume books what is owed.
      await patch(INTRO, { status: 'on' }, '2');
      await call('ann', 'pause_series', { params: { uid } });
      expect((await call('ann', 'resume_series', { params: { uid } })).outcome.data).toMatchObject({ created: 3, owed: 0 });
    });

    it('recurring off refuses new series with 409 recurring_disabled', async () => {
      await patch(INTRO, { recurring: 'off' }, '1');
      expect((await scheduleErrorOf(call('ann', 'create_series', { body: SERIES }))).code).toBe('recurring_disabled');
    });
  });

  describe('fields the view and a booking show as stored', () => {
    it('allow_reschedule and attendee_mail false read back false; a phone location is the booking location value', async () => {
      const made = await create({
        slug: 'by-phone',
        name: 'By phone',
        duration_minutes: 30,
        allow_reschedule: false,
        attendee_mail: false,
        location: { type: 'phone', value: '+1 555 0100' },
      });
      expect([made.allow_reschedule, made.attendee_mail]).toEqual([false, false]);
      const fetched = (await call('ann', 'get_event_type', { params: { id: made.id } })).outcome.data as EventType;
      expect([fetched.allow_reschedule, fetched.attendee_mail]).toEqual([false, false]);
      const booked = await book('2026-05-05T10:00:00Z', { event_type_id: made.id });
      expect(booked.location).toEqual({ type: 'phone', url: null, value: '+1 555 0100' });
    });

    it('requires_confirmation is stored, read back and changed by PATCH; a booking of the type then starts pending', async () => {
      const made = await create({ slug: 'approve', name: 'Approve', duration_minutes: 30, requires_confirmation: true });
      expect(made.requires_confirmation).toBe(true);
      const fetched = (await call('ann', 'get_event_type', { params: { id: made.id } })).outcome.data as EventType;
      expect(fetched.requires_confirmation).toBe(true);
      expect((await book('2026-05-05T10:00:00Z', { event_type_id: made.id })).status).toBe('pending');
      const patched = (
        await call('ann', 'update_event_type', { params: { id: made.id }, body: { requires_confirmation: false }, ifMatch: '"1"' })
      ).outcome.data as EventType;
      expect([patched.requires_confirmation, patched.version]).toEqual([false, 2]);
      expect((await book('2026-05-05T11:00:00Z', { event_type_id: made.id })).status).toBe('confirmed');
    });

    it('visibility is public unless declared; hidden and private are stored, changed by PATCH and read back; anything else is refused', async () => {
      const hidden = await create({ slug: 'by-link', name: 'By link', duration_minutes: 30, visibility: 'hidden' });
      expect(hidden.visibility).toBe('hidden');
      const fetched = (await call('ann', 'get_event_type', { params: { id: hidden.id } })).outcome.data as EventType;
      expect(fetched.visibility).toBe('hidden');
      expect((await patch(hidden.id, { visibility: 'private' }, '1')).visibility).toBe('private');
      expect((await patch(hidden.id, { visibility: 'public' }, '2')).visibility).toBe('public');
      const refused = await scheduleErrorOf(create({ slug: 'odd', name: 'Odd', duration_minutes: 30, visibility: 'secret' }));
      expect(refused).toMatchObject({ code: 'validation_error', details: { fields: ['visibility'] } });
      const stored = await store.db.selectFrom('event_types').select('visibility').where('id', '=', INTRO).executeTakeFirstOrThrow();
      expect(stored.visibility).toBe('public');
    });

    it('a manager names the owner by an upper-case user_id', async () => {
      expect((await create({ owner: ANN.toUpperCase(), slug: 'by-id', name: 'By id', duration_minutes: 15 }, 'mia')).owner).toEqual({
        user_id: ANN,
        username: 'ann',
      });
    });
  });

  describe('refusals in their exact words', () => {
    it('a repeated question id names the id', async () => {
      const questions = [
        { id: 'topic', label: 'A' },
        { id: 'topic', label: 'B' },
      ];
      const seen = await scheduleErrorOf(
        call('ann', 'create_event_type', { body: { slug: 'q', name: 'Q', duration_minutes: 30, questions } }),
      );
      expect([seen.code, seen.message, seen.details.fields]).toEqual([
        'validation_error',
        'questions.1.id: "topic" is used twice',
        ['questions.1.id'],
      ]);
    });

    it('field_immutable lists the fields in its message', async () => {
      const seen = await scheduleErrorOf(
        call('ann', 'update_event_type', { params: { id: INTRO }, body: { version: 3, created_at: T0 }, ifMatch: '1' }),
      );
      expect(seen).toEqual({
        code: 'field_immutable',
        message: 'These fields cannot be patched: version, created_at.',
        details: { fields: ['version', 'created_at'] },
        retryAfterSeconds: undefined,
      });
    });
  });

  describe('the writers underneath the operations', () => {
    const writeDeps = () => ({ clock, ids: randomIds, dialect: store.dialect });
    const fields = (slug: string) => ({ ...eventTypeDeclaration.parse({ slug, name: 'Written', duration_minutes: 30 }), hosts: [] });
    const versionOf = async (id: string) =>
      (await store.db.selectFrom('event_types').select('version').where('id', '=', id).executeTakeFirstOrThrow()).version;

    it('writeEventTypeFields answers whether it wrote: a first write and a change do, the same fields again do not', async () => {
      const target = { id: randomIds.uuid(), ownerId: ANN, now: T0 };
      expect(await writeEventTypeFields(store.db, writeDeps(), target, fields('written'))).toBe(true);
      expect(await writeEventTypeFields(store.db, writeDeps(), target, fields('written'))).toBe(false);
      expect(await versionOf(target.id)).toBe(1);
      expect(await writeEventTypeFields(store.db, writeDeps(), target, { ...fields('written'), name: 'Renamed' })).toBe(true);
      expect(await versionOf(target.id)).toBe(2);
    });

    it('checkSlugFree finds the slug taken unless the type holding it is the one excepted', async () => {
      await expect(checkSlugFree(store.db, ANN, 'intro', INTRO)).resolves.toBeUndefined();
      await expect(checkSlugFree(store.db, ANN, 'free-slug')).resolves.toBeUndefined();
      expect((await scheduleErrorOf(checkSlugFree(store.db, ANN, 'intro'))).code).toBe('slug_taken');
      expect((await scheduleErrorOf(checkSlugFree(store.db, ANN, 'intro', UNKNOWN))).code).toBe('slug_taken');
    });

    it('archiveEventTypeRow leaves an archived or unknown type as it was', async () => {
      await archiveEventTypeRow(store.db, INTRO, T0);
      await archiveEventTypeRow(store.db, INTRO, '2026-05-04T09:00:00.000Z');
      await archiveEventTypeRow(store.db, UNKNOWN, T0);
      expect(
        await store.db
          .selectFrom('event_types')
          .select(['slug', 'archived_slug', 'archived_at', 'version'])
          .where('id', '=', INTRO)
          .execute(),
      ).toEqual([{ slug: `~${INTRO}`, archived_slug: 'intro', archived_at: T0, version: 2 }]);
    });

    it('a PATCH overtaken between its read and its write is 409 version_conflict at the version that overtook it', async () => {
      // Another writer has made version 2; the PATCH's read is made to see version 1, as if it read just before that write.
      await store.db.updateTable('event_types').set({ name: 'Other writer', version: 2 }).where('id', '=', INTRO).execute();
      let reads = 0;
      const overtaken = store.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async ({ result }) =>
          ++reads === 1 ? { ...result, rows: result.rows.map((row) => ({ ...row, version: 1 })) } : result,
      });
      const seen = await scheduleErrorOf(updateEventType(overtaken, writeDeps(), who.ann, INTRO, parseIfMatch('"1"'), { name: 'Late' }));
      expect([seen.code, seen.details]).toEqual(['version_conflict', { current_version: 2 }]);
      expect(await store.db.selectFrom('event_types').select(['name', 'version']).where('id', '=', INTRO).execute()).toEqual([
        { name: 'Other writer', version: 2 },
      ]);
      expect(await events()).toEqual([]);
    });
  });

  describe('the event type availability and bookings read', () => {
    const setOrganizationMail = (on: number) => store.db.updateTable('organization').set({ attendee_mail: on }).execute();
    const setTypeMail = (on: number) => store.db.updateTable('event_types').set({ attendee_mail: on }).where('id', '=', INTRO).execute();

    it('attendee mail is on only when neither the type nor the workspace turned it off', async () => {
      // The read is a prepared query, built once per database: a handle of its own builds it again within this test.
      const db = unprepared(store.db);
      try {
        for (const [type, organization, expected] of [
          [1, 1, true],
          [0, 1, false],
          [1, 0, false],
          [0, 0, false],
        ] as const) {
          await setTypeMail(type);
          await setOrganizationMail(organization);
          expect([type, organization, (await eventTypeById(db, INTRO))?.attendeeMail]).toEqual([type, organization, expected]);
          expect((await resolveEventType(db, who.ann, { eventTypeId: INTRO })).attendeeMail).toBe(expected);
          expect((await resolveEventType(db, who.ann, { username: 'ann', eventSlug: 'intro' })).attendeeMail).toBe(expected);
        }
      } finally {
        await setTypeMail(1);
        await setOrganizationMail(1);
      }
    });

    it('allow_reschedule reads as stored', async () => {
      expect((await eventTypeById(store.db, INTRO))?.allowReschedule).toBe(true);
      await store.db.updateTable('event_types').set({ allow_reschedule: 0 }).where('id', '=', INTRO).execute();
      try {
        expect((await eventTypeById(store.db, INTRO))?.allowReschedule).toBe(false);
      } finally {
        await store.db.updateTable('event_types').set({ allow_reschedule: 1 }).where('id', '=', INTRO).execute();
      }
    });

    it('an archived type and a deactivated host read as status off', async () => {
      expect((await eventTypeById(store.db, INTRO))?.status).toBe('on');
      await store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', '=', ANN).execute();
      try {
        expect((await eventTypeById(store.db, INTRO))?.status).toBe('off');
      } finally {
        await store.db.updateTable('users').set({ deactivated_at: null }).where('id', '=', ANN).execute();
      }
      await archiveEventTypeRow(store.db, INTRO, T0);
      expect((await eventTypeById(store.db, INTRO))?.status).toBe('off');
    });
  });

  describe('the workspace file', () => {
    it('loads description and location through the same writer; an unchanged reload keeps the version', async () => {
      const file = {
        ...WORKSPACE,
        event_types: [{ ...WORKSPACE.event_types[0], description: 'From the file', location: { type: 'phone', value: '+1 555 0100' } }],
      };
      await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(file)));
      const loaded = (await call('ann', 'get_event_type', { params: { id: INTRO } })).outcome.data as EventType;
      expect(loaded).toMatchObject({ description: 'From the file', location: { type: 'phone', value: '+1 555 0100' }, version: 2 });
      await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(file)));
      expect(((await call('ann', 'get_event_type', { params: { id: INTRO } })).outcome.data as EventType).version).toBe(2);
      await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(WORKSPACE)));
    });

    it('refuses the same field rules as the API, with the field named', () => {
      const bad = {
        ...WORKSPACE,
        event_types: [
          {
            ...WORKSPACE.event_types[0],
            questions: [
              { id: 'a', label: 'A' },
              { id: 'a', label: 'B' },
            ],
          },
        ],
      };
      expect(() => parseWorkspace(JSON.stringify(bad))).toThrow(/event_types\[0\]\.questions\[1\]\.id/);
    });
  });
});

describe('who receives event_type.* webhooks', () => {
  const view = { id: INTRO, owner: { user_id: ANN, username: 'ann' } };
  const subscriber = (ownerId: string, reach: ActsFor) =>
    ({ events: new Set(['event_type.updated']), createdAt: T0, reach, owner_user_id: ownerId }) as unknown as Subscriber;

  it('the owner and those who may act for them, as for bookings: the payload names the owner', () => {
    expect(hostOf(view)).toBe(ANN);
    const ann = subscriber(ANN, { kind: 'users', ids: new Set([ANN]) });
    const bob = subscriber(BOB, { kind: 'users', ids: new Set([BOB]) });
    const admin = subscriber(MIA, { kind: 'organization' });
    expect(receiversOf([ann, bob, admin], { type: 'event_type.updated', createdAt: T0, host: hostOf(view) })).toEqual([ann, admin]);
  });
});
