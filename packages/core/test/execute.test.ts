import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { ScheduleError } from '../src/errors.js';
import { getBookingOperation, updateBookingOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { ALICE, INTRO, loadOrganization, principalOf, SECRET } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

const T0 = '2026-02-01T12:00:00.000Z';
const T1 = '2026-02-01T13:00:00.000Z';

const B_ALICE = '30000000-0000-4000-8000-0000000000a1';
const B_URSULA = '30000000-0000-4000-8000-000000000002';
const B_OSCAR = '30000000-0000-4000-8000-000000000003';
const UNKNOWN = '30000000-0000-4000-8000-0000000000ff';

const ALICE_METADATA = { source: 'import', nested: { a: 1, b: 2 } };
const ALICE_RESPONSES = { topic: 'pricing', notes: 'call me' };

/** Alice's booking as the API shows it right after the import. */
function aliceBooking(changes: Record<string, unknown> = {}) {
  return {
    uid: B_ALICE,
    version: 1,
    event_type_id: INTRO,
    event_type_slug: 'intro',
    title: 'Intro call between Alice Host and Bob',
    status: 'confirmed',
    start_at: '2026-03-02T09:00:00.000Z',
    end_at: '2026-03-02T09:30:00.000Z',
    timezone: 'UTC',
    host: { user_id: ALICE, username: 'alice', email: 'alice@acme.test' },
    hosts: [{ user_id: ALICE, username: 'alice', email: 'alice@acme.test' }],
    attendees: [{ email: 'bob@example.com', name: 'Bob', timezone: 'UTC' }],
    guests: [],
    location: { type: 'conference', url: null, value: null },
    metadata: ALICE_METADATA,
    responses: ALICE_RESPONSES,
    calendar_sync_status: 'not_applicable',
    calendar_event_id: '',
    rescheduled_from_uid: null,
    cancelled_at: null,
    cancellation_reason: null,
    no_show_at: null,
    no_show_reason: null,
    created_at: T0,
    updated_at: T0,
    ...changes,
  };
}

const notFound = (uid: string) => ({ code: 'booking_not_found', details: { uid }, retryAfterSeconds: undefined });

describe.each(storeFixtures())('execute on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let alice: Principal;

  beforeEach(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadOrganization({ store, clock }, [
      { uid: B_ALICE, host: 'alice', start: '2026-03-02T09:00:00Z', metadata: ALICE_METADATA, responses: ALICE_RESPONSES },
      { uid: B_URSULA, host: 'ursula', start: '2026-03-03T10:00:00Z' },
      { uid: B_OSCAR, host: 'oscar', start: '2026-03-04T11:00:00Z' },
    ]);
    alice = await principalOf({ store, clock }, SECRET.aliceAll);
    clock.set(T1);
  });
  afterAll(() => fixture.cleanup());

  interface Headers {
    key?: string | undefined;
    ifMatch?: string | undefined;
  }
  const patch = (principal: Principal, uid: string, body: unknown, headers: Headers = {}, requestId = 'req-1') =>
    execute(
      deps,
      updateBookingOperation,
      principal,
      {
        params: { uid },
        query: {},
        body,
        idempotencyKey: 'key' in headers ? headers.key : 'key-1',
        ifMatch: 'ifMatch' in headers ? headers.ifMatch : '"1"',
      },
      requestId,
    );
  const read = async (uid: string) =>
    (await execute(deps, getBookingOperation, alice, { params: { uid }, query: {}, body: undefined }, 'req-read')).outcome;
  const outbox = () => store.db.selectFrom('outbox').selectAll().execute();

  describe('the cross-cutting rules', () => {
    it('refuses a token without the scope, naming the scope, and changes nothing', async () => {
      const readOnly = await principalOf({ store, clock }, SECRET.aliceReadOnly);
      expect(await scheduleErrorOf(patch(readOnly, B_ALICE, { metadata: { x: 1 } }))).toEqual({
        code: 'insufficient_scope',
        message: 'This token lacks the scope bookings:update.',
        details: { required_scope: 'bookings:update' },
        retryAfterSeconds: undefined,
      });
      expect(await read(B_ALICE)).toEqual({ status: 200, data: aliceBooking(), version: 1 });
    });

    it("asks a front end's last word only of a whole call, before any write or replay; a refusal there changes nothing", async () => {
      const asked: string[] = [];
      const refuse = async () => {
        asked.push('asked');
        throw new ScheduleError('validation_error', 'The user did not confirm; nothing was done.', { fields: ['confirm'] });
      };
      const patchWith = (body: unknown, beforeWork: () => Promise<void>, key = 'key-word') =>
        execute(
          deps,
          updateBookingOperation,
          alice,
          { params: { uid: B_ALICE }, query: {}, body, idempotencyKey: key, ifMatch: '"1"' },
          'r',
          beforeWork,
        );
      // A call that fails its own checks is never put to the user.
      expect(await scheduleErrorOf(patchWith({ metadata: 'not an object' }, refuse))).toMatchObject({
        code: 'validation_error',
        details: { fields: ['metadata'] },
      });
      expect(asked).toEqual([]);
      expect(await scheduleErrorOf(patchWith({ metadata: { x: 1 } }, refuse))).toMatchObject({ details: { fields: ['confirm'] } });
      expect(asked).toEqual(['asked']);
      expect(await read(B_ALICE)).toEqual({ status: 200, data: aliceBooking(), version: 1 });
      // Agreed: the write happens, once; its replay with the same key is asked again, and answers the same.
      const agreed = async () => {
        asked.push('agreed');
      };
      expect((await patchWith({ metadata: { x: 1 } }, agreed)).outcome.version).toBe(2);
      expect((await patchWith({ metadata: { x: 1 } }, agreed)).replayed).toBe(true);
      expect(asked).toEqual(['asked', 'agreed', 'agreed']);
    });

    it('refuses a PATCH without an Idempotency-Key', async () => {
      expect(await scheduleErrorOf(patch(alice, B_ALICE, { metadata: { x: 1 } }, { key: undefined }))).toEqual({
        code: 'missing_idempotency_key',
        message: 'This operation requires an Idempotency-Key.',
        details: {},
        retryAfterSeconds: undefined,
      });
    });

    it.each([
      ['256 characters long', 'k'.repeat(256)],
      ['empty', ''],
    ])('refuses an Idempotency-Key that is %s as validation_error', async (_, key) => {
      expect(await scheduleErrorOf(patch(alice, B_ALICE, { metadata: { x: 1 } }, { key }))).toEqual({
        code: 'validation_error',
        message: 'Idempotency-Key must be 1 to 255 characters.',
        details: { fields: ['Idempotency-Key'] },
        retryAfterSeconds: undefined,
      });
    });

    it('accepts an Idempotency-Key of 255 characters', async () => {
      const { outcome } = await patch(alice, B_ALICE, { metadata: { x: 1 } }, { key: 'k'.repeat(255) });
      expect(outcome.version).toBe(2);
    });

    it('refuses a PATCH without If-Match as missing_if_match and changes nothing', async () => {
      expect(await scheduleErrorOf(patch(alice, B_ALICE, { metadata: { x: 1 } }, { ifMatch: undefined }))).toEqual({
        code: 'missing_if_match',
        message: 'This operation requires an If-Match with the current version.',
        details: {},
        retryAfterSeconds: undefined,
      });
      expect((await read(B_ALICE)).version).toBe(1);
    });
  });

  describe('a successful PATCH', () => {
    it('bumps the version, answers the updated booking and stamps updated_at', async () => {
      const executed = await patch(alice, B_ALICE, { metadata: { x: 1 } });
      const updated = aliceBooking({ version: 2, metadata: { ...ALICE_METADATA, x: 1 }, updated_at: T1 });
      expect(executed).toEqual({ outcome: { status: 200, data: updated, version: 2 }, requestId: 'req-1', replayed: false });
      expect(await read(B_ALICE)).toEqual({ status: 200, data: updated, version: 2 });
    });

    it('records exactly one booking.updated event with the booking and changed_fields', async () => {
      await patch(alice, B_ALICE, { metadata: { x: 1 }, attendee_name: 'Robert' });
      const rows = await outbox();
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect({
        event_type: row?.event_type,
        subject_uid: row?.subject_uid,
        created_at: row?.created_at,
        dispatched_at: row?.dispatched_at,
      }).toEqual({
        event_type: 'booking.updated',
        subject_uid: B_ALICE,
        created_at: T1,
        dispatched_at: null,
      });
      expect(JSON.parse(row!.payload_json)).toEqual({
        ...aliceBooking({
          version: 2,
          metadata: { ...ALICE_METADATA, x: 1 },
          attendees: [{ email: 'bob@example.com', name: 'Robert', timezone: 'UTC' }],
          updated_at: T1,
        }),
        changed_fields: ['metadata', 'attendee_name'],
      });
    });

    it('names in changed_fields only the fields whose value changed', async () => {
      await patch(alice, B_ALICE, { metadata: { source: 'import' }, responses: { topic: 'demo' } });
      const [row] = await outbox();
      expect(JSON.parse(row!.payload_json).changed_fields).toEqual(['responses']);
    });

    it('merges metadata shallowly: top-level keys replaced or added, the rest kept', async () => {
      const { outcome } = await patch(alice, B_ALICE, { metadata: { nested: { a: 9 }, extra: true } });
      expect((outcome.data as { metadata: unknown }).metadata).toEqual({ source: 'import', nested: { a: 9 }, extra: true });
    });

    it('replaces responses wholesale', async () => {
      const { outcome } = await patch(alice, B_ALICE, { responses: { topic: 'demo' } });
      expect((outcome.data as { responses: unknown }).responses).toEqual({ topic: 'demo' });
    });

    it('stores attendee_name of 255 characters as the primary attendee name', async () => {
      const name = 'n'.repeat(255);
      const { outcome } = await patch(alice, B_ALICE, { attendee_name: name });
      expect((outcome.data as { attendees: unknown }).attendees).toEqual([{ email: 'bob@example.com', name, timezone: 'UTC' }]);
    });

    it.each([
      ['a bare version', '1'],
      ['*', '*'],
    ])('accepts If-Match as %s', async (_, ifMatch) => {
      const { outcome } = await patch(alice, B_ALICE, { metadata: { x: 1 } }, { ifMatch });
      expect(outcome.version).toBe(2);
    });

    it('lets a manager patch a booking of someone they manage', async () => {
      const mia = await principalOf({ store, clock }, SECRET.mia);
      const { outcome } = await patch(mia, B_URSULA, { metadata: { by: 'mia' } });
      expect({ version: outcome.version, metadata: (outcome.data as { metadata: unknown }).metadata }).toEqual({
        version: 2,
        metadata: { by: 'mia' },
      });
    });
  });

  describe('replays', () => {
    it('replays the same key and body with the original request id and data, without bumping the version again', async () => {
      const first = await patch(alice, B_ALICE, { metadata: { x: 1 } }, {}, 'req-first');
      clock.set('2026-02-01T14:00:00.000Z');
      const again = await patch(alice, B_ALICE, { metadata: { x: 1 } }, {}, 'req-again');
      expect(again).toEqual({ outcome: first.outcome, requestId: 'req-first', replayed: true });
      expect((await read(B_ALICE)).version).toBe(2);
      expect(await outbox()).toHaveLength(1);
    });

    it('replays a body whose keys come in another order', async () => {
      await patch(alice, B_ALICE, { metadata: { x: 1, y: 2 }, attendee_name: 'Rob' });
      const again = await patch(alice, B_ALICE, { attendee_name: 'Rob', metadata: { y: 2, x: 1 } }, {}, 'req-2');
      expect({ replayed: again.replayed, requestId: again.requestId }).toEqual({ replayed: true, requestId: 'req-1' });
    });

    it('replays even when the If-Match sent with the replay is now stale', async () => {
      await patch(alice, B_ALICE, { metadata: { x: 1 } });
      const again = await patch(alice, B_ALICE, { metadata: { x: 1 } }, { ifMatch: '"1"' }, 'req-2');
      expect({ replayed: again.replayed, version: again.outcome.version }).toEqual({ replayed: true, version: 2 });
    });

    it('refuses the same key with a different body as idempotency_key_conflict', async () => {
      await patch(alice, B_ALICE, { metadata: { x: 1 } });
      expect(await scheduleErrorOf(patch(alice, B_ALICE, { metadata: { x: 2 } }, { ifMatch: '"2"' }))).toEqual({
        code: 'idempotency_key_conflict',
        message: 'This Idempotency-Key was used within the last 24 hours with a different request.',
        details: {},
        retryAfterSeconds: undefined,
      });
      expect((await read(B_ALICE)).version).toBe(2);
    });

    it('refuses the same key and body on another booking as idempotency_key_conflict', async () => {
      await patch(alice, B_ALICE, { metadata: { x: 1 } });
      expect(await scheduleErrorOf(patch(alice, B_URSULA, { metadata: { x: 1 } }))).toEqual({
        code: 'idempotency_key_conflict',
        message: 'This Idempotency-Key was used within the last 24 hours with a different request.',
        details: {},
        retryAfterSeconds: undefined,
      });
      expect((await read(B_URSULA)).version).toBe(1);
    });

    it('treats the same key from another account as a new request', async () => {
      await patch(alice, B_ALICE, { metadata: { x: 1 } });
      const ada = await principalOf({ store, clock }, SECRET.ada);
      const other = await patch(ada, B_ALICE, { metadata: { x: 1 } }, { ifMatch: '"2"' }, 'req-ada');
      expect({ replayed: other.replayed, requestId: other.requestId, version: other.outcome.version }).toEqual({
        replayed: false,
        requestId: 'req-ada',
        version: 3,
      });
    });

    it('releases the key of a failed attempt so a retry with the same key proceeds', async () => {
      expect(await scheduleErrorOf(patch(alice, B_ALICE, { metadata: { x: 1 } }, { ifMatch: '"5"' }))).toEqual({
        code: 'version_conflict',
        message: 'The booking is at version 1.',
        details: { current_version: 1 },
        retryAfterSeconds: undefined,
      });
      const retried = await patch(alice, B_ALICE, { metadata: { x: 1 } }, { ifMatch: '"1"' }, 'req-retry');
      expect({ replayed: retried.replayed, requestId: retried.requestId, version: retried.outcome.version }).toEqual({
        replayed: false,
        requestId: 'req-retry',
        version: 2,
      });
    });
  });

  describe('refused bodies', () => {
    it('refuses fields that cannot be patched as field_immutable, naming each', async () => {
      const body = { start: '2026-03-09T09:00:00Z', metadata: { x: 1 }, status: 'canceled' };
      expect(await scheduleErrorOf(patch(alice, B_ALICE, body))).toEqual({
        code: 'field_immutable',
        message: 'These fields cannot be patched: start, status. Change start by reschedule and end a booking by cancel.',
        details: { fields: ['start', 'status'] },
        retryAfterSeconds: undefined,
      });
      expect((await read(B_ALICE)).version).toBe(1);
    });

    it('refuses attendee_name over 255 characters as validation_error', async () => {
      expect(await scheduleErrorOf(patch(alice, B_ALICE, { attendee_name: 'n'.repeat(256) }))).toEqual({
        code: 'validation_error',
        message: 'attendee_name: must be at most 255 characters',
        details: { fields: ['attendee_name'] },
        retryAfterSeconds: undefined,
      });
    });

    it.each([
      ['metadata that is an array', { metadata: [1] }, ['metadata'], 'metadata: must be an object'],
      ['metadata that is a string', { metadata: 'x' }, ['metadata'], 'metadata: must be an object'],
      ['responses that are null', { responses: null }, ['responses'], 'responses: must be an object'],
      ['an empty body', {}, [], 'Send at least one of metadata, responses, attendee_name.'],
      ['a body that is not an object', [], [], 'The body must be a JSON object.'],
    ])('refuses %s as validation_error', async (_, body, fields, message) => {
      expect(await scheduleErrorOf(patch(alice, B_ALICE, body))).toEqual({
        code: 'validation_error',
        message,
        details: { fields },
        retryAfterSeconds: undefined,
      });
    });
  });

  describe('preconditions and visibility', () => {
    it.each([
      ['a different version', '"2"'],
      ['an If-Match that does not parse', 'W/"1"'],
    ])('answers version_conflict with the current version to %s', async (_, ifMatch) => {
      expect(await scheduleErrorOf(patch(alice, B_ALICE, { metadata: { x: 1 } }, { ifMatch }))).toEqual({
        code: 'version_conflict',
        message: 'The booking is at version 1.',
        details: { current_version: 1 },
        retryAfterSeconds: undefined,
      });
    });

    it('lets exactly one of two simultaneous PATCHes of the same version win', async () => {
      const results = await Promise.allSettled([
        patch(alice, B_ALICE, { metadata: { by: 'one' } }, { key: 'key-one' }, 'req-one'),
        patch(alice, B_ALICE, { metadata: { by: 'two' } }, { key: 'key-two' }, 'req-two'),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
      expect(won).toHaveLength(1);
      expect(lost.map((e) => ({ code: e.code, details: e.details }))).toEqual([
        { code: 'version_conflict', details: { current_version: 2 } },
      ]);
      expect((await read(B_ALICE)).version).toBe(2);
      expect(await outbox()).toHaveLength(1);
    });

    it('answers a booking the caller cannot see exactly like an unknown one', async () => {
      const ursula = await principalOf({ store, clock }, SECRET.ursula);
      expect(await scheduleErrorOf(patch(ursula, B_ALICE, { metadata: { x: 1 } }))).toEqual({
        ...notFound(B_ALICE),
        message: 'No booking with this uid.',
      });
      expect(await scheduleErrorOf(patch(ursula, UNKNOWN, { metadata: { x: 1 } }, { key: 'key-2' }))).toEqual({
        ...notFound(UNKNOWN),
        message: 'No booking with this uid.',
      });
      expect((await read(B_ALICE)).version).toBe(1);
    });

    it('answers a uid that is not a UUID with booking_not_found', async () => {
      expect(await scheduleErrorOf(patch(alice, 'not-a-uuid', { metadata: { x: 1 } }))).toEqual({
        ...notFound('not-a-uuid'),
        message: 'No booking with this uid.',
      });
    });

    // Issue 29 item 13: a front end that can leave a path parameter out (an MCP tool) got booking_not_found for ''.
    it('answers a call without its uid at all with validation_error naming uid, before looking anything up', async () => {
      const call = { params: {}, query: {}, body: undefined };
      expect(await scheduleErrorOf(execute(deps, getBookingOperation, alice, call, 'req'))).toEqual({
        code: 'validation_error',
        message: 'uid: is required.',
        details: { fields: ['uid'] },
        retryAfterSeconds: undefined,
      });
    });

    it('finds a booking whose uid is sent in upper case', async () => {
      const { outcome } = await patch(alice, B_ALICE.toUpperCase(), { metadata: { x: 1 } });
      expect({ uid: (outcome.data as { uid: string }).uid, version: outcome.version }).toEqual({ uid: B_ALICE, version: 2 });
    });

    it('hides from a manager the booking of someone they do not manage', async () => {
      const mia = await principalOf({ store, clock }, SECRET.mia);
      expect(await scheduleErrorOf(patch(mia, B_OSCAR, { metadata: { x: 1 } }))).toEqual({
        ...notFound(B_OSCAR),
        message: 'No booking with this uid.',
      });
    });
  });
});
