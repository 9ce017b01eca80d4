import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { CalendarUnreadable, createCalendarReader } from '../src/availability/calendar-reader.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { checkSlot, listSlots, type Query } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

const B_HANA = '70000000-0000-4000-8000-000000000001';

/** Slots on 2026-03-02 starting at the given UTC times, `minutes` long. */
function slotsAt(times: string[], minutes = 30) {
  return times.map((time) => {
    const start = Date.parse(`2026-03-02T${time}:00Z`);
    return { start: new Date(start).toISOString(), end: new Date(start + minutes * 60_000).toISOString(), available: true };
  });
}

const invalid = (param: string) => ({ code: 'invalid_query_param', details: { param }, retryAfterSeconds: undefined });
/** What a malformed time parameter is told, after its name. */
const NOT_A_TIME = 'must be an ISO 8601 timestamp or date between 1900-01-01 and 9000-12-31.';
const NAME_THE_EVENT_TYPE = 'Name the event type: event_type_id, or both username and event_slug.';
const NOT_FOUND = { code: 'event_type_not_found', details: {}, retryAfterSeconds: undefined };
const UNAVAILABLE = { code: 'availability_unavailable', details: {}, retryAfterSeconds: 30 };

const WINDOW = { start: '2026-03-02T09:00:00Z', end: '2026-03-02T16:00:00Z' };

describe.each(storeFixtures())('slots on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let admin: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    // Hana has one booking, 14:00–14:30 on Monday.
    await loadBookingWorkspace({ store, clock }, [{ uid: B_HANA, host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z' }]);
    hana = await principalOf({ store, clock }, TOKEN.hana);
    admin = await principalOf({ store, clock }, TOKEN.admin);
  });
  beforeEach(() => clock.set(T0));
  afterAll(() => fixture.cleanup());

  const list = async (query: Query, principal = hana) => (await listSlots(deps, principal, query)).outcome;
  const checked = async (query: Query, principal = hana) => (await checkSlot(deps, principal, query)).outcome.data;

  describe('GET /v1/slots', () => {
    it('lists the free slots of a window exactly: after the notice, in working hours, around the booking', async () => {
      expect(await list({ event_type_id: ET.meet, ...WINDOW })).toEqual({
        status: 200,
        data: {
          event_type_id: ET.meet,
          timezone: 'UTC',
          computed_at: T0,
          slots: slotsAt(['09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30', '14:30', '15:00', '15:30']),
        },
      });
    });

    it('keeps the buffers of a buffered event type clear of the booking', async () => {
      const { data } = await list({ event_type_id: ET.buffered, ...WINDOW });
      expect((data as { slots: unknown }).slots).toEqual(slotsAt(['09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '15:00', '15:30']));
    });

    it('takes start inclusive and end exclusive, and lets the last slot end after the window', async () => {
      const { data } = await list({ event_type_id: ET.meet, start: '2026-03-02T11:00:00Z', end: '2026-03-02T11:31:00Z' });
      expect((data as { slots: unknown }).slots).toEqual(slotsAt(['11:00', '11:30']));
    });

    it('finds the event type by username and event_slug', async () => {
      const { data } = await list({ username: 'hana', event_slug: 'meet', start: '2026-03-02T13:00:00Z', end: '2026-03-02T14:00:00Z' });
      expect(data).toEqual({ event_type_id: ET.meet, timezone: 'UTC', computed_at: T0, slots: slotsAt(['13:00', '13:30']) });
    });

    it('leaves out the busy times of a static calendar', async () => {
      const { data } = await list({ event_type_id: ET.carlMeet, start: '2026-03-02T09:00:00Z', end: '2026-03-02T12:00:00Z' }, admin);
      expect((data as { slots: unknown }).slots).toEqual(slotsAt(['09:30', '11:00', '11:30']));
    });

    it('lists no slots for an inactive event type', async () => {
      expect(await list({ event_type_id: ET.paused, ...WINDOW })).toEqual({
        status: 200,
        data: { event_type_id: ET.paused, timezone: 'UTC', computed_at: T0, slots: [] },
      });
    });

    it('lists slots around the clock for a host without a schedule', async () => {
      const { data } = await list({ event_type_id: ET.noraMeet, start: '2026-03-03T00:00:00Z', end: '2026-03-03T02:00:00Z' }, admin);
      expect((data as { slots: unknown }).slots).toEqual(
        ['00:00', '00:30', '01:00', '01:30'].map((t) => {
          const start = Date.parse(`2026-03-03T${t}:00Z`);
          return { start: new Date(start).toISOString(), end: new Date(start + 30 * 60_000).toISOString(), available: true };
        }),
      );
    });

    it('accepts a window of exactly 31 days', async () => {
      const { status } = await list({ event_type_id: ET.meet, start: '2026-03-02T00:00:00Z', end: '2026-04-02T00:00:00Z' });
      expect(status).toBe(200);
    });

    describe('timezone', () => {
      const zoneOf = async (eventTypeId: string, extra: Query = {}) =>
        ((await list({ event_type_id: eventTypeId, ...WINDOW, ...extra }, admin)).data as { timezone: string }).timezone;

      it('echoes the timezone asked for, without moving the slots', async () => {
        const { data } = await list({
          event_type_id: ET.meet,
          start: '2026-03-02T13:00:00Z',
          end: '2026-03-02T14:00:00Z',
          timezone: 'America/New_York',
        });
        expect(data).toEqual({ event_type_id: ET.meet, timezone: 'America/New_York', computed_at: T0, slots: slotsAt(['13:00', '13:30']) });
      });

      it("defaults to the schedule's zone, not the host's own zone", async () => {
        expect(await zoneOf(ET.bertMeet)).toBe('Europe/Berlin');
      });

      it("defaults to the zone a schedule without its own zone is read in (the host's)", async () => {
        expect(await zoneOf(ET.lenaMeet)).toBe('Asia/Tokyo');
      });

      it('defaults to UTC for a host without a schedule', async () => {
        expect(await zoneOf(ET.noraMeet)).toBe('UTC');
      });

      it('refuses a timezone that is not an IANA name', async () => {
        expect(await scheduleErrorOf(list({ event_type_id: ET.meet, ...WINDOW, timezone: 'Mars/Olympus' }))).toEqual({
          ...invalid('timezone'),
          message: 'timezone: must be an IANA time zone name.',
        });
      });
    });

    it.each([
      ['start missing', { end: WINDOW.end }, 'start', 'start: is required.'],
      ['start malformed', { start: 'tomorrow', end: WINDOW.end }, 'start', `start: ${NOT_A_TIME}`],
      ['end missing', { start: WINDOW.start }, 'end', 'end: is required.'],
      ['end malformed', { start: WINDOW.start, end: '2026-13-40' }, 'end', `end: ${NOT_A_TIME}`],
      ['end equal to start', { start: WINDOW.start, end: WINDOW.start }, 'end', 'end must be after start.'],
      ['end before start', { start: WINDOW.end, end: WINDOW.start }, 'end', 'end must be after start.'],
      [
        'a window over 31 days',
        { start: '2026-03-02T00:00:00Z', end: '2026-04-02T00:00:00.001Z' },
        'end',
        'The window from start to end is at most 31 days.',
      ],
    ])('refuses %s as invalid_query_param', async (_, window, param, message) => {
      expect(await scheduleErrorOf(list({ event_type_id: ET.meet, ...window }))).toEqual({ ...invalid(param), message });
    });

    it.each([
      ['no event type at all', {}, 'event_type_id', NAME_THE_EVENT_TYPE],
      ['a username without event_slug', { username: 'hana' }, 'event_type_id', NAME_THE_EVENT_TYPE],
      ['an event_slug without username', { event_slug: 'meet' }, 'event_type_id', NAME_THE_EVENT_TYPE],
      ['an event_type_id that is not a UUID', { event_type_id: 'meet' }, 'event_type_id', 'event_type_id: must be a UUID.'],
    ])('refuses %s as invalid_query_param', async (_, ref, param, message) => {
      expect(await scheduleErrorOf(list({ ...ref, ...WINDOW }))).toEqual({ ...invalid(param), message });
    });

    it.each([
      ['an unknown event_type_id', { event_type_id: '60000000-0000-4000-8000-0000000000ff' }],
      ["another user's event type", { event_type_id: ET.ivanLong }],
      ['a username nobody has', { username: 'nobody', event_slug: 'meet' }],
      ['a slug the user does not have', { username: 'hana', event_slug: 'nope' }],
      ["another user's event type by username and slug", { username: 'ivan', event_slug: 'long' }],
    ])('answers %s with event_type_not_found', async (_, ref) => {
      expect(await scheduleErrorOf(list({ ...ref, ...WINDOW }))).toEqual({ ...NOT_FOUND, message: 'No such event type.' });
    });

    it("shows an admin another user's event type", async () => {
      const { data } = await list({ event_type_id: ET.ivanLong, start: '2026-03-02T09:00:00Z', end: '2026-03-02T10:00:00Z' }, admin);
      expect((data as { slots: unknown }).slots).toEqual(slotsAt(['09:00', '09:30'], 60));
    });

    it('answers availability_unavailable with Retry-After 30 when a conflict calendar cannot be read', async () => {
      const unreadable = testDeps(store, clock, {
        calendars: createCalendarReader(async () => {
          throw new CalendarUnreadable('x');
        }),
      });
      expect(await scheduleErrorOf(listSlots(unreadable, admin, { event_type_id: ET.fennMeet, ...WINDOW }))).toEqual({
        ...UNAVAILABLE,
        message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
      });
    });
  });

  describe('GET /v1/slots/check', () => {
    const FREE = { available: true, duration_minutes: 30 };
    const refused = (reason: string, next: string | null) => ({ available: false, reason, next_available: next });

    it('accepts a free start, the end defaulting to start plus the duration', async () => {
      expect(await checkSlot(deps, hana, { event_type_id: ET.meet, start: '2026-03-02T13:00:00Z' })).toEqual({
        outcome: { status: 200, data: FREE },
        requestId: 'req-check',
        replayed: false,
      });
    });

    it('accepts a free start with an explicit end', async () => {
      expect(await checked({ event_type_id: ET.meet, start: '2026-03-02T13:00:00Z', end: '2026-03-02T13:30:00Z' })).toEqual(FREE);
      expect(await checked({ event_type_id: ET.meet, start: '2026-03-02T13:00:00Z', end: '2026-03-02T14:00:00Z' })).toEqual(FREE);
    });

    it('refuses an explicit end that reaches into a booking as slot_busy, offering the first free start after that end', async () => {
      expect(await checked({ event_type_id: ET.meet, start: '2026-03-02T13:00:00Z', end: '2026-03-02T14:30:00Z' })).toEqual(
        refused('slot_busy', '2026-03-02T14:30:00.000Z'),
      );
    });

    it('refuses a booked start as slot_busy with next_available after the requested end', async () => {
      expect(await checked({ event_type_id: ET.meet, start: '2026-03-02T14:00:00Z' })).toEqual(
        refused('slot_busy', '2026-03-02T14:30:00.000Z'),
      );
    });

    it.each([
      // 13:10–13:40: the search starts at 13:40, and 14:00 is booked.
      ['off the grid', '2026-03-02T13:10:00Z', '2026-03-02T14:30:00.000Z'],
      ['outside working hours', '2026-03-02T12:00:00Z', '2026-03-02T13:00:00.000Z'],
    ])('refuses a start %s as slot_busy', async (_, start, next) => {
      expect(await checked({ event_type_id: ET.meet, start })).toEqual(refused('slot_busy', next));
    });

    it('refuses a start in the past as in_past', async () => {
      expect(await checked({ event_type_id: ET.meet, start: '2026-03-02T08:00:00Z' })).toEqual(
        refused('in_past', '2026-03-02T09:30:00.000Z'),
      );
    });

    it('refuses a start within the minimum notice as outside_minimum_notice', async () => {
      expect(await checked({ event_type_id: ET.meet, start: '2026-03-02T09:00:00Z' })).toEqual(
        refused('outside_minimum_notice', '2026-03-02T09:30:00.000Z'),
      );
    });

    it('refuses a start beyond the future limit as outside_future_limit, with no next_available beyond it', async () => {
      expect(await checked({ event_type_id: ET.meet, start: '2026-03-16T09:00:00Z' })).toEqual(refused('outside_future_limit', null));
    });

    it('refuses a start on an inactive event type as event_type_inactive', async () => {
      expect(await checked({ event_type_id: ET.paused, start: '2026-03-02T13:00:00Z' })).toEqual(refused('event_type_inactive', null));
    });

    it('refuses a start inside a static calendar busy time', async () => {
      expect(await checked({ event_type_id: ET.carlMeet, start: '2026-03-02T10:00:00Z' }, admin)).toEqual(
        refused('slot_busy', '2026-03-02T11:00:00.000Z'),
      );
    });

    it('finds next_available up to 7 days after the requested end', async () => {
      expect(await checked({ event_type_id: ET.solaMeet, start: '2026-03-03T09:00:00Z' }, admin)).toEqual(
        refused('slot_busy', '2026-03-10T09:00:00.000Z'),
      );
    });

    it('answers next_available null when nothing is free within 7 days after the requested end', async () => {
      expect(await checked({ event_type_id: ET.solaMeet, start: '2026-03-03T08:00:00Z' }, admin)).toEqual(refused('slot_busy', null));
    });

    it('accepts a start of a host without a schedule (free around the clock)', async () => {
      expect(await checked({ event_type_id: ET.noraMeet, start: '2026-03-03T01:00:00Z' }, admin)).toEqual(FREE);
    });

    it.each([
      ['start missing', {}, 'start', 'start: is required.'],
      ['start malformed', { start: 'now' }, 'start', `start: ${NOT_A_TIME}`],
      ['end malformed', { start: '2026-03-02T13:00:00Z', end: 'later' }, 'end', `end: ${NOT_A_TIME}`],
      ['end equal to start', { start: '2026-03-02T13:00:00Z', end: '2026-03-02T13:00:00Z' }, 'end', 'end must be after start.'],
      ['end before start', { start: '2026-03-02T13:00:00Z', end: '2026-03-02T12:30:00Z' }, 'end', 'end must be after start.'],
    ])('refuses %s as invalid_query_param', async (_, query, param, message) => {
      expect(await scheduleErrorOf(checkSlot(deps, hana, { event_type_id: ET.meet, ...query }))).toEqual({ ...invalid(param), message });
    });

    it('refuses a check that names no event type as invalid_query_param', async () => {
      expect(await scheduleErrorOf(checkSlot(deps, hana, { start: '2026-03-02T13:00:00Z' }))).toEqual({
        ...invalid('event_type_id'),
        message: 'Name the event type: event_type_id, or both username and event_slug.',
      });
    });

    it("answers another user's event type with event_type_not_found", async () => {
      expect(await scheduleErrorOf(checkSlot(deps, hana, { event_type_id: ET.ivanLong, start: '2026-03-02T13:00:00Z' }))).toEqual({
        ...NOT_FOUND,
        message: 'No such event type.',
      });
    });

    it('answers availability_unavailable with Retry-After 30 when a conflict calendar cannot be read', async () => {
      const unreadable = testDeps(store, clock, {
        calendars: createCalendarReader(async () => {
          throw new CalendarUnreadable('x');
        }),
      });
      expect(await scheduleErrorOf(checkSlot(unreadable, admin, { event_type_id: ET.fennMeet, start: '2026-03-02T13:00:00Z' }))).toEqual({
        ...UNAVAILABLE,
        message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
      });
    });
  });
});
