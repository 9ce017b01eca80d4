import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ET, HOST_OF, M0, TOKEN, USER } from './support/mcp-workspace.js';
import { bookingUids, fails, ok, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// The eight series tools through a real SDK client: each succeeds once with
// the endpoint's data and fails once with the API's exact error.

/** uma's weekly Monday 10:00 UTC series from 2026-03-09: three free Mondays. */
const MONDAYS = {
  host_user_id: USER.uma,
  event_type_id: ET.weekly,
  attendee: { email: 'bob@example.com', name: 'Bob' },
  frequency: 'weekly',
  weekdays: ['mon'],
  time: '10:00',
  starts_on: '2026-03-09',
  count: 3,
};

const occurrence = (day: string, time = '10') => ({
  uid: expect.any(String),
  start_at: `2026-03-${day}T${time}:00:00.000Z`,
  end_at: `2026-03-${day}T${time}:30:00.000Z`,
  status: 'confirmed',
});

describe('series tools', () => {
  let suite: Suite;
  let olga: Client;

  beforeEach(async () => {
    suite = await openSuite();
    olga = await suite.client(TOKEN.olga);
  });
  afterEach(() => suite.world.close());

  const created = async (args: Record<string, unknown> = {}) => (await ok(olga, 'create_series', { ...MONDAYS, ...args })).series;
  const getViaCore = (uid: string) => viaCore(suite, TOKEN.olga, 'get_series', { params: { uid } });

  describe('create_series', () => {
    it('books every free date and answers the series with source "mcp", its occurrences and no skips', async () => {
      const result = await ok(olga, 'create_series', { ...MONDAYS, idempotency_key: 'series-1' });
      const uid = result.series.uid as string;
      expect(result).toEqual({
        series: {
          uid,
          version: 1,
          event_type: { id: ET.weekly, slug: 'weekly', name: 'Weekly' },
          host: HOST_OF.uma,
          attendee: { name: 'Bob', email: 'bob@example.com', phone: null },
          frequency: 'weekly',
          interval_weeks: 1,
          weekdays: ['mon'],
          time: '10:00',
          timezone: 'UTC',
          starts_on: '2026-03-09',
          count: 3,
          status: 'active',
          location_url: null,
          notify_invitee: true,
          source: 'mcp',
          created_at: M0,
          updated_at: M0,
          ended_at: null,
        },
        occurrences: [occurrence('09'), occurrence('16'), occurrence('23')],
        skipped: [],
      });
      expect(result.series).toEqual(await getViaCore(uid));
      const listed = await viaCore(suite, TOKEN.olga, 'list_bookings', { query: { series_id: uid, sort: 'start_at_asc' } });
      expect(listed.data.map((b: { uid: string }) => b.uid)).toEqual(result.occurrences.map((o: { uid: string }) => o.uid));
    });

    it('skips a date the host is busy, without shifting it', async () => {
      const result = await ok(olga, 'create_series', { ...MONDAYS, weekdays: ['tue'], starts_on: '2026-03-03', count: 2 });
      expect({ occurrences: result.occurrences, skipped: result.skipped }).toEqual({
        occurrences: [occurrence('10')],
        skipped: [{ date: '2026-03-03', start_at: '2026-03-03T10:00:00.000Z', reason: 'conflict', cause: 'busy' }],
      });
    });

    it('preview_series answers what core answers and what create_series then books, booking nothing itself', async () => {
      const args = { ...MONDAYS, weekdays: ['tue'], starts_on: '2026-03-03', count: 2 };
      const preview = await ok(olga, 'preview_series', args);
      expect(preview).toEqual({
        timezone: 'UTC',
        occurrences: [{ date: '2026-03-10', start_at: '2026-03-10T10:00:00.000Z', end_at: '2026-03-10T10:30:00.000Z' }],
        skipped: [{ date: '2026-03-03', start_at: '2026-03-03T10:00:00.000Z', reason: 'conflict', cause: 'busy' }],
      });
      expect(preview).toEqual(await viaCore(suite, TOKEN.olga, 'preview_series', { body: args }));
      const seriesBefore = (await viaCore(suite, TOKEN.olga, 'list_series', { query: {} })).data.length;
      const bookingsBefore = (await bookingUids(suite)).length;
      // Two previews book nothing; then the create books the previewed date.
      await ok(olga, 'preview_series', args);
      expect((await viaCore(suite, TOKEN.olga, 'list_series', { query: {} })).data.length).toBe(seriesBefore);
      expect((await bookingUids(suite)).length).toBe(bookingsBefore);
      const created = await ok(olga, 'create_series', args);
      expect(created.occurrences.map((o: { start_at: string }) => o.start_at)).toEqual(['2026-03-10T10:00:00.000Z']);
      expect(created.skipped).toEqual(preview.skipped);
    });

    it('records source "api" for the same create through core, "mcp" only through the MCP server', async () => {
      const viaApi = await viaCore(suite, TOKEN.olga, 'create_series', { body: { ...MONDAYS, time: '14:00' }, idempotencyKey: 'api-1' });
      expect(viaApi.series.source).toBe('api');
      expect((await created()).source).toBe('mcp');
    });

    it('answers count 43 with count_out_of_range and the bounds', async () => {
      await fails(
        olga,
        'create_series',
        { ...MONDAYS, count: 43 },
        {
          code: 'count_out_of_range',
          message: 'count must be 1 to 42.',
          details: { fields: ['count'], min: 1, max: 42 },
        },
      );
    });

    it('answers an event type with recurring off with recurring_disabled', async () => {
      await fails(
        olga,
        'create_series',
        { ...MONDAYS, event_type_id: ET.single },
        {
          code: 'recurring_disabled',
          message: 'This event type does not allow recurring series.',
          details: {},
        },
      );
    });

    it('takes the host by username: the same series as by host_user_id', async () => {
      const { host_user_id: _, ...byName } = MONDAYS;
      const result = await ok(olga, 'create_series', { ...byName, host_username: 'uma' });
      expect(result.series).toMatchObject({ host: HOST_OF.uma, source: 'mcp' });
      expect(result.occurrences).toEqual([occurrence('09'), occurrence('16'), occurrence('23')]);
    });

    it('answers an unknown username and one the caller may not act for alike, with host_not_allowed naming host_username', async () => {
      const { host_user_id: _, ...byName } = MONDAYS;
      const max = await suite.client(TOKEN.max);
      for (const username of ['ulf', 'nobody']) {
        await fails(
          max,
          'create_series',
          { ...byName, host_username: username },
          {
            code: 'host_not_allowed',
            message: 'host_username is not someone this caller may act for.',
            details: { fields: ['host_username'] },
          },
        );
      }
    });

    it('answers both host_user_id and host_username with validation_error naming host_username', async () => {
      await fails(
        olga,
        'create_series',
        { ...MONDAYS, host_username: 'uma' },
        {
          code: 'validation_error',
          message: 'host_username: name the host once: host_user_id or host_username, not both',
          details: { fields: ['host_username'] },
        },
      );
    });

    it("answers a host outside a manager's people with host_not_allowed", async () => {
      const max = await suite.client(TOKEN.max);
      await fails(
        max,
        'create_series',
        { ...MONDAYS, host_user_id: USER.ulf },
        {
          code: 'host_not_allowed',
          message: 'host_user_id is not someone this caller may act for.',
          details: { fields: ['host_user_id'] },
        },
      );
    });
  });

  describe('list_series', () => {
    it("answers a page equal to core's list, newest first, and next_cursor gives the next page", async () => {
      const first = await created();
      suite.clock.advance(1000);
      const second = await created({ time: '14:00' });
      const page = await ok(olga, 'list_series', { limit: 1 });
      expect(page).toEqual(await viaCore(suite, TOKEN.olga, 'list_series', { query: { limit: 1 } }));
      expect({ uids: page.data.map((s: { uid: string }) => s.uid), has_more: page.has_more }).toEqual({
        uids: [second.uid],
        has_more: true,
      });
      const next = await ok(olga, 'list_series', { limit: 1, cursor: page.next_cursor });
      expect(next).toEqual({ data: [first], next_cursor: null, has_more: false });
    });

    it('answers status=bogus with invalid_query_param naming status', async () => {
      await fails(
        olga,
        'list_series',
        { status: 'bogus' },
        {
          code: 'invalid_query_param',
          message: 'status: must be a comma-separated list of active, paused, ended.',
          details: { param: 'status' },
        },
      );
    });

    it('answers a token without series:read with insufficient_scope naming it', async () => {
      const few = await suite.client(TOKEN.umaFew);
      await fails(
        few,
        'list_series',
        {},
        {
          code: 'insufficient_scope',
          message: 'This token lacks the scope series:read.',
          details: { required_scope: 'series:read' },
        },
      );
    });
  });

  describe('get_series', () => {
    it("answers the series, equal to core's get", async () => {
      const series = await created();
      expect(await ok(olga, 'get_series', { uid: series.uid })).toEqual(await getViaCore(series.uid));
    });

    it('answers an unknown uid with series_not_found', async () => {
      const uid = 'c0000000-0000-4000-8000-0000000000ff';
      await fails(olga, 'get_series', { uid }, { code: 'series_not_found', message: 'No series with this uid.', details: { uid } });
    });
  });

  describe('pause_series', () => {
    it('holds every future occurrence and answers { held, superseded }', async () => {
      const series = await created();
      expect(await ok(olga, 'pause_series', { uid: series.uid })).toEqual({ held: 3, superseded: false });
      expect(await getViaCore(series.uid)).toMatchObject({ status: 'paused', version: 2 });
    });

    it('answers an argument the endpoint does not take with validation_error naming it', async () => {
      const series = await created();
      await fails(
        olga,
        'pause_series',
        { uid: series.uid, reason: 'holiday' },
        {
          code: 'validation_error',
          message: 'pause_series takes no arguments besides uid, idempotency_key.',
          details: { fields: ['reason'] },
        },
      );
      expect(await getViaCore(series.uid)).toMatchObject({ status: 'active', version: 1 });
    });
  });

  describe('resume_series', () => {
    it('books one replacement per owed occurrence and answers { created, skipped, owed, superseded }', async () => {
      const series = await created();
      await ok(olga, 'pause_series', { uid: series.uid });
      expect(await ok(olga, 'resume_series', { uid: series.uid, if_match: 2 })).toEqual({
        created: 3,
        skipped: [],
        owed: 0,
        superseded: false,
      });
      expect(await getViaCore(series.uid)).toMatchObject({ status: 'active', version: 3 });
    });

    it('answers if_match "abc" with invalid_if_match', async () => {
      const series = await created();
      await fails(
        olga,
        'resume_series',
        { uid: series.uid, if_match: 'abc' },
        {
          code: 'invalid_if_match',
          message: 'if_match must be a version, such as "3", 3 or *.',
          details: { if_match: 'abc' },
        },
      );
    });
  });

  describe('end_series', () => {
    it('cancels every future occurrence and answers { canceled, superseded }', async () => {
      const series = await created();
      expect(await ok(olga, 'end_series', { uid: series.uid, confirm: true })).toEqual({ canceled: 3, superseded: false });
      expect(await getViaCore(series.uid)).toMatchObject({ status: 'ended', ended_at: M0 });
    });

    it('answers a second end with series_ended', async () => {
      const series = await created();
      await ok(olga, 'end_series', { uid: series.uid, confirm: true });
      await fails(
        olga,
        'end_series',
        { uid: series.uid, confirm: true },
        {
          code: 'series_ended',
          message: 'The series is ended; nothing can change it.',
          details: {},
        },
      );
    });
  });

  describe('change_series_host', () => {
    it('moves every occurrence, then the series, and answers { moved, unchanged, stopped_by, superseded }', async () => {
      const series = await created();
      expect(await ok(olga, 'change_series_host', { uid: series.uid, host_user_id: USER.ulf })).toEqual({
        moved: 3,
        unchanged: 0,
        stopped_by: null,
        superseded: false,
      });
      expect((await getViaCore(series.uid)).host).toEqual(HOST_OF.ulf);
    });

    it("answers a new host outside the caller's people with host_not_allowed", async () => {
      const series = await created();
      const max = await suite.client(TOKEN.max);
      await fails(
        max,
        'change_series_host',
        { uid: series.uid, host_user_id: USER.ulf },
        {
          code: 'host_not_allowed',
          message: 'host_user_id is not someone this caller may act for.',
          details: { fields: ['host_user_id'] },
        },
      );
    });
  });

  describe('update_series', () => {
    it("restamps notify_invitee with a matching if_match and answers the series at the next version with resumed null, equal to core's get", async () => {
      const series = await created();
      const result = await ok(olga, 'update_series', { uid: series.uid, if_match: 1, notify_invitee: false });
      expect(result).toEqual({ series: { ...series, version: 2, notify_invitee: false }, resumed: null });
      expect(result.series).toEqual(await getViaCore(series.uid));
    });

    it('moves held occurrences to the new pattern on a time change and answers what the replacement step did', async () => {
      const series = await created();
      const result = await ok(olga, 'update_series', { uid: series.uid, if_match: '1', time: '11:00' });
      expect(result).toEqual({
        series: { ...series, version: 2, time: '11:00' },
        resumed: { created: 3, skipped: [], owed: 0, superseded: false },
      });
      const listed = await viaCore(suite, TOKEN.olga, 'list_bookings', {
        query: { series_id: series.uid, status: 'confirmed', sort: 'start_at_asc' },
      });
      expect(listed.data.map((b: { start_at: string }) => b.start_at)).toEqual([
        '2026-03-09T11:00:00.000Z',
        '2026-03-16T11:00:00.000Z',
        '2026-03-23T11:00:00.000Z',
      ]);
    });

    it('answers a call without if_match with missing_if_match', async () => {
      const series = await created();
      await fails(
        olga,
        'update_series',
        { uid: series.uid, notify_invitee: false },
        {
          code: 'missing_if_match',
          message: 'This tool requires if_match with the current version.',
          details: {},
        },
      );
    });

    it('answers a stale if_match with version_conflict and the current version', async () => {
      const series = await created();
      await ok(olga, 'pause_series', { uid: series.uid });
      await fails(
        olga,
        'update_series',
        { uid: series.uid, if_match: 1, notify_invitee: false },
        {
          code: 'version_conflict',
          message: 'The series changed since it was read; read it again and retry.',
          details: { current_version: 2 },
        },
      );
    });
  });
});
