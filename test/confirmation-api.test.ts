import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, createBooking, getBooking, listSlots } from './support/booking-writes.js';
import { api, expectData, expectError } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { isoAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// docs/api/endpoints.md "Pending bookings": an event type that requires
// confirmation, its pending bookings, and POST /v1/bookings/:uid/confirm and
// /decline over HTTP, against the server the binary runs (in process).

const IDS = {
  ria: 'd5000000-0000-4000-8000-000000000001',
  sam: 'd5000000-0000-4000-8000-000000000002',
  approve: 'd5e00000-0000-4000-8000-000000000001',
} as const;
const RIA = 'confirm-secret-ria-all-scopes';
const SAM = 'confirm-secret-sam-all-scopes';
const everyDay = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['08:00', '18:00']]]));

const workspace = {
  organization: { name: 'Confirm Org' },
  limits: { pat_per_minute: 10_000 },
  users: [
    {
      id: IDS.ria,
      username: 'ria',
      email: 'ria@confirm.test',
      name: 'Ria Host',
      timezone: 'UTC',
      schedule: { timezone: 'UTC', weekly: everyDay },
    },
    { id: IDS.sam, username: 'sam', email: 'sam@confirm.test', name: 'Sam Other', timezone: 'UTC' },
  ],
  event_types: [
    {
      id: IDS.approve,
      owner: 'ria',
      slug: 'approve',
      name: 'Approved call',
      duration_minutes: 30,
      minimum_notice_minutes: 0,
      future_limit_days: 30,
      requires_confirmation: true,
    },
  ],
  tokens: [
    { name: 'ria', user: 'ria', secret: RIA, scopes: [...ALL_SCOPES] },
    { name: 'sam', user: 'sam', secret: SAM, scopes: [...ALL_SCOPES] },
  ],
};

let server: TestServer;
beforeAll(async () => {
  server = await startInProcess({ workspace: writeWorkspace(workspace), db: ':memory:' });
});
afterAll(async () => {
  await server?.stop();
});

const answer = (
  action: 'confirm' | 'decline',
  uid: string,
  options: { token?: string; json?: unknown; ifMatch?: string; key?: string | null } = {},
) =>
  api(server.url, `/v1/bookings/${uid}/${action}`, {
    method: 'POST',
    token: options.token ?? RIA,
    headers: {
      ...(options.key === null ? {} : { 'idempotency-key': options.key ?? crypto.randomUUID() }),
      ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
    },
    ...(options.json === undefined ? {} : { json: options.json }),
  });
const request = async (start: string) =>
  expectData(await createBooking(server.url, RIA, bookingBody(IDS.approve, start, 'kim@example.com')), 201);
const slotStarts = async (day: number) =>
  (
    expectData(await listSlots(server.url, RIA, { event_type_id: IDS.approve, start: isoAt(day, 0), end: isoAt(day + 1, 0) })).slots as {
      start: string;
    }[]
  ).map((s) => new Date(s.start).toISOString());

describe('pending bookings over HTTP', () => {
  it('shows requires_confirmation on the event type', async () => {
    expect(expectData(await api(server.url, `/v1/event-types/${IDS.approve}`, { token: RIA })).requires_confirmation).toBe(true);
  });

  it('creates pending (201, ETag "1"), holds the slot, and confirm answers 200 confirmed with ETag "2"', async () => {
    const start = isoAt(2, 9);
    const made = await request(start);
    expect(made.status).toBe('pending');
    expect(await slotStarts(2)).not.toContain(start);
    expectError(await createBooking(server.url, RIA, bookingBody(IDS.approve, start, 'other@example.com')), 409, 'slot_unavailable', {
      reason: 'slot_busy',
    });
    const res = await answer('confirm', made.uid, { ifMatch: '"1"' });
    expect(expectData(res)).toMatchObject({ uid: made.uid, status: 'confirmed', version: 2 });
    expect(res.headers.get('etag')).toBe('"2"');
    expectError(await answer('confirm', made.uid), 409, 'booking_not_pending', { status: 'confirmed' });
  });

  it('declines with a reason, freeing the slot; a second decline is 409 booking_not_pending', async () => {
    const start = isoAt(2, 10);
    const made = await request(start);
    const declined = expectData(await answer('decline', made.uid, { json: { reason: 'Away that day' } }));
    expect(declined).toMatchObject({ status: 'declined', cancellation_reason: 'Away that day', version: 2 });
    expect(await slotStarts(2)).toContain(start);
    expectError(await answer('decline', made.uid), 409, 'booking_not_pending', { status: 'declined' });
  });

  it('needs an Idempotency-Key, refuses a stale If-Match, a body field it does not take, and another host', async () => {
    const made = await request(isoAt(3, 9));
    expectError(await answer('confirm', made.uid, { key: null }), 400, 'missing_idempotency_key');
    expectError(await answer('confirm', made.uid, { ifMatch: '"5"' }), 409, 'version_conflict', { current_version: 1 });
    expectError(await answer('decline', made.uid, { json: { why: 'x' } }), 400, 'validation_error');
    expectError(await answer('confirm', made.uid, { token: SAM }), 404, 'booking_not_found', { uid: made.uid });
    expect(expectData(await getBooking(server.url, RIA, made.uid)).status).toBe('pending');
  });

  it('replays the same Idempotency-Key with the first answer', async () => {
    const made = await request(isoAt(3, 10));
    const first = await answer('confirm', made.uid, { key: 'confirm-once' });
    const again = await answer('confirm', made.uid, { key: 'confirm-once' });
    expect(expectData(again)).toEqual(expectData(first));
  });
});
