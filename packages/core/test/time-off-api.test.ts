import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ListOutcome } from '../src/operations/operation.js';
import type { TimeOff } from '../src/time-off/time-off-view.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';
import {
  callAs,
  openTimeOffScenario,
  resetTimeOffScenario,
  type TimeOffScenario,
  TO_USERS,
  type ToCaller,
} from './support/time-off-calls.js';

// docs/api/time-off.md: every time-off operation through `execute`, on
// SQLite and PostgreSQL, with its refusals.

const T0 = '2026-12-01T09:00:00.000Z';
const UNKNOWN = 'b1000000-0000-4000-8000-0000000000ff';
const ANN = TO_USERS.ann;

const error = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });
const badFields = (...fields: string[]) => error('validation_error', { fields });
const notAllowed = error('host_not_allowed', { fields: ['user_id'] });

describe.each(storeFixtures())('time off on $name', (fixture) => {
  let s: TimeOffScenario;

  beforeAll(async () => {
    s = await openTimeOffScenario(fixture, T0);
  });
  afterAll(() => fixture.cleanup());
  beforeEach(() => resetTimeOffScenario(s, T0));

  const call = (caller: ToCaller, name: Parameters<typeof callAs>[2], rest: Parameters<typeof callAs>[3] = {}) =>
    callAs(s.deps, s.who[caller], name, rest);
  const refusal = (caller: ToCaller, name: Parameters<typeof callAs>[2], rest: Parameters<typeof callAs>[3] = {}) =>
    scheduleErrorOf(call(caller, name, rest)).then(({ message: _, ...seen }) => seen);
  const create = async (body: Record<string, unknown>, user = 'me', caller: ToCaller = 'ann') =>
    (await call(caller, 'create_time_off', { params: { user_id: user }, body })).outcome.data as TimeOff;
  const events = () =>
    s.store.db.selectFrom('outbox').select(['event_type', 'subject_uid', 'payload_json']).orderBy('created_at').execute();

  describe('POST /v1/people/:user_id/time-off', () => {
    it('answers 201 with the range, version 1 and its Location; records time_off.created with the range', async () => {
      const { outcome } = await call('ann', 'create_time_off', {
        params: { user_id: 'me' },
        body: { start: '2026-12-10T12:00:00+01:00', end: '2026-12-10T15:30:00+01:00', reason: 'Dentist' },
      });
      const data = outcome.data as TimeOff;
      const expected = {
        id: data.id,
        user_id: ANN,
        start_at: '2026-12-10T11:00:00.000Z',
        end_at: '2026-12-10T14:30:00.000Z',
        reason: 'Dentist',
        created_at: T0,
        updated_at: T0,
        version: 1,
      };
      expect(outcome).toEqual({ status: 201, version: 1, location: `/v1/people/${ANN}/time-off/${data.id}`, data: expected });
      expect(await events()).toEqual([{ event_type: 'time_off.created', subject_uid: data.id, payload_json: JSON.stringify(expected) }]);
    });

    it('takes a whole day in the zone of the working hours: start_date alone is that day, midnight to midnight Berlin', async () => {
      const data = await create({ start_date: '2026-12-11' });
      expect([data.start_at, data.end_at, data.reason]).toEqual(['2026-12-10T23:00:00.000Z', '2026-12-11T23:00:00.000Z', null]);
    });

    it('takes end_date as the last whole day off, across a DST change (23-hour day in March)', async () => {
      const data = await create({ start_date: '2027-03-27', end_date: '2027-03-28' });
      expect([data.start_at, data.end_at]).toEqual(['2027-03-26T23:00:00.000Z', '2027-03-28T22:00:00.000Z']);
    });

    it('reads dates in the zone of the working hours when it differs from the person’s own', async () => {
      const hours = s.store.db.selectFrom('users').select(['schedule_json', 'schedule_version']).where('id', '=', ANN);
      const kept = await hours.executeTakeFirstOrThrow();
      await call('ann', 'replace_availability', {
        params: { user_id: 'me' },
        body: { timezone: 'America/New_York', weekly: { mon: [['09:00', '17:00']] } },
        ifMatch: '*',
      });
      try {
        const data = await create({ start_date: '2026-12-11' });
        expect([data.start_at, data.end_at]).toEqual(['2026-12-11T05:00:00.000Z', '2026-12-12T05:00:00.000Z']);
      } finally {
        // The other tests read Ann's days in Berlin.
        await s.store.db.updateTable('users').set(kept).where('id', '=', ANN).execute();
      }
    });

    it('mixes an instant start with a whole end day', async () => {
      const data = await create({ start: '2026-12-11T14:00:00+01:00', end_date: '2026-12-13' });
      expect([data.start_at, data.end_at]).toEqual(['2026-12-11T13:00:00.000Z', '2026-12-13T23:00:00.000Z']);
    });

    it.each([
      ['no start at all', { end: '2026-12-10T15:00:00Z' }, ['start', 'start_date']],
      ['a start instant without an end', { start: '2026-12-10T15:00:00Z' }, ['end', 'end_date']],
      ['start and start_date together', { start: '2026-12-10T15:00:00Z', start_date: '2026-12-10' }, ['start', 'start_date']],
      ['end and end_date together', { start_date: '2026-12-10', end: '2026-12-12T00:00:00Z', end_date: '2026-12-11' }, ['end', 'end_date']],
      ['an end equal to the start', { start: '2026-12-10T15:00:00Z', end: '2026-12-10T15:00:00Z' }, ['end']],
      ['an end before the start', { start: '2026-12-10T15:00:00Z', end: '2026-12-10T14:59:00Z' }, ['end']],
      ['an end_date before the start_date', { start_date: '2026-12-10', end_date: '2026-12-09' }, ['end_date']],
      ['more than 366 days', { start: '2026-12-10T00:00:00Z', end: '2027-12-11T00:00:00.001Z' }, ['end']],
      ['a zone-less start', { start: '2026-12-10T15:00:00', end: '2026-12-10T16:00:00Z' }, ['start']],
      ['a date that does not exist', { start_date: '2026-02-30' }, ['start_date']],
      ['a reason over 255 characters', { start_date: '2026-12-10', reason: 'x'.repeat(256) }, ['reason']],
      ['a field it does not take', { start_date: '2026-12-10', all_day: true }, ['all_day']],
    ])('refuses %s: 400 validation_error naming the fields', async (_, body, fields) => {
      expect(await refusal('ann', 'create_time_off', { params: { user_id: 'me' }, body })).toEqual(badFields(...fields));
      expect(await s.store.db.selectFrom('time_off').selectAll().execute()).toEqual([]);
    });

    it.each([
      [{ end: '2026-12-10T15:00:00Z' }, 'Send start (an instant) or start_date (a whole day).'],
      [{ start: '2026-12-10T15:00:00Z' }, 'Send end (an instant) or end_date (a whole day) with start.'],
      [{ start: '2026-12-10T15:00:00Z', start_date: '2026-12-10' }, 'Send start or start_date, not both.'],
      [{ start_date: '2026-12-10', end: '2026-12-12T00:00:00Z', end_date: '2026-12-11' }, 'Send end or end_date, not both.'],
      [{ start_date: '2026-12-10', end_date: '2026-12-09' }, 'end_date: the range must end after it starts.'],
      [
        { start: '2026-12-10T00:00:00Z', end: '2027-12-11T00:00:00.001Z' },
        'end: a range lasts at most 366 days; send a longer absence as several ranges.',
      ],
    ])('says what to send instead: %j', async (body, message) => {
      const refused = await scheduleErrorOf(call('ann', 'create_time_off', { params: { user_id: 'me' }, body }));
      expect(refused.message).toBe(message);
    });

    it('takes exactly 366 days, and a reason of 255 characters', async () => {
      const data = await create({ start: '2026-12-10T00:00:00Z', end: '2027-12-11T00:00:00Z', reason: 'x'.repeat(255) });
      expect(data.end_at).toBe('2027-12-11T00:00:00.000Z');
    });

    it('counts the 366 days on the wall clock: 366 whole days from summer to winter time are 366 days and an hour', async () => {
      const data = await create({ start_date: '2027-10-30', end_date: '2028-10-29' });
      expect([data.start_at, data.end_at]).toEqual(['2027-10-29T22:00:00.000Z', '2028-10-29T23:00:00.000Z']);
      expect(
        await refusal('ann', 'create_time_off', { params: { user_id: 'me' }, body: { start_date: '2027-10-30', end_date: '2028-10-30' } }),
      ).toEqual(badFields('end_date'));
    });

    it('requires an Idempotency-Key, and a replay answers the first create without a second range', async () => {
      expect(await refusal('ann', 'create_time_off', { params: { user_id: 'me' }, body: { start_date: '2026-12-10' }, key: null })).toEqual(
        error('missing_idempotency_key'),
      );
      const first = await call('ann', 'create_time_off', { params: { user_id: 'me' }, body: { start_date: '2026-12-10' }, key: 'k1' });
      const again = await call('ann', 'create_time_off', { params: { user_id: 'me' }, body: { start_date: '2026-12-10' }, key: 'k1' });
      expect(again.outcome).toEqual(first.outcome);
      expect(await s.store.db.selectFrom('time_off').select('id').execute()).toHaveLength(1);
    });

    it('lets a manager add time off for someone they manage and an admin for anyone, by id or username', async () => {
      expect((await create({ start_date: '2026-12-10' }, 'ann', 'mia')).user_id).toBe(ANN);
      expect((await create({ start_date: '2026-12-11' }, ANN.toUpperCase(), 'ada')).user_id).toBe(ANN);
    });

    it('refuses a user the caller may not act for, and an unknown one, alike: 403 host_not_allowed', async () => {
      const body = { start_date: '2026-12-10' };
      expect(await refusal('ben', 'create_time_off', { params: { user_id: ANN }, body })).toEqual(notAllowed);
      expect(await refusal('ann', 'create_time_off', { params: { user_id: 'mia' }, body })).toEqual(notAllowed);
      expect(await refusal('ann', 'create_time_off', { params: { user_id: UNKNOWN }, body })).toEqual(notAllowed);
      expect(await refusal('ann', 'create_time_off', { params: { user_id: 'nobody' }, body })).toEqual(notAllowed);
      expect(await s.store.db.selectFrom('time_off').selectAll().execute()).toEqual([]);
    });

    it('needs availability:write', async () => {
      expect(await refusal('annRead', 'create_time_off', { params: { user_id: 'me' }, body: { start_date: '2026-12-10' } })).toEqual(
        error('insufficient_scope', { required_scope: 'availability:write' }),
      );
    });
  });

  describe('GET /v1/people/:user_id/time-off and /:id', () => {
    it('answers one range with its version; another user’s id, an unknown one and a malformed one are 404', async () => {
      const made = await create({ start_date: '2026-12-10' });
      expect((await call('annRead', 'get_time_off', { params: { user_id: 'me', id: made.id } })).outcome).toEqual({
        status: 200,
        data: made,
        version: 1,
      });
      const bens = await create({ start_date: '2026-12-10' }, 'me', 'ben');
      for (const id of [bens.id, UNKNOWN, 'nope']) {
        expect(await refusal('ann', 'get_time_off', { params: { user_id: 'me', id } })).toEqual(error('time_off_not_found', { id }));
      }
      expect(await refusal('ben', 'get_time_off', { params: { user_id: ANN, id: made.id } })).toEqual(notAllowed);
    });

    it('lists earliest start first, pages by cursor, and keeps only ranges overlapping from/to', async () => {
      const c = await create({ start_date: '2026-12-20' });
      const a = await create({ start_date: '2026-12-05' });
      const b = await create({ start: '2026-12-10T10:00:00Z', end: '2026-12-10T12:00:00Z' });
      const first = (await call('ann', 'list_time_off', { params: { user_id: 'me' }, query: { limit: '2' } })).outcome as ListOutcome;
      expect(first.data).toEqual([a, b]);
      expect(first.page.hasMore).toBe(true);
      const second = (
        await call('ann', 'list_time_off', { params: { user_id: 'me' }, query: { limit: '2', cursor: first.page.nextCursor } })
      ).outcome as ListOutcome;
      expect(second).toEqual({ status: 200, data: [c], page: { nextCursor: null, hasMore: false } });
      // Ends are exclusive: a range ending at `from` is not in it; one starting at `to` is not either.
      const window = { from: '2026-12-10T12:00:00Z', to: '2026-12-19T23:00:00Z' };
      expect((await call('ann', 'list_time_off', { params: { user_id: 'me' }, query: window })).outcome.data).toEqual([]);
      const wider = { from: '2026-12-10T11:59:59Z', to: '2026-12-19T23:00:00.001Z' };
      expect((await call('ann', 'list_time_off', { params: { user_id: 'me' }, query: wider })).outcome.data).toEqual([b, c]);
    });

    it('refuses a cursor of another user’s list, and a zone-less from', async () => {
      await create({ start_date: '2026-12-05' });
      await create({ start_date: '2026-12-06' });
      const page = (await call('ada', 'list_time_off', { params: { user_id: 'ann' }, query: { limit: '1' } })).outcome as ListOutcome;
      expect(await refusal('ada', 'list_time_off', { params: { user_id: 'ben' }, query: { cursor: page.page.nextCursor } })).toEqual(
        error('invalid_query_param', { param: 'cursor' }),
      );
      expect(await refusal('ann', 'list_time_off', { params: { user_id: 'me' }, query: { from: '2026-12-05T10:00:00' } })).toEqual(
        error('invalid_query_param', { param: 'from' }),
      );
    });

    it('refuses a cursor reused with another from or to: the window is part of the list', async () => {
      await create({ start_date: '2026-12-05' });
      await create({ start_date: '2026-12-06' });
      const window = { from: '2026-12-01', to: '2026-12-31' };
      const page = (await call('ann', 'list_time_off', { params: { user_id: 'me' }, query: { ...window, limit: '1' } }))
        .outcome as ListOutcome;
      for (const moved of [
        { ...window, from: '2026-12-02' },
        { ...window, to: '2026-12-30' },
      ]) {
        const query = { ...moved, cursor: page.page.nextCursor };
        expect(await refusal('ann', 'list_time_off', { params: { user_id: 'me' }, query })).toEqual(
          error('invalid_query_param', { param: 'cursor' }),
        );
      }
    });

    it('says why it refuses, in words: no such range, and a person the caller may not act for', async () => {
      const seen = (caller: ToCaller, params: Record<string, string>) =>
        scheduleErrorOf(call(caller, 'get_time_off', { params })).then((e) => e.message);
      expect(await seen('ann', { user_id: 'me', id: UNKNOWN })).toBe('No time off with this id for this user.');
      expect(await seen('ben', { user_id: ANN, id: UNKNOWN })).toBe('user_id is not someone this caller may act for.');
    });

    it('needs availability:read', async () => {
      expect(await refusal('annBookings', 'list_time_off', { params: { user_id: 'me' } })).toEqual(
        error('insufficient_scope', { required_scope: 'availability:read' }),
      );
    });
  });

  describe('PATCH /v1/people/:user_id/time-off/:id', () => {
    it('moves one end, keeps the other, bumps the version and records time_off.updated', async () => {
      const made = await create({ start_date: '2026-12-10', reason: 'Off' });
      s.clock.set('2026-12-01T10:00:00.000Z');
      const { outcome } = await call('ann', 'update_time_off', {
        params: { user_id: 'me', id: made.id },
        ifMatch: '"1"',
        body: { end_date: '2026-12-11' },
      });
      const expected = { ...made, end_at: '2026-12-11T23:00:00.000Z', updated_at: '2026-12-01T10:00:00.000Z', version: 2 };
      expect(outcome).toEqual({ status: 200, data: expected, version: 2 });
      expect((await events()).map((e) => [e.event_type, JSON.parse(e.payload_json)])).toEqual([
        ['time_off.created', made],
        ['time_off.updated', expected],
      ]);
    });

    it('clears the reason with null', async () => {
      const made = await create({ start_date: '2026-12-10', reason: 'Off' });
      const { outcome } = await call('ann', 'update_time_off', {
        params: { user_id: 'me', id: made.id },
        ifMatch: '*',
        body: { reason: null },
      });
      expect((outcome.data as TimeOff).reason).toBeNull();
    });

    it('requires If-Match, and answers a stale one 409 version_conflict with the current version', async () => {
      const made = await create({ start_date: '2026-12-10' });
      const params = { user_id: 'me', id: made.id };
      expect(await refusal('ann', 'update_time_off', { params, body: { reason: 'x' } })).toEqual(error('missing_if_match'));
      await call('ann', 'update_time_off', { params, ifMatch: '1', body: { reason: 'x' } });
      expect(await refusal('ann', 'update_time_off', { params, ifMatch: '"1"', body: { reason: 'y' } })).toEqual(
        error('version_conflict', { current_version: 2 }),
      );
    });

    it('names a field it does not take and the one meant, and refuses a patch that changes nothing, saying what it takes', async () => {
      const made = await create({ start_date: '2026-12-10' });
      const params = { user_id: 'me', id: made.id };
      const messageOf = async (body: unknown) =>
        (await scheduleErrorOf(call('ann', 'update_time_off', { params, ifMatch: '*', body }))).message;
      expect(await messageOf({ reasn: 'x' })).toBe(
        'Unknown fields: reasn. Send any of start, end, start_date, end_date, reason. Did you mean reason (not reasn)?',
      );
      expect(await messageOf({})).toBe('Send at least one of start, end, start_date, end_date, reason.');
    });

    it('checks the range that results: a start moved past the stored end names start', async () => {
      const made = await create({ start: '2026-12-10T10:00:00Z', end: '2026-12-10T12:00:00Z' });
      const params = { user_id: 'me', id: made.id };
      expect(await refusal('ann', 'update_time_off', { params, ifMatch: '*', body: { start: '2026-12-10T12:00:00Z' } })).toEqual(
        badFields('start'),
      );
      expect(await refusal('ann', 'update_time_off', { params, ifMatch: '*', body: {} })).toEqual(badFields());
      expect((await call('ann', 'get_time_off', { params })).outcome.version).toBe(1);
    });

    it('refuses another user’s range as not found, and a user the caller may not act for', async () => {
      const made = await create({ start_date: '2026-12-10' });
      expect(
        await refusal('ben', 'update_time_off', { params: { user_id: 'me', id: made.id }, ifMatch: '*', body: { reason: 'x' } }),
      ).toEqual(error('time_off_not_found', { id: made.id }));
      expect(
        await refusal('ben', 'update_time_off', { params: { user_id: ANN, id: made.id }, ifMatch: '*', body: { reason: 'x' } }),
      ).toEqual(notAllowed);
    });
  });

  describe('DELETE /v1/people/:user_id/time-off/:id', () => {
    it('removes the range, answers it as it was and records time_off.deleted; a replay with the key answers the same', async () => {
      const made = await create({ start_date: '2026-12-10' });
      const params = { user_id: 'me', id: made.id };
      const first = await call('ann', 'delete_time_off', { params, key: 'del-1' });
      expect(first.outcome).toEqual({ status: 200, data: made });
      expect((await call('ann', 'delete_time_off', { params, key: 'del-1' })).outcome).toEqual(first.outcome);
      expect(await refusal('ann', 'delete_time_off', { params, key: null })).toEqual(error('time_off_not_found', { id: made.id }));
      expect((await events()).map((e) => e.event_type)).toEqual(['time_off.created', 'time_off.deleted']);
    });

    it('refuses a user the caller may not act for', async () => {
      const made = await create({ start_date: '2026-12-10' });
      expect(await refusal('ben', 'delete_time_off', { params: { user_id: 'ann', id: made.id } })).toEqual(notAllowed);
      expect(await s.store.db.selectFrom('time_off').select('id').execute()).toEqual([{ id: made.id }]);
    });
  });
});
