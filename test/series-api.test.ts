import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMESTAMP } from './support/booking-view.js';
import { type ApiResponse, api, expectCommonHeaders, expectData, expectError, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import {
  expectedSeries,
  getSeries,
  HOST_VIEW,
  MON_THU_DAYS,
  patchSeries,
  postSeries,
  SERIES_SECRETS,
  SERIES_USERS,
  type SeriesCallOptions,
  SYNC,
  seriesAction,
  seriesBody,
  seriesWorkspace,
  skippedAt,
  tokyoAt,
  tokyoEnd,
} from './support/series-workspace.js';
import { type TestServer, tempDir, writeWorkspace } from './support/serve.js';

// docs/api/series.md, "States and transitions", "Errors", "Idempotency rules"
// and docs/api/series.md "The pattern", "what is owed", "Conditional
// requests": the series endpoints of the server the binary runs (in process), over HTTP.

const ORA = SERIES_SECRETS.ora;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HELD_REASON = 'Held by the series; a replacement is owed.';
// Mail is sent as in production (every second): an action waits out a send rather than failing busy.
const ENV = {};

/** docs/api/requests.md "Request limits": never a 500, never a stack trace in a body. */
async function sane(pending: Promise<ApiResponse>): Promise<ApiResponse> {
  const res = await pending;
  expect(res.status, res.text).toBeLessThan(500);
  expect(res.text).not.toMatch(/\n\s+at |\.(ts|js):\d+:\d+/);
  return res;
}

/** The calls of this file, each answer checked by `sane`. */
function client(server: () => TestServer) {
  return {
    create: (body: unknown, options: SeriesCallOptions = {}, token: string = ORA) => sane(postSeries(server().url, token, body, options)),
    act: (uid: string, action: 'pause' | 'resume' | 'end' | 'host', options: SeriesCallOptions = {}, token: string = ORA) =>
      sane(seriesAction(server().url, token, uid, action, options)),
    patch: (uid: string, options: SeriesCallOptions, token: string = ORA) => sane(patchSeries(server().url, token, uid, options)),
    get: (uid: string, token: string = ORA) => sane(getSeries(server().url, token, uid)),
    raw: (path: string, request: Parameters<typeof api>[2] = {}) => sane(api(server().url, path, request)),
    /** The bookings of a series in start order; `status` filters them. */
    bookings: async (seriesUid: string, status?: string) => {
      const query = `series_id=${seriesUid}&sort=start_at_asc&limit=100${status ? `&status=${status}` : ''}`;
      return expectPage(await sane(api(server().url, `/v1/bookings?${query}`, { token: ORA }))).items;
    },
  };
}

describe.each([
  ['SQLite (:memory:)', 'memory'],
  ['PostgreSQL', 'postgres'],
] as const)('the series lifecycle over HTTP on %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let server: TestServer;
  const c = client(() => server);

  beforeAll(async () => {
    schema = backend === 'postgres' ? testSchema() : undefined;
    const db = schema?.dbUrl ?? ':memory:';
    server = await startInProcess(
      { workspace: writeWorkspace(seriesWorkspace()), db: db },
      {
        ...ENV,
        CONFERENCE_BASE_URL: 'https://meet.test',
      },
    );
  });

  afterAll(async () => {
    await server?.stop();
    await schema?.drop();
  });

  // Issue 29 item 2: the create's dry run, before anything is created in this suite.
  describe('preview', () => {
    const preview = (body: unknown, token: string = ORA, headers: Record<string, string> = {}) =>
      c.raw('/v1/series/preview', { method: 'POST', token, headers, json: body });

    it('POST /v1/series/preview: 200 with the zone, the dates a create would book and the busy Thursday skipped as busy; no ETag, no Location, nothing written', async () => {
      const res = await preview(seriesBody());
      const booked = MON_THU_DAYS.slice(0, 6).filter((d) => d !== 3);
      expect(expectData(res, 200)).toEqual({
        timezone: 'Asia/Tokyo',
        occurrences: booked.map((d) => ({
          date: tokyoAt(d, '10:00').slice(0, 10),
          start_at: tokyoAt(d, '10:00'),
          end_at: tokyoEnd(d, '10:00'),
        })),
        skipped: [skippedAt(3, '10:00', 'busy')],
      });
      expect([res.headers.get('etag'), res.headers.get('location')]).toEqual([null, null]);
      expectCommonHeaders(res, 10_000);
      expect(expectPage(await c.raw('/v1/series', { token: ORA })).items).toEqual([]);
    });

    it('needs no Idempotency-Key and stores none: the same key with another body is no conflict', async () => {
      expect((await preview(seriesBody(), ORA, { 'idempotency-key': 'preview-key' })).status).toBe(200);
      expect((await preview(seriesBody({ count: 2 }), ORA, { 'idempotency-key': 'preview-key' })).status).toBe(200);
    });

    it('refuses what the create refuses: series:read alone is 403 insufficient_scope, a weekend-only pattern 409 no_dates_free with each date and its cause', async () => {
      expectError(await preview(seriesBody(), SERIES_SECRETS.oraRead), 403, 'insufficient_scope');
      const weekend = await preview(seriesBody({ weekdays: ['sat', 'sun'], count: 2 }));
      expectError(weekend, 409, 'no_dates_free', {
        skipped: [skippedAt(5, '10:00', 'outside_working_hours'), skippedAt(6, '10:00', 'outside_working_hours')],
      });
    });
  });

  describe('create, replay and read', () => {
    const key = randomUUID();
    let first: ApiResponse;
    let created: { series: Record<string, any>; occurrences: Record<string, any>[]; skipped: unknown[] };

    beforeAll(async () => {
      first = await c.create(seriesBody(), { key });
      created = expectData(first, 201);
    });

    it('POST /v1/series: 201 with Location, ETag "1", the series, its free dates in order and the busy one skipped', () => {
      const uid = created.series.uid;
      expect(uid).toMatch(UUID_RE);
      expect(first.headers.get('location')).toBe(`/v1/series/${uid}`);
      expect(first.headers.get('etag')).toBe('"1"');
      const rate = expectCommonHeaders(first, 10_000);
      expect(rate.remaining).toBeLessThan(10_000);
      // docs/api/choices.md: a new series is active, version 1, zone defaulting to the host's; the name built from first and last name.
      expect(created.series).toEqual(expectedSeries({ uid }));
      expect(created.series.updated_at).toBe(created.series.created_at);
      // Thursday of week 0 at 10:00 is taken by the imported booking: skipped, not shifted.
      const booked = MON_THU_DAYS.slice(0, 6).filter((d) => d !== 3);
      expect(created.occurrences).toEqual(
        booked.map((d) => ({
          uid: expect.stringMatching(UUID_RE),
          start_at: tokyoAt(d, '10:00'),
          end_at: tokyoEnd(d, '10:00'),
          status: 'confirmed',
        })),
      );
      expect(new Set(created.occurrences.map((o) => o.uid)).size).toBe(5);
      expect(created.skipped).toEqual([skippedAt(3, '10:00')]);
    });

    it('the same Idempotency-Key and body (keys in another order) replay the 201 with the original request id', async () => {
      const reordered = Object.fromEntries(Object.entries(seriesBody()).reverse());
      const replay = await c.create(reordered, { key });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('x-request-id')).toBe(first.body.meta.request_id);
      expect(replay.headers.get('location')).toBe(first.headers.get('location'));
      expect(replay.headers.get('etag')).toBe('"1"');
      expectCommonHeaders(replay, 10_000);
      // Nothing was booked twice.
      expect((await c.bookings(created.series.uid)).map((b) => b.uid)).toEqual(created.occurrences.map((o) => o.uid));
    });

    it('the same Idempotency-Key with another body is 409 idempotency_key_conflict', async () => {
      expectError(await c.create(seriesBody({ count: 5 }), { key }), 409, 'idempotency_key_conflict', {});
    });

    it('GET /v1/series/:uid shows the series with ETag "1"', async () => {
      const res = await c.get(created.series.uid);
      expect(expectData(res)).toEqual(created.series);
      expect(res.headers.get('etag')).toBe('"1"');
    });

    it('GET /v1/bookings?series_id lists exactly the occurrences, as ordinary confirmed bookings', async () => {
      const items = await c.bookings(created.series.uid);
      expect(items).toEqual(
        created.occurrences.map((o) => ({
          uid: o.uid,
          version: 1,
          event_type_id: SYNC.id,
          event_type_slug: SYNC.slug,
          title: 'Weekly sync between Hal Host and Pat Lee',
          status: 'confirmed',
          start_at: o.start_at,
          end_at: o.end_at,
          timezone: 'Asia/Tokyo',
          host: HOST_VIEW.hal,
          hosts: [HOST_VIEW.hal],
          attendees: [{ email: 'pat@example.com', name: 'Pat Lee', timezone: 'Asia/Tokyo' }],
          guests: [],
          location: { type: 'conference', url: `https://meet.test/${o.uid}`, value: null },
          metadata: {},
          responses: null,
          calendar_sync_status: 'not_applicable',
          calendar_event_id: expect.any(String),
          rescheduled_from_uid: null,
          cancelled_at: null,
          cancellation_reason: null,
          no_show_at: null,
          no_show_reason: null,
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        })),
      );
      for (const b of items) expect(b.updated_at).toBe(b.created_at);
    });
  });

  describe('pause, resume, PATCH, host change and end, one after the other', () => {
    // Mondays and Thursdays at 13:00: all four dates free.
    const DAYS = [0, 3, 7, 10];
    let uid: string;
    let heldUids: string[];
    const confirmedStarts = async () => (await c.bookings(uid, 'confirmed')).map((b) => b.start_at);

    beforeAll(async () => {
      const data = expectData(await c.create(seriesBody({ time: '13:00', count: 4 })), 201);
      uid = data.series.uid;
      heldUids = data.occurrences.map((o: { uid: string }) => o.uid);
      expect(data.occurrences.map((o: { start_at: string }) => o.start_at)).toEqual(DAYS.map((d) => tokyoAt(d, '13:00')));
    });

    it('pause holds every future occurrence: 200 {held: 4, superseded: false}, status paused, version 2', async () => {
      expect(expectData(await c.act(uid, 'pause', { key: null }))).toEqual({ held: 4, superseded: false });
      const res = await c.get(uid);
      expect(expectData(res)).toEqual(expectedSeries({ uid, time: '13:00', count: 4, status: 'paused', version: 2 }));
      expect(res.headers.get('etag')).toBe('"2"');
      const items = await c.bookings(uid);
      expect(items.map((b) => [b.uid, b.status, b.cancellation_reason])).toEqual(heldUids.map((u) => [u, 'canceled', HELD_REASON]));
    });

    it('resume with an If-Match that is no revision is 400 invalid_if_match, and changes nothing', async () => {
      expectError(await c.act(uid, 'resume', { ifMatch: 'nope' }), 400, 'invalid_if_match', { if_match: 'nope' });
      expect(expectData(await c.get(uid))).toMatchObject({ version: 2, status: 'paused' });
    });

    it('resume with a stale If-Match is 409 version_conflict with the current version', async () => {
      expectError(await c.act(uid, 'resume', { ifMatch: '"1"' }), 409, 'version_conflict', { current_version: 2 });
      expect(await confirmedStarts()).toEqual([]);
    });

    it('resume with If-Match of the current version books each owed date again: {created: 4, owed: 0}, active, version 3', async () => {
      const data = expectData(await c.act(uid, 'resume', { ifMatch: '"2"' }));
      expect(data).toEqual({ created: 4, skipped: [], owed: 0, superseded: false });
      const res = await c.get(uid);
      expect(expectData(res)).toMatchObject({ status: 'active', version: 3 });
      expect(res.headers.get('etag')).toBe('"3"');
      // A short pause restores each occurrence at its own instant, naming the held one it replaces.
      const replacements = await c.bookings(uid, 'confirmed');
      expect(replacements.map((b) => [b.start_at, b.rescheduled_from_uid])).toEqual(DAYS.map((d, i) => [tokyoAt(d, '13:00'), heldUids[i]]));
    });

    it('PATCH without If-Match is 428 missing_if_match', async () => {
      expectError(await c.patch(uid, { body: { time: '14:00' } }), 428, 'missing_if_match', {});
    });

    it('PATCH with a stale If-Match is 409 version_conflict with the current version', async () => {
      expectError(await c.patch(uid, { body: { time: '14:00' }, ifMatch: '"2"' }), 409, 'version_conflict', { current_version: 3 });
    });

    it('PATCH of count is 422 invalid_change naming the field', async () => {
      expectError(await c.patch(uid, { body: { count: 3 }, ifMatch: '"3"' }), 422, 'invalid_change', { fields: ['count'] });
      expect(expectData(await c.get(uid))).toMatchObject({ version: 3, count: 4, time: '13:00' });
    });

    it('PATCH of time: 200, ETag "4", the series, and every occurrence rebooked at the new time', async () => {
      const res = await c.patch(uid, { body: { time: '14:00' }, ifMatch: '"3"' });
      const data = expectData(res);
      expect(res.headers.get('etag')).toBe('"4"');
      expect(data).toEqual({
        series: expectedSeries({ uid, time: '14:00', count: 4, version: 4 }),
        resumed: { created: 4, skipped: [], owed: 0, superseded: false },
      });
      expect(data.series.updated_at > data.series.created_at).toBe(true);
      expect(expectData(await c.get(uid))).toEqual(data.series);
      // docs/api/choices.md rule 2: the held occurrences move to the new pattern's next instants.
      expect(await confirmedStarts()).toEqual(DAYS.map((d) => tokyoAt(d, '14:00')));
    });

    it('a host change to someone the caller may not act for is 403 host_not_allowed', async () => {
      const res = await c.act(uid, 'host', { body: { host_user_id: SERIES_USERS.gil } }, SERIES_SECRETS.hal);
      expectError(res, 403, 'host_not_allowed', { fields: ['host_user_id'] });
      expect(expectData(await c.get(uid))).toMatchObject({ version: 4, host: HOST_VIEW.hal });
    });

    it('POST host moves every occurrence, then the series: {moved: 4, stopped_by: null}', async () => {
      const data = expectData(await c.act(uid, 'host', { body: { host_user_id: SERIES_USERS.gil } }));
      expect(data).toEqual({ moved: 4, unchanged: 0, stopped_by: null, superseded: false });
      expect(expectData(await c.get(uid))).toEqual(expectedSeries({ uid, time: '14:00', count: 4, version: 5, host: HOST_VIEW.gil }));
      const items = await c.bookings(uid, 'confirmed');
      expect(items.map((b) => [b.start_at, b.host, b.title])).toEqual(
        DAYS.map((d) => [tokyoAt(d, '14:00'), HOST_VIEW.gil, 'Weekly sync between Gil Second and Pat Lee']),
      );
    });

    it('end cancels every future occurrence for good: {canceled: 4, superseded: false}, status ended', async () => {
      expect(expectData(await c.act(uid, 'end'))).toEqual({ canceled: 4, superseded: false });
      const res = await c.get(uid);
      const series = expectData(res);
      expect(series).toEqual(
        expectedSeries({
          uid,
          time: '14:00',
          count: 4,
          version: 6,
          host: HOST_VIEW.gil,
          status: 'ended',
          ended_at: expect.stringMatching(TIMESTAMP),
        }),
      );
      expect(res.headers.get('etag')).toBe('"6"');
      expect(await confirmedStarts()).toEqual([]);
      const ended = (await c.bookings(uid, 'canceled')).filter((b) => b.cancellation_reason === 'The series was ended.');
      expect(ended.map((b) => b.start_at)).toEqual(DAYS.map((d) => tokyoAt(d, '14:00')));
    });

    it('every action on an ended series is 409 series_ended, end included, and nothing changes', async () => {
      expectError(await c.act(uid, 'pause', { key: null }), 409, 'series_ended', {});
      expectError(await c.act(uid, 'resume'), 409, 'series_ended', {});
      expectError(await c.act(uid, 'end'), 409, 'series_ended', {});
      expectError(await c.act(uid, 'host', { body: { host_user_id: SERIES_USERS.hal } }), 409, 'series_ended', {});
      expectError(await c.patch(uid, { body: { time: '15:00' }, ifMatch: '"6"' }), 409, 'series_ended', {});
      expect(expectData(await c.get(uid))).toMatchObject({ version: 6, status: 'ended' });
    });
  });
});

describe('series errors and lists over HTTP (SQLite file)', () => {
  let server: TestServer;
  const c = client(() => server);
  /** hal's series, which the error tests leave untouched. */
  let known: string;
  /** gil's series, which hal cannot see. */
  let gils: string;
  /** Every series of the file, made before any test: hal's four, then gil's one. */
  const made: { uid: string; created_at: string }[] = [];

  beforeAll(async () => {
    const db = join(tempDir('schedule-series-'), 'series.db');
    server = await startInProcess({ workspace: writeWorkspace(seriesWorkspace()), db: db }, ENV);
    const make = async (body: Record<string, unknown>) => {
      const series = expectData(await c.create(body), 201).series;
      made.push(series);
      return series.uid as string;
    };
    known = await make(seriesBody({ time: '09:00', count: 2 }));
    // Three single-occurrence series on three weekdays at 16:00.
    for (const day of ['tue', 'wed', 'fri']) {
      await make(seriesBody({ weekdays: [day], time: '16:00', count: 1, attendee: { email: `${day}@example.com` } }));
    }
    gils = await make(seriesBody({ host_user_id: SERIES_USERS.gil, time: '09:30', count: 1 }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('a malformed or unknown uid is 404 series_not_found on GET, PATCH and every POST route', async () => {
    for (const uid of ['not-a-uuid', randomUUID()]) {
      const answers = [
        await c.get(uid),
        await c.act(uid, 'pause', { key: null }),
        await c.act(uid, 'resume'),
        await c.act(uid, 'end'),
        await c.act(uid, 'host', { body: { host_user_id: SERIES_USERS.gil } }),
        await c.patch(uid, { body: { time: '11:00' }, ifMatch: '"1"' }),
      ];
      for (const res of answers) expectError(res, 404, 'series_not_found', { uid });
    }
  });

  it('a series the caller cannot see answers exactly like an unknown one', async () => {
    expectError(await c.get(gils, SERIES_SECRETS.hal), 404, 'series_not_found', { uid: gils });
    expectError(await c.act(gils, 'pause', { key: null }, SERIES_SECRETS.hal), 404, 'series_not_found', { uid: gils });
  });

  it('create, resume and end without an Idempotency-Key are 400 missing_idempotency_key', async () => {
    expectError(await c.create(seriesBody({ time: '11:00' }), { key: null }), 400, 'missing_idempotency_key', {});
    expectError(await c.act(known, 'resume', { key: null }), 400, 'missing_idempotency_key', {});
    expectError(await c.act(known, 'end', { key: null }), 400, 'missing_idempotency_key', {});
    expect(expectData(await c.get(known))).toMatchObject({ version: 1, status: 'active' });
  });

  it('a count outside 1 to 42 is 422 count_out_of_range', async () => {
    for (const count of [0, 43]) {
      expectError(await c.create(seriesBody({ time: '11:00', count })), 422, 'count_out_of_range', { fields: ['count'], min: 1, max: 42 });
    }
  });

  it('a body that is not JSON is 400 validation_error', async () => {
    expectError(await c.create('{"host_user_id": '), 400, 'validation_error', { fields: [] });
  });

  it('a token without series:write is 403 insufficient_scope naming the scope; it still reads', async () => {
    const read = SERIES_SECRETS.oraRead;
    expectError(await c.create(seriesBody({ time: '11:00' }), {}, read), 403, 'insufficient_scope', { required_scope: 'series:write' });
    expectError(await c.act(known, 'pause', { key: null }, read), 403, 'insufficient_scope', { required_scope: 'series:write' });
    expect(expectData(await c.get(known, read)).uid).toBe(known);
  });

  it('no token is 401 unauthorized with WWW-Authenticate', async () => {
    for (const res of [await c.raw('/v1/series'), await c.raw(`/v1/series/${known}/pause`, { method: 'POST' })]) {
      expectError(res, 401, 'unauthorized', {});
      expect(res.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="schedule", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/,
      );
    }
  });

  it('a method a series path does not take is 405 with an Allow header', async () => {
    const one = await c.raw(`/v1/series/${known}`, { method: 'DELETE', token: ORA });
    expectError(one, 405, 'method_not_allowed', { allow: ['GET', 'PATCH'] });
    expect(one.headers.get('allow')).toBe('GET, PATCH');
    const list = await c.raw('/v1/series', { method: 'PUT', token: ORA });
    expectError(list, 405, 'method_not_allowed', { allow: ['GET', 'POST'] });
    expect(list.headers.get('allow')).toBe('GET, POST');
  });

  it('GET /v1/series pages newest first with opaque cursors; the pages join to the whole list', async () => {
    const whole = expectPage(await c.raw('/v1/series?limit=100', { token: ORA }));
    expect(whole.hasMore).toBe(false);
    expect(whole.items).toHaveLength(made.length);
    // Newest first: created_at descending, then uid descending.
    const order = (a: { uid: string; created_at: string }, b: { uid: string; created_at: string }) =>
      b.created_at.localeCompare(a.created_at) || b.uid.localeCompare(a.uid);
    expect(whole.items.map((s) => s.uid)).toEqual([...made].sort(order).map((s) => s.uid));

    const paged: any[] = [];
    let cursor: string | null = null;
    do {
      const page = expectPage(await c.raw(`/v1/series?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: ORA }));
      expect(page.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(paged).toEqual(whole.items);
  });

  it('GET /v1/series filters by host; a user sees only their own series', async () => {
    const gil = expectPage(await c.raw(`/v1/series?host_user_id=${SERIES_USERS.gil}`, { token: ORA }));
    expect(gil.items.map((s) => s.host)).toEqual([HOST_VIEW.gil]);
    const hal = expectPage(await c.raw('/v1/series', { token: SERIES_SECRETS.hal }));
    expect(hal.items).toHaveLength(made.length - 1);
    expect(hal.items.every((s) => s.host.user_id === SERIES_USERS.hal)).toBe(true);
    expect(expectPage(await c.raw('/v1/series?status=ended', { token: ORA })).items).toEqual([]);
  });
});
