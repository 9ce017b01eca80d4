import { createScheduleClient, type ErrorCode, ifMatch, type ScheduleClient } from '@schedule/client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type ServerProcess, startServer, writeWorkspace } from './support/serve.js';
import { isoAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// Issue 14: @schedule/client, generated from docs/openapi.json, drives a
// create → get → patch → cancel round trip against `schedule serve`, and its
// error results and cursor iteration hold against the same server.

const HOST_ID = 'c1000000-0000-4000-8000-000000000001';
const EVENT_TYPE_ID = 'c1e00000-0000-4000-8000-000000000001';
const TOKEN = 'client-secret-dee-all-scopes';
const everyDay = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['08:00', '18:00']]]));

const workspace = {
  organization: { name: 'Client Org' },
  users: [
    {
      id: HOST_ID,
      username: 'dee',
      email: 'dee@client.test',
      name: 'Dee Host',
      timezone: 'UTC',
      role: 'user',
      schedule: { timezone: 'UTC', weekly: everyDay },
    },
  ],
  event_types: [
    { id: EVENT_TYPE_ID, owner: 'dee', slug: 'chat', name: 'Chat', duration_minutes: 30, minimum_notice_minutes: 0, future_limit_days: 30 },
  ],
  tokens: [{ name: 'dee', user: 'dee', secret: TOKEN, scopes: [...ALL_SCOPES] }],
};

let server: ServerProcess;
let client: ScheduleClient;

beforeAll(async () => {
  server = await startServer(['--workspace', writeWorkspace(workspace), '--db', ':memory:']);
  client = createScheduleClient({ baseUrl: server.url, token: TOKEN });
});

afterAll(async () => {
  await server?.stop();
});

const book = (start: string, email = 'kim@example.com') =>
  client.POST('/v1/bookings', { body: { event_type_id: EVENT_TYPE_ID, start, attendee: { email, name: 'Kim' } } });

describe('@schedule/client against schedule serve', () => {
  it('creates, reads, patches with If-Match and cancels a booking', async () => {
    const created = await book(isoAt(2, 9));
    expect(created.response.status).toBe(201);
    const booking = created.data!.data;
    expect(booking).toMatchObject({ status: 'confirmed', version: 1, start_at: isoAt(2, 9), attendees: [{ email: 'kim@example.com' }] });

    const read = await client.GET('/v1/bookings/{uid}', { params: { path: { uid: booking.uid } } });
    expect(read.response.status).toBe(200);
    expect(read.response.headers.get('etag')).toBe('"1"');
    expect(read.data!.data).toEqual(booking);

    const patched = await client.PATCH('/v1/bookings/{uid}', {
      params: { path: { uid: booking.uid }, header: ifMatch(read.data!.data.version) },
      body: { attendee_name: 'Kim Lee', metadata: { crm_id: '42' } },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data!.data).toMatchObject({ version: 2, attendees: [{ name: 'Kim Lee' }], metadata: { crm_id: '42' } });

    const cancelled = await client.POST('/v1/bookings/{uid}/cancel', { params: { path: { uid: booking.uid } }, body: { reason: 'Moved' } });
    expect(cancelled.response.status).toBe(200);
    expect(cancelled.data!.data).toMatchObject({ uid: booking.uid, status: 'canceled', cancellation_reason: 'Moved' });
  });

  it('answers a refusal as a typed error result: the code is one the document lists for the operation', async () => {
    const missing = await client.GET('/v1/bookings/{uid}', { params: { path: { uid: 'c1b00000-0000-4000-8000-00000000dead' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error!.error.code).toBe('booking_not_found');
    type Code = NonNullable<typeof missing.error>['error']['code'];
    expectTypeOf<Code>().toExtend<ErrorCode>();
    expectTypeOf<'booking_not_found'>().toExtend<Code>();
    // A code the operation cannot answer is not in its union.
    expectTypeOf<'series_busy'>().not.toExtend<Code>();
  });

  it('a stale If-Match is a version_conflict, and a write replayed with its own key answers the stored result', async () => {
    const { data } = await book(isoAt(3, 9));
    const uid = data!.data.uid;
    const stale = await client.PATCH('/v1/bookings/{uid}', {
      params: { path: { uid }, header: ifMatch(7) },
      body: { attendee_name: 'Late' },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.error!.error.code).toBe('version_conflict');

    const key = { 'Idempotency-Key': `cancel-${uid}` };
    const first = await client.POST('/v1/bookings/{uid}/cancel', { params: { path: { uid }, header: key }, body: {} });
    const again = await client.POST('/v1/bookings/{uid}/cancel', { params: { path: { uid }, header: key }, body: {} });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
  });

  it('paginate follows next_cursor across pages to every booking', async () => {
    const starts = [10, 11, 12, 13, 14].map((hour) => isoAt(4, hour));
    for (const start of starts) expect((await book(start, 'pages@example.com')).response.status).toBe(201);

    const seen: string[] = [];
    for await (const booking of client.paginate('/v1/bookings', { attendee_email: 'pages@example.com', sort: 'start_at_asc', limit: 2 })) {
      seen.push(booking.start_at);
    }
    expect(seen).toEqual(starts);
  });
});
