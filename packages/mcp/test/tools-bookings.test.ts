import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ET, HOST_OF, IMPORTED, M0, TOKEN } from './support/mcp-workspace.js';
import { call, fails, ok, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// The six booking tools through a real SDK client: each succeeds once with
// the endpoint's data (checked against its output schema) and fails once
// with the API's exact error.

const TITLE = 'Weekly between Uma User and Bob';

describe('booking tools', () => {
  let suite: Suite;
  let olga: Client;

  beforeEach(async () => {
    suite = await openSuite();
    olga = await suite.client(TOKEN.olga);
  });
  afterEach(() => suite.world.close());

  const getViaCore = (uid: string) => viaCore(suite, TOKEN.olga, 'get_booking', { params: { uid } });

  describe('list_bookings', () => {
    it("answers { data, next_cursor, has_more } equal to core's list, and next_cursor gives the next page", async () => {
      const first = await ok(olga, 'list_bookings', { limit: 2, sort: 'start_at_asc' });
      expect(first).toEqual(await viaCore(suite, TOKEN.olga, 'list_bookings', { query: { limit: 2, sort: 'start_at_asc' } }));
      expect(first.data.map((b: { uid: string }) => b.uid)).toEqual([IMPORTED.tue, IMPORTED.wed]);
      expect(first.has_more).toBe(true);
      expect(typeof first.next_cursor).toBe('string');

      const second = await ok(olga, 'list_bookings', { limit: 2, sort: 'start_at_asc', cursor: first.next_cursor });
      expect(second).toEqual(
        await viaCore(suite, TOKEN.olga, 'list_bookings', { query: { limit: 2, sort: 'start_at_asc', cursor: first.next_cursor } }),
      );
      expect(second.data.map((b: { uid: string }) => b.uid)).toEqual([IMPORTED.thu]);
      expect({ next_cursor: second.next_cursor, has_more: second.has_more }).toEqual({ next_cursor: null, has_more: false });
    });

    it('summarizes a page as one line per booking and how to get the next page', async () => {
      const first = await call(olga, 'list_bookings', { limit: 2, sort: 'start_at_asc' });
      const cursor = first.structuredContent?.next_cursor as string;
      expect(first.content).toEqual([
        {
          type: 'text',
          text: [
            `2 item(s); more: pass cursor=${cursor}`,
            `${IMPORTED.tue} confirmed "${TITLE}" v1 starts 2026-03-03T10:00:00.000Z = Tue 2026-03-03 10:00 UTC (UTC+00:00) for uma and bob@example.com`,
            `${IMPORTED.wed} confirmed "${TITLE}" v1 starts 2026-03-04T10:00:00.000Z = Wed 2026-03-04 10:00 UTC (UTC+00:00) for uma and bob@example.com`,
          ].join('\n'),
        },
      ]);
      const last = await call(olga, 'list_bookings', { limit: 2, sort: 'start_at_asc', cursor });
      expect(last.content).toEqual([
        {
          type: 'text',
          text: [
            '1 item(s); no more pages',
            `${IMPORTED.thu} confirmed "${TITLE}" v1 starts 2026-03-05T10:00:00.000Z = Thu 2026-03-05 10:00 UTC (UTC+00:00) for uma and bob@example.com`,
          ].join('\n'),
        },
      ]);
    });

    it('answers limit 0 with invalid_query_param naming limit', async () => {
      await fails(
        olga,
        'list_bookings',
        { limit: 0 },
        {
          code: 'invalid_query_param',
          message: 'limit: must be an integer from 1 to 100.',
          details: { param: 'limit' },
        },
      );
    });

    it('answers an unknown sort with invalid_query_param naming sort', async () => {
      await fails(
        olga,
        'list_bookings',
        { sort: 'random' },
        {
          code: 'invalid_query_param',
          message: 'sort: must be one of start_at_desc, start_at_asc, created_at_desc, updated_at_asc, updated_at_desc.',
          details: { param: 'sort' },
        },
      );
    });
  });

  describe('get_booking', () => {
    it("answers the booking with its responses, equal to core's get, and a text with its times in the host's and attendee's zones", async () => {
      const result = await call(olga, 'get_booking', { uid: IMPORTED.tue });
      const booking = await ok(olga, 'get_booking', { uid: IMPORTED.tue });
      expect(booking).toEqual(await getViaCore(IMPORTED.tue));
      expect(booking).toMatchObject({ uid: IMPORTED.tue, version: 1, title: TITLE, status: 'confirmed', host: HOST_OF.uma });
      expect(result.content).toEqual([
        {
          type: 'text',
          text: [
            `Booking ${IMPORTED.tue} (confirmed, version 1): "${TITLE}", hosts uma, attendee bob@example.com.`,
            'Starts 2026-03-03T10:00:00.000Z = Tue 2026-03-03 10:00 UTC (UTC+00:00) for uma and bob@example.com.',
            'Ends 2026-03-03T10:30:00.000Z = Tue 2026-03-03 10:30 UTC (UTC+00:00) for uma and bob@example.com.',
          ].join('\n'),
        },
      ]);
    });

    it('answers an unknown uid with booking_not_found', async () => {
      const uid = 'b0000000-0000-4000-8000-0000000000ff';
      await fails(olga, 'get_booking', { uid }, { code: 'booking_not_found', message: 'No booking with this uid.', details: { uid } });
    });

    it('answers a uid that is not a UUID with booking_not_found, like an unknown one', async () => {
      await fails(
        olga,
        'get_booking',
        { uid: 'not-a-uuid' },
        {
          code: 'booking_not_found',
          message: 'No booking with this uid.',
          details: { uid: 'not-a-uuid' },
        },
      );
    });
  });

  describe('create_booking', () => {
    const args = { event_type_id: ET.weekly, start: '2026-03-02T10:00:00Z', attendee: { email: 'carol@example.com', name: 'Carol' } };

    it("books and answers the full booking, version 1, equal to core's get of it", async () => {
      const booking = await ok(olga, 'create_booking', { ...args, idempotency_key: 'create-1' });
      const uid = booking.uid as string;
      expect(booking).toEqual({
        uid,
        version: 1,
        event_type_id: ET.weekly,
        event_type_slug: 'weekly',
        title: 'Weekly between Uma User and Carol',
        status: 'confirmed',
        start_at: '2026-03-02T10:00:00.000Z',
        end_at: '2026-03-02T10:30:00.000Z',
        timezone: 'UTC',
        host: HOST_OF.uma,
        hosts: [HOST_OF.uma],
        attendees: [{ email: 'carol@example.com', name: 'Carol', timezone: 'UTC' }],
        guests: [],
        location: { type: 'conference', url: `https://meet.test/${uid}`, value: null },
        metadata: {},
        responses: {},
        calendar_sync_status: 'not_applicable',
        calendar_event_id: '',
        rescheduled_from_uid: null,
        cancelled_at: null,
        cancellation_reason: null,
        no_show_at: null,
        no_show_reason: null,
        created_at: M0,
        updated_at: M0,
      });
      expect(booking).toEqual(await getViaCore(uid));
    });

    it('answers a malformed attendee email with attendee_email_invalid', async () => {
      await fails(
        olga,
        'create_booking',
        { ...args, attendee: { email: 'carol-at-example' } },
        {
          code: 'attendee_email_invalid',
          message: 'attendee.email must be an email address of at most 254 characters.',
          details: { fields: ['attendee.email'] },
        },
      );
    });

    it('answers missing start and attendee with validation_error naming both fields', async () => {
      await fails(
        olga,
        'create_booking',
        { event_type_id: ET.weekly },
        {
          code: 'validation_error',
          message: 'start: is required; attendee: is required',
          details: { fields: ['start', 'attendee'] },
        },
      );
    });

    it('answers a taken start with slot_unavailable', async () => {
      await fails(
        olga,
        'create_booking',
        { ...args, start: '2026-03-03T10:00:00Z' },
        {
          code: 'slot_unavailable',
          message: 'The host is not free at this time.',
          details: { reason: 'slot_busy' },
        },
      );
    });

    it('answers a token without bookings:create with insufficient_scope naming it', async () => {
      const few = await suite.client(TOKEN.umaFew);
      await fails(few, 'create_booking', args, {
        code: 'insufficient_scope',
        message: 'This token lacks the scope bookings:create.',
        details: { required_scope: 'bookings:create' },
      });
    });
  });

  describe('cancel_booking', () => {
    it("cancels with the reason and answers the booking at version 2, equal to core's get", async () => {
      const booking = await ok(olga, 'cancel_booking', { uid: IMPORTED.tue, reason: 'Double booked', confirm: true });
      expect(booking).toMatchObject({
        uid: IMPORTED.tue,
        version: 2,
        status: 'canceled',
        cancelled_at: M0,
        cancellation_reason: 'Double booked',
        updated_at: M0,
      });
      expect(booking).toEqual(await getViaCore(IMPORTED.tue));
    });

    it('answers a booking that already started with booking_in_past', async () => {
      suite.clock.set('2026-03-03T10:10:00.000Z');
      await fails(
        olga,
        'cancel_booking',
        { uid: IMPORTED.tue, confirm: true },
        {
          code: 'booking_in_past',
          message: 'The booking has already started or finished.',
          details: { start_at: '2026-03-03T10:00:00.000Z' },
        },
      );
    });
  });

  describe('reschedule_booking', () => {
    it("moves the booking in place, keeping its length, at version 2, equal to core's get", async () => {
      const booking = await ok(olga, 'reschedule_booking', { uid: IMPORTED.wed, start: '2026-03-04T11:00:00Z' });
      expect(booking).toMatchObject({
        uid: IMPORTED.wed,
        version: 2,
        status: 'confirmed',
        start_at: '2026-03-04T11:00:00.000Z',
        end_at: '2026-03-04T11:30:00.000Z',
      });
      expect(booking).toEqual(await getViaCore(IMPORTED.wed));
    });

    it('answers a canceled booking with booking_already_cancelled', async () => {
      await ok(olga, 'cancel_booking', { uid: IMPORTED.wed, confirm: true });
      await fails(
        olga,
        'reschedule_booking',
        { uid: IMPORTED.wed, start: '2026-03-04T11:00:00Z' },
        {
          code: 'booking_already_cancelled',
          message: 'Only a confirmed booking can be rescheduled.',
          details: {},
        },
      );
    });
  });

  describe('update_booking', () => {
    it("patches metadata and attendee_name with a matching if_match, at version 2, equal to core's get", async () => {
      const booking = await ok(olga, 'update_booking', {
        uid: IMPORTED.thu,
        if_match: 1,
        metadata: { topic: 'pricing' },
        attendee_name: 'Robert',
      });
      expect(booking).toMatchObject({
        uid: IMPORTED.thu,
        version: 2,
        metadata: { topic: 'pricing' },
        attendees: [{ email: 'bob@example.com', name: 'Robert', timezone: 'UTC' }],
      });
      expect(booking).toEqual(await getViaCore(IMPORTED.thu));
    });

    it('answers a call without if_match with missing_if_match and changes nothing', async () => {
      await fails(
        olga,
        'update_booking',
        { uid: IMPORTED.thu, metadata: { topic: 'x' } },
        {
          code: 'missing_if_match',
          message: 'This tool requires if_match with the current version.',
          details: {},
        },
      );
      expect((await getViaCore(IMPORTED.thu)).version).toBe(1);
    });

    it('answers a stale if_match with version_conflict and the current version', async () => {
      await ok(olga, 'update_booking', { uid: IMPORTED.thu, if_match: 1, metadata: { topic: 'a' } });
      await fails(
        olga,
        'update_booking',
        { uid: IMPORTED.thu, if_match: 1, metadata: { topic: 'b' } },
        {
          code: 'version_conflict',
          message: 'The booking is at version 2.',
          details: { current_version: 2 },
        },
      );
    });

    it('answers a field that cannot be patched with field_immutable naming it', async () => {
      await fails(
        olga,
        'update_booking',
        { uid: IMPORTED.thu, if_match: 1, start: '2026-03-05T11:00:00Z', metadata: {} },
        {
          code: 'field_immutable',
          message: 'These fields cannot be patched: start. Change start by reschedule and end a booking by cancel.',
          details: { fields: ['start'] },
        },
      );
    });
  });

  describe('visibility, as over HTTP', () => {
    it("hides another user's booking from a user-role token: get answers booking_not_found", async () => {
      const ulf = await suite.client(TOKEN.ulf);
      await fails(
        ulf,
        'get_booking',
        { uid: IMPORTED.tue },
        {
          code: 'booking_not_found',
          message: 'No booking with this uid.',
          details: { uid: IMPORTED.tue },
        },
      );
    });

    it("leaves another user's bookings out of a user-role token's list", async () => {
      const ulf = await suite.client(TOKEN.ulf);
      expect(await ok(ulf, 'list_bookings', {})).toEqual({ data: [], next_cursor: null, has_more: false });
    });

    it('shows a manager the bookings of the people managed', async () => {
      const max = await suite.client(TOKEN.max);
      expect((await ok(max, 'get_booking', { uid: IMPORTED.tue })).uid).toBe(IMPORTED.tue);
    });
  });
});
