import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelBooking, getBooking, rescheduleBooking } from './support/booking-writes.js';
import { api, expectData, expectError } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { isoAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// docs/api/endpoints.md "No-shows" and docs/api/event-types.md "Notice for
// cancel and reschedule", over HTTP against the server the binary runs (in
// process), on the wall clock: bookings in the past are marked, bookings days
// ahead are inside a notice of ten days.

const IDS = {
  dee: 'd4000000-0000-4000-8000-000000000001',
  eli: 'd4000000-0000-4000-8000-000000000002',
  plain: 'd4e00000-0000-4000-8000-000000000001',
  strict: 'd4e00000-0000-4000-8000-000000000002',
} as const;
const UIDS = {
  past: 'd4b00000-0000-4000-8000-000000000001',
  future: 'd4b00000-0000-4000-8000-000000000002',
  canceled: 'd4b00000-0000-4000-8000-000000000003',
  strict: 'd4b00000-0000-4000-8000-000000000004',
  strictMove: 'd4b00000-0000-4000-8000-000000000005',
  override: 'd4b00000-0000-4000-8000-000000000006',
} as const;
const DEE = 'noshow-secret-dee-all-scopes';
const ELI = 'noshow-secret-eli-all-scopes';
const DEE_CANCEL_ONLY = 'noshow-secret-dee-cancel-only';
const TEN_DAYS = 10 * 24 * 60;

const everyDay = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['08:00', '18:00']]]));
const imported = (uid: string, slug: string, start: string, extra: Record<string, unknown> = {}) => ({
  uid,
  event_type: slug,
  host: 'dee',
  start,
  attendee: { email: 'guest@example.com', name: 'Guest', timezone: 'UTC' },
  ...extra,
});

const workspace = {
  organization: { name: 'No-show Org' },
  limits: { pat_per_minute: 10_000 },
  users: [
    {
      id: IDS.dee,
      username: 'dee',
      email: 'dee@noshow.test',
      name: 'Dee Host',
      timezone: 'UTC',
      schedule: { timezone: 'UTC', weekly: everyDay },
    },
    { id: IDS.eli, username: 'eli', email: 'eli@noshow.test', name: 'Eli Other', timezone: 'UTC' },
  ],
  event_types: [
    { id: IDS.plain, owner: 'dee', slug: 'plain', name: 'Plain', duration_minutes: 30, minimum_notice_minutes: 0 },
    {
      id: IDS.strict,
      owner: 'dee',
      slug: 'strict',
      name: 'Strict',
      duration_minutes: 30,
      minimum_notice_minutes: 0,
      cancel_notice_minutes: TEN_DAYS,
      reschedule_notice_minutes: TEN_DAYS,
    },
  ],
  tokens: [
    { name: 'dee', user: 'dee', secret: DEE, scopes: [...ALL_SCOPES] },
    { name: 'eli', user: 'eli', secret: ELI, scopes: [...ALL_SCOPES] },
    { name: 'dee-cancel', user: 'dee', secret: DEE_CANCEL_ONLY, scopes: ['bookings:read', 'bookings:cancel'] },
  ],
  bookings: [
    imported(UIDS.past, 'plain', isoAt(-1, 10)),
    imported(UIDS.future, 'plain', isoAt(5, 10)),
    imported(UIDS.canceled, 'plain', isoAt(-2, 10), { status: 'canceled', cancelled_at: isoAt(-3) }),
    imported(UIDS.strict, 'strict', isoAt(5, 11)),
    imported(UIDS.strictMove, 'strict', isoAt(5, 12)),
    imported(UIDS.override, 'strict', isoAt(5, 13)),
  ],
};

let server: TestServer;
beforeAll(async () => {
  server = await startInProcess({ workspace: writeWorkspace(workspace), db: ':memory:' });
});
afterAll(async () => {
  await server?.stop();
});

const markNoShow = (uid: string, body: unknown, headers: Record<string, string> = { 'idempotency-key': randomUUID() }, token = DEE) =>
  api(server.url, `/v1/bookings/${uid}/no-show`, { method: 'POST', token, headers, json: body });
const clearNoShow = (uid: string, headers: Record<string, string> = {}, token = DEE) =>
  api(server.url, `/v1/bookings/${uid}/no-show`, { method: 'DELETE', token, headers });

describe('POST and DELETE /v1/bookings/:uid/no-show', () => {
  it('marks a booking that has started: 200, the booking with no_show_at and the reason, ETag of the new version; a replay says so', async () => {
    const key = { 'idempotency-key': randomUUID() };
    const first = await markNoShow(UIDS.past, { reason: 'Never joined' }, key);
    const data = expectData(first);
    expect(data).toMatchObject({ uid: UIDS.past, status: 'confirmed', no_show_reason: 'Never joined', version: 2 });
    expect(Date.parse(data.no_show_at)).toBeGreaterThan(Date.parse(isoAt(-1, 10)));
    expect(first.headers.get('etag')).toBe('"2"');
    const again = await markNoShow(UIDS.past, { reason: 'Never joined' }, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(expectData(again)).toEqual(data);
    expect(expectData(await getBooking(server.url, DEE, UIDS.past))).toMatchObject({ no_show_reason: 'Never joined', version: 2 });

    const cleared = await clearNoShow(UIDS.past, { 'if-match': '"2"' });
    expect(expectData(cleared)).toMatchObject({ no_show_at: null, no_show_reason: null, version: 3 });
    expect(cleared.headers.get('etag')).toBe('"3"');
    expectError(await clearNoShow(UIDS.past, { 'if-match': '"2"' }), 409, 'version_conflict', { current_version: 3 });
  });

  it('409 booking_not_started for a booking ahead, 409 booking_already_cancelled for a canceled one', async () => {
    expectError(await markNoShow(UIDS.future, {}), 409, 'booking_not_started', { start_at: isoAt(5, 10) });
    expectError(await markNoShow(UIDS.canceled, {}), 409, 'booking_already_cancelled', { status: 'canceled' });
  });

  it("404 booking_not_found for another host's booking; 403 without bookings:update; 400 without an Idempotency-Key", async () => {
    expectError(await markNoShow(UIDS.past, {}, { 'idempotency-key': randomUUID() }, ELI), 404, 'booking_not_found', { uid: UIDS.past });
    expectError(await clearNoShow(UIDS.past, {}, ELI), 404, 'booking_not_found', { uid: UIDS.past });
    expectError(await markNoShow(UIDS.past, {}, { 'idempotency-key': randomUUID() }, DEE_CANCEL_ONLY), 403, 'insufficient_scope', {
      required_scope: 'bookings:update',
    });
    expectError(await markNoShow(UIDS.past, {}, {}), 400, 'missing_idempotency_key');
    expectError(await markNoShow(UIDS.past, { reason: 'r'.repeat(1025) }), 400, 'validation_error', { fields: ['reason'] });
    expectError(await markNoShow(UIDS.past, { note: 'x' }), 400, 'validation_error');
  });
});

describe('cancel and reschedule notice', () => {
  it('409 cancel_notice naming the deadline inside the notice; the booking stays confirmed', async () => {
    const error = expectError(await cancelBooking(server.url, DEE, UIDS.strict, {}), 409, 'cancel_notice', {
      start_at: isoAt(5, 11),
      notice_minutes: TEN_DAYS,
      deadline: isoAt(-5, 11),
    });
    expect(error.message).toBe("This booking can no longer be canceled: its event type asks for 14400 minutes' notice.");
    expect(expectData(await getBooking(server.url, DEE, UIDS.strict))).toMatchObject({ status: 'confirmed', version: 1 });
  });

  it('409 reschedule_notice inside the notice', async () => {
    expectError(await rescheduleBooking(server.url, DEE, UIDS.strictMove, { start: isoAt(6, 9) }), 409, 'reschedule_notice', {
      start_at: isoAt(5, 12),
      notice_minutes: TEN_DAYS,
      deadline: isoAt(-5, 12),
    });
  });

  it('a token acting for the host passes it with override_notice: true', async () => {
    const moved = expectData(await rescheduleBooking(server.url, DEE, UIDS.override, { start: isoAt(6, 9), override_notice: true }));
    expect(moved).toMatchObject({ start_at: isoAt(6, 9), version: 2 });
    expect(expectData(await cancelBooking(server.url, DEE, UIDS.override, { override_notice: true }))).toMatchObject({
      status: 'canceled',
    });
  });

  it('400 validation_error for an override_notice that is not a boolean', async () => {
    expectError(await cancelBooking(server.url, DEE, UIDS.strict, { override_notice: 'yes' }), 400, 'validation_error', {
      fields: ['override_notice'],
    });
  });

  it('shows both notices on the event type', async () => {
    const type = expectData(await api(server.url, `/v1/event-types/${IDS.strict}`, { token: DEE }));
    expect(type).toMatchObject({ cancel_notice_minutes: TEN_DAYS, reschedule_notice_minutes: TEN_DAYS, minimum_notice_minutes: 0 });
  });
});
