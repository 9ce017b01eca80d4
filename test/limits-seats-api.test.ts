import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, cancelBooking, checkSlot, createBooking, listSlots, rescheduleBooking } from './support/booking-writes.js';
import { api, expectData, expectError } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { dateOf, isoAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// docs/api/event-types.md "Limits and seats" over HTTP: the fields through
// the event type API, seats left in GET /v1/slots, a full start and a
// reached limit refused alike by check and create, every answer checked
// against docs/openapi.json.

const IDS = {
  hana: 'd3000000-0000-4000-8000-000000000001',
  class: 'd3e00000-0000-4000-8000-000000000001',
  call: 'd3e00000-0000-4000-8000-000000000002',
} as const;
const TOKEN = 'limits-seats-secret-hana';

const workspace = {
  organization: { name: 'Limits Org' },
  limits: { pat_per_minute: 10_000 },
  users: [
    {
      id: IDS.hana,
      username: 'hana',
      email: 'hana@limits.test',
      name: 'Hana Host',
      timezone: 'UTC',
      role: 'user',
      schedule: { timezone: 'UTC', weekly: {}, overrides: [{ date: dateOf(3), intervals: [['09:00', '12:00']] }] },
    },
  ],
  event_types: [
    { id: IDS.class, owner: 'hana', slug: 'class', name: 'Class', duration_minutes: 60, minimum_notice_minutes: 0, seats: 2 },
    { id: IDS.call, owner: 'hana', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
  ],
  tokens: [{ name: 'hana', user: 'hana', secret: TOKEN, scopes: [...ALL_SCOPES] }],
};

let server: TestServer;
beforeAll(async () => {
  server = await startInProcess({ workspace: writeWorkspace(workspace), db: ':memory:' });
});
afterAll(async () => {
  await server?.stop();
});

const slotsOf = async (eventTypeId: string) =>
  expectData(await listSlots(server.url, TOKEN, { event_type_id: eventTypeId, start: isoAt(3), end: isoAt(4) })).slots as {
    start: string;
    seats_left?: number;
  }[];

describe('seats over HTTP', () => {
  it('shows seats_left, books each attendee as their own booking, then answers 409 slot_unavailable slot_busy', async () => {
    expect((await slotsOf(IDS.class)).map((s) => [s.start, s.seats_left])).toEqual([
      [isoAt(3, 9), 2],
      [isoAt(3, 10), 2],
      [isoAt(3, 11), 2],
    ]);
    // A plain type shows no seats_left.
    expect((await slotsOf(IDS.call))[0]).not.toHaveProperty('seats_left');
    const first = expectData(await createBooking(server.url, TOKEN, bookingBody(IDS.class, isoAt(3, 10), 'a@example.com')), 201);
    const second = expectData(await createBooking(server.url, TOKEN, bookingBody(IDS.class, isoAt(3, 10), 'b@example.com')), 201);
    expect(first.uid).not.toBe(second.uid);
    expect(first.start_at).toBe(second.start_at);
    expect((await slotsOf(IDS.class)).map((s) => s.start)).toEqual([isoAt(3, 9), isoAt(3, 11)]);
    expect(expectData(await checkSlot(server.url, TOKEN, { event_type_id: IDS.class, start: isoAt(3, 10) }))).toMatchObject({
      available: false,
      reason: 'slot_busy',
    });
    expectError(await createBooking(server.url, TOKEN, bookingBody(IDS.class, isoAt(3, 10), 'c@example.com')), 409, 'slot_unavailable', {
      reason: 'slot_busy',
    });
    // The group is one meeting for the host's other types.
    expectError(await createBooking(server.url, TOKEN, bookingBody(IDS.call, isoAt(3, 10, 30))), 409, 'slot_unavailable', {
      reason: 'slot_busy',
    });
    // One seat moves alone; the seat it left is free again.
    expectData(await rescheduleBooking(server.url, TOKEN, first.uid, { start: isoAt(3, 11) }));
    expect((await slotsOf(IDS.class)).map((s) => s.seats_left)).toEqual([2, 1, 1]);
    expectData(await cancelBooking(server.url, TOKEN, second.uid));
    expect((await slotsOf(IDS.class)).map((s) => s.seats_left)).toEqual([2, 2, 1]);
  });
});

describe('limits over HTTP', () => {
  it('sets a day limit by PATCH, refuses a bad one naming the field, and the reached limit empties the day', async () => {
    const got = await api(server.url, `/v1/event-types/${IDS.call}`, { token: TOKEN });
    const version = expectData(got).version as number;
    expectError(
      await api(server.url, `/v1/event-types/${IDS.call}`, {
        method: 'PATCH',
        token: TOKEN,
        headers: { 'if-match': `"${version}"` },
        json: { max_bookings_per_day: 0 },
      }),
      400,
      'validation_error',
      { fields: ['max_bookings_per_day'] },
    );
    const patched = expectData(
      await api(server.url, `/v1/event-types/${IDS.call}`, {
        method: 'PATCH',
        token: TOKEN,
        headers: { 'if-match': `"${version}"` },
        json: { max_bookings_per_day: 1, max_bookings_per_week: 5 },
      }),
    );
    expect([patched.max_bookings_per_day, patched.max_bookings_per_week, patched.seats]).toEqual([1, 5, null]);
    // The class bookings above are another type's: they do not count against this limit.
    expectData(await createBooking(server.url, TOKEN, bookingBody(IDS.call, isoAt(3, 9))), 201);
    expect(await slotsOf(IDS.call)).toEqual([]);
    expect(expectData(await checkSlot(server.url, TOKEN, { event_type_id: IDS.call, start: isoAt(3, 9, 30) }))).toMatchObject({
      available: false,
      reason: 'slot_busy',
    });
    expectError(await createBooking(server.url, TOKEN, bookingBody(IDS.call, isoAt(3, 9, 30))), 409, 'slot_unavailable', {
      reason: 'slot_busy',
    });
  });
});
