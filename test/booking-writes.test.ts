import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMESTAMP } from './support/booking-view.js';
import { bookingBody, cancelBooking, createBooking, getBooking, listSlots, rescheduleBooking } from './support/booking-writes.js';
import { type ApiResponse, api, expectData, expectError, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { iso, isoAt, MINUTE_MS, slotsAt, utcAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// docs/api/endpoints.md "Bookings", "Booking states", "Errors", "Idempotency rules" and
// docs/api/choices.md "Bookings": POST /v1/bookings, cancel and reschedule against
// the server the binary runs (in process). Bea works every day 08:00–18:00 UTC; each test books its
// own slots, so the tests do not depend on each other's order.

const IDS = {
  bea: 'd3000000-0000-4000-8000-000000000001',
  cal: 'd3000000-0000-4000-8000-000000000002',
  consult: 'd3e00000-0000-4000-8000-000000000001',
  strict: 'd3e00000-0000-4000-8000-000000000002',
  fixed: 'd3e00000-0000-4000-8000-000000000003',
  dormant: 'd3e00000-0000-4000-8000-000000000004',
  intake: 'd3e00000-0000-4000-8000-000000000005',
  long: 'd3e00000-0000-4000-8000-000000000006',
  calCall: 'd3e00000-0000-4000-8000-000000000007',
} as const;

const UIDS = {
  past: 'd3b00000-0000-4000-8000-000000000001',
  inProgress: 'd3b00000-0000-4000-8000-000000000002',
  canceled: 'd3b00000-0000-4000-8000-000000000003',
  fixed: 'd3b00000-0000-4000-8000-000000000004',
  blocker: 'd3b00000-0000-4000-8000-000000000005',
} as const;

const BEA = 'writes-secret-bea-all-scopes';
const CAL = 'writes-secret-cal-all-scopes';
const BEA_HOST = { user_id: IDS.bea, username: 'bea', email: 'bea@writes.test' };

// Started ten minutes before the file loaded, and not finished: a 30-minute booking in progress.
const IN_PROGRESS_START = iso(Math.floor((Date.now() - 10 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS);

const everyDay = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['08:00', '18:00']]]));
const eventType = (id: string, slug: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  owner: 'bea',
  slug,
  name,
  duration_minutes: 30,
  minimum_notice_minutes: 0,
  future_limit_days: 30,
  ...extra,
});
const imported = (uid: string, slug: string, start: string, extra: Record<string, unknown> = {}) => ({
  uid,
  event_type: slug,
  host: 'bea',
  start,
  attendee: { email: 'imported@example.com', name: 'Imported Guest', timezone: 'UTC' },
  ...extra,
});

const workspace = {
  organization: { name: 'Writes Org' },
  // Far more requests than the default 120 a minute are sent with one token.
  limits: { pat_per_minute: 10_000 },
  users: [
    {
      id: IDS.bea,
      username: 'bea',
      email: 'bea@writes.test',
      name: 'Bea Host',
      timezone: 'UTC',
      role: 'user',
      schedule: { timezone: 'UTC', weekly: everyDay },
    },
    { id: IDS.cal, username: 'cal', email: 'cal@writes.test', name: 'Cal Other', timezone: 'UTC', role: 'user' },
  ],
  event_types: [
    eventType(IDS.consult, 'consult', 'Consultation', { questions: [{ id: 'topic', label: 'Topic', required: false }] }),
    eventType(IDS.strict, 'strict', 'Planned ahead', { minimum_notice_minutes: 2 * 24 * 60, future_limit_days: 10 }),
    eventType(IDS.fixed, 'fixed', 'Fixed time', { allow_reschedule: false }),
    eventType(IDS.dormant, 'dormant', 'Dormant', { status: 'off' }),
    eventType(IDS.intake, 'intake', 'Intake', { questions: [{ id: 'reason', label: 'Reason', required: true }] }),
    eventType(IDS.long, 'long', 'Long session', { duration_minutes: 60, slot_interval_minutes: 30 }),
    { id: IDS.calCall, owner: 'cal', slug: 'cal-call', name: 'Cal call', duration_minutes: 30, minimum_notice_minutes: 0 },
  ],
  tokens: [
    { name: 'bea', user: 'bea', secret: BEA, scopes: [...ALL_SCOPES] },
    { name: 'cal', user: 'cal', secret: CAL, scopes: [...ALL_SCOPES] },
  ],
  bookings: [
    imported(UIDS.past, 'consult', isoAt(-1, 10)),
    imported(UIDS.inProgress, 'consult', IN_PROGRESS_START),
    imported(UIDS.canceled, 'consult', isoAt(5, 10), {
      status: 'canceled',
      cancelled_at: isoAt(-1),
      cancellation_reason: 'No longer needed',
    }),
    imported(UIDS.fixed, 'fixed', isoAt(5, 11)),
    imported(UIDS.blocker, 'consult', isoAt(5, 14)),
  ],
};

let server: TestServer;

beforeAll(async () => {
  server = await startInProcess({ workspace: writeWorkspace(workspace), db: ':memory:' });
});

afterAll(async () => {
  await server?.stop();
});

const create = (body: unknown, key?: string | null, token = BEA) => createBooking(server.url, token, body, { key });
const cancel = (uid: string, body: unknown = {}, key?: string | null) => cancelBooking(server.url, BEA, uid, body, { key });
const reschedule = (uid: string, body: unknown, key?: string | null) => rescheduleBooking(server.url, BEA, uid, body, { key });
const read = async (uid: string) => {
  const res = await getBooking(server.url, BEA, uid);
  return { data: expectData(res), etag: res.headers.get('etag') };
};
const slotsBetween = async (eventTypeId: string, start: string, end: string) =>
  expectData(await listSlots(server.url, BEA, { event_type_id: eventTypeId, start, end })).slots;
const allBookingUids = async () => {
  const page = expectPage(await api(server.url, '/v1/bookings?limit=100', { token: BEA }));
  return page.items.map((b: { uid: string }) => b.uid).sort();
};

/** Books a slot that must be free; returns the booking. */
async function book(eventTypeId: string, start: string, email = 'guest@example.com'): Promise<any> {
  return expectData(await create(bookingBody(eventTypeId, start, email)), 201);
}

/** A 201 from POST /v1/bookings: the full booking, `ETag: "1"`, `Location` naming it. */
function expectCreated(res: ApiResponse): any {
  const data = expectData(res, 201);
  expect(data.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(res.headers.get('etag')).toBe('"1"');
  expect(res.headers.get('location')).toBe(`/v1/bookings/${data.uid}`);
  return data;
}

describe('POST /v1/bookings', () => {
  it('201 with the full booking, version 1, ETag and Location; GET shows the same', async () => {
    const start = isoAt(2, 9);
    const before = Date.now();
    const res = await create({
      event_type_id: IDS.consult,
      // An offset is read as the instant it names.
      start: `${start.slice(0, 10)}T11:00:00+02:00`,
      attendee: {
        email: 'zoe@example.com',
        first_name: 'Zoe',
        last_name: 'Quinn',
        phone: '+33 1 23 45 67 89',
        timezone: 'Europe/Paris',
        sms_opt_in: true,
      },
      guests: ['g1@example.com', { email: 'g2@example.com', name: 'Gee Two' }, { email: 'g3@example.com' }],
      responses: { topic: 'Budget' },
      metadata: { crm_id: 42, nested: { a: [1, 2] } },
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
    });
    const after = Date.now();
    const data = expectCreated(res);
    expect(data).toEqual({
      uid: data.uid,
      version: 1,
      event_type_id: IDS.consult,
      event_type_slug: 'consult',
      title: expect.any(String),
      status: 'confirmed',
      start_at: start,
      end_at: isoAt(2, 9, 30),
      // No `timezone`: the attendee's.
      timezone: 'Europe/Paris',
      host: BEA_HOST,
      hosts: [BEA_HOST],
      attendees: [{ email: 'zoe@example.com', name: 'Zoe Quinn', timezone: 'Europe/Paris' }],
      guests: [{ email: 'g1@example.com' }, { email: 'g2@example.com', name: 'Gee Two' }, { email: 'g3@example.com' }],
      location: { type: 'conference', url: expect.any(String), value: null },
      metadata: { crm_id: 42, nested: { a: [1, 2] }, utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' },
      responses: { topic: 'Budget' },
      calendar_sync_status: 'not_applicable',
      calendar_event_id: expect.any(String),
      rescheduled_from_uid: null,
      cancelled_at: null,
      cancellation_reason: null,
      no_show_at: null,
      no_show_reason: null,
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(data.title).toContain('Consultation');
    expect(data.title).toContain('Zoe Quinn');
    expect(new URL(data.location.url).protocol).toMatch(/^https?:$/);
    expect(data.updated_at).toBe(data.created_at);
    expect(Date.parse(data.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(data.created_at)).toBeLessThanOrEqual(after);

    const got = await read(data.uid);
    expect(got.data).toEqual(data);
    expect(got.etag).toBe('"1"');
  });

  it('names the event type by username and event_slug', async () => {
    const res = await create({ username: 'bea', event_slug: 'consult', start: isoAt(2, 10), attendee: { email: 'slug@example.com' } });
    expect(expectCreated(res)).toMatchObject({ event_type_id: IDS.consult, event_type_slug: 'consult', start_at: isoAt(2, 10) });
  });

  describe('derived fields', () => {
    it('only an email: the name is the email, the zone UTC, responses empty, metadata empty', async () => {
      const data = expectCreated(await create(bookingBody(IDS.consult, isoAt(2, 10, 30), 'solo@example.com')));
      expect(data).toMatchObject({
        timezone: 'UTC',
        attendees: [{ email: 'solo@example.com', name: 'solo@example.com', timezone: 'UTC' }],
        guests: [],
        metadata: {},
        responses: {},
      });
      expect(data.title).toContain('solo@example.com');
    });

    it('a given name wins over first and last name; `timezone` wins over the attendee’s for the booking', async () => {
      const data = expectCreated(
        await create({
          event_type_id: IDS.consult,
          start: isoAt(2, 11),
          timezone: 'Asia/Tokyo',
          attendee: { email: 'named@example.com', name: 'Nia Named', first_name: 'Ignored', last_name: 'Too', timezone: 'Europe/Paris' },
        }),
      );
      expect(data).toMatchObject({
        timezone: 'Asia/Tokyo',
        attendees: [{ email: 'named@example.com', name: 'Nia Named', timezone: 'Europe/Paris' }],
      });
    });

    it('a first name alone makes the name; `timezone` alone is the attendee’s zone too', async () => {
      const data = expectCreated(
        await create({
          event_type_id: IDS.consult,
          start: isoAt(2, 11, 30),
          timezone: 'America/Chicago',
          attendee: { email: 'f@example.com', first_name: 'Fay' },
        }),
      );
      expect(data).toMatchObject({
        timezone: 'America/Chicago',
        attendees: [{ email: 'f@example.com', name: 'Fay', timezone: 'America/Chicago' }],
      });
    });

    it('UTM fields are merged over metadata keys of the same name', async () => {
      const data = expectCreated(
        await create({ ...bookingBody(IDS.consult, isoAt(2, 12)), metadata: { utm_source: 'old', keep: true }, utm_source: 'new' }),
      );
      expect(data.metadata).toEqual({ utm_source: 'new', keep: true });
    });
  });

  describe('idempotency', () => {
    it('the same key and body replays the first answer: status, body, ETag, Location and Idempotent-Replayed', async () => {
      const key = randomUUID();
      const body = { event_type_id: IDS.consult, start: isoAt(2, 12, 30), attendee: { email: 'rep@example.com', name: 'Rep' } };
      const first = await create(body, key);
      const data = expectCreated(first);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const before = await allBookingUids();

      // Key order and whitespace do not matter (canonical JSON).
      const raw = `{ "attendee": {"name":"Rep", "email":"rep@example.com"}, "start": "${body.start}",  "event_type_id": "${IDS.consult}" }`;
      for (const again of [await create(body, key), await create(raw, key)]) {
        expect(again.status).toBe(201);
        expect(again.body).toEqual(first.body);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.headers.get('etag')).toBe('"1"');
        expect(again.headers.get('location')).toBe(`/v1/bookings/${data.uid}`);
      }
      // Nothing ran again.
      expect(await allBookingUids()).toEqual(before);
    });

    it('409 idempotency_key_conflict: the same key with another body; nothing is booked', async () => {
      const key = randomUUID();
      expectCreated(await create(bookingBody(IDS.consult, isoAt(2, 13)), key));
      const before = await allBookingUids();
      expectError(await create(bookingBody(IDS.consult, isoAt(2, 13, 30)), key), 409, 'idempotency_key_conflict', {});
      expect(await allBookingUids()).toEqual(before);
      // The other body's slot stays free.
      expect(await slotsBetween(IDS.consult, isoAt(2, 13, 30), isoAt(2, 14))).toEqual(slotsAt([utcAt(2, 13, 30)], 30));
    });

    it('409 idempotency_key_conflict: the same key on another route', async () => {
      const key = randomUUID();
      const booking = expectCreated(await create(bookingBody(IDS.consult, isoAt(2, 17, 30)), key));
      expectError(await cancel(booking.uid, {}, key), 409, 'idempotency_key_conflict', {});
      expect((await read(booking.uid)).data.status).toBe('confirmed');
    });

    it('the same create sent twice at once books once; the second is a replay or 409 idempotency_in_progress', async () => {
      const key = randomUUID();
      const body = bookingBody(IDS.consult, isoAt(4, 9), 'twice@example.com');
      const answers = await Promise.all([create(body, key), create(body, key)]);
      const fresh = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
      expect(fresh, answers.map((r) => r.text).join(' | ')).toHaveLength(1);
      const other = answers.find((r) => r !== fresh[0])!;
      if (other.status === 201) {
        expect(other.headers.get('idempotent-replayed')).toBe('true');
        expect(other.body).toEqual(fresh[0]!.body);
      } else {
        expectError(other, 409, 'idempotency_in_progress', {});
        expect(other.headers.get('retry-after')).toBe('1');
      }
      const mine = expectPage(await api(server.url, '/v1/bookings?attendee_email=twice@example.com', { token: BEA })).items;
      expect(mine.map((b: { uid: string }) => b.uid)).toEqual([fresh[0]!.body.data.uid]);
    });

    it('a failed attempt is not remembered: the same key succeeds once the slot is free', async () => {
      const taken = await book(IDS.consult, isoAt(2, 14));
      const key = randomUUID();
      const body = bookingBody(IDS.consult, isoAt(2, 14), 'second@example.com');
      expectError(await create(body, key), 409, 'slot_unavailable', { reason: 'slot_busy' });
      expectData(await cancel(taken.uid));
      const retried = await create(body, key);
      expect(expectCreated(retried).attendees[0].email).toBe('second@example.com');
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    });

    it('400 missing_idempotency_key; nothing is booked', async () => {
      const before = await allBookingUids();
      expectError(await create(bookingBody(IDS.consult, isoAt(2, 15)), null), 400, 'missing_idempotency_key', {});
      expect(await allBookingUids()).toEqual(before);
    });

    it('an empty key or one over 255 characters is 400 validation_error; 255 is fine', async () => {
      for (const key of ['', 'k'.repeat(256)]) {
        expectError(await create(bookingBody(IDS.consult, isoAt(2, 15)), key), 400, 'validation_error', { fields: ['Idempotency-Key'] });
      }
      expectCreated(await create(bookingBody(IDS.consult, isoAt(2, 15)), 'k'.repeat(255)));
    });
  });

  describe('400 validation_error with details.fields', () => {
    const valid = () => bookingBody(IDS.consult, isoAt(2, 16));
    const cases: [string, unknown, string[]][] = [
      ['an empty body', {}, ['start', 'attendee']],
      ['start missing', { ...valid(), start: undefined }, ['start']],
      ['start not a date-time', { ...valid(), start: 'next tuesday' }, ['start']],
      ['start a bare date', { ...valid(), start: isoAt(2).slice(0, 10) }, ['start']],
      ['attendee missing', { ...valid(), attendee: undefined }, ['attendee']],
      ['attendee email missing', { ...valid(), attendee: { name: 'No Mail' } }, ['attendee.email']],
      ['timezone unknown', { ...valid(), timezone: 'Mars/Olympus' }, ['timezone']],
      ['attendee timezone unknown', { ...valid(), attendee: { email: 'a@example.com', timezone: 'Nowhere' } }, ['attendee.timezone']],
      ['first_name over 127', { ...valid(), attendee: { email: 'a@example.com', first_name: 'f'.repeat(128) } }, ['attendee.first_name']],
      ['last_name over 127', { ...valid(), attendee: { email: 'a@example.com', last_name: 'l'.repeat(128) } }, ['attendee.last_name']],
      ['phone over 64', { ...valid(), attendee: { email: 'a@example.com', phone: '1'.repeat(65) } }, ['attendee.phone']],
      ['sms_opt_in not a boolean', { ...valid(), attendee: { email: 'a@example.com', sms_opt_in: 'yes' } }, ['attendee.sms_opt_in']],
      ['utm_source over 255', { ...valid(), utm_source: 's'.repeat(256) }, ['utm_source']],
      ['utm_medium over 255', { ...valid(), utm_medium: 'm'.repeat(256) }, ['utm_medium']],
      ['utm_campaign over 255', { ...valid(), utm_campaign: 'c'.repeat(256) }, ['utm_campaign']],
      ['metadata not an object', { ...valid(), metadata: ['a'] }, ['metadata']],
      ['responses not an object', { ...valid(), responses: 'yes' }, ['responses']],
      ['a guest that is not an email', { ...valid(), guests: ['ok@example.com', 'not-an-email'] }, ['guests.1']],
      ['two bad fields at once', { ...valid(), timezone: 'X', utm_medium: 'm'.repeat(256) }, ['timezone', 'utm_medium']],
      ['no event type named', { start: isoAt(2, 16), attendee: { email: 'a@example.com' } }, ['event_type_id']],
      [
        'event_slug without username',
        { event_slug: 'consult', start: isoAt(2, 16), attendee: { email: 'a@example.com' } },
        ['event_type_id'],
      ],
      ['a JSON array', [], []],
    ];
    it.each(cases)('%s', async (_, body, fields) => {
      expectError(await create(body), 400, 'validation_error', { fields });
    });

    it('a body that is not JSON', async () => {
      expectError(await create('{"start": '), 400, 'validation_error', { fields: [] });
    });

    it('a required question left unanswered', async () => {
      const body = bookingBody(IDS.intake, isoAt(2, 16));
      expectError(await create(body), 400, 'validation_error', { fields: ['responses.reason'] });
      expectError(await create({ ...body, responses: { reason: '' } }), 400, 'validation_error', { fields: ['responses.reason'] });
      expect(expectCreated(await create({ ...body, responses: { reason: 'Onboarding' } })).responses).toEqual({ reason: 'Onboarding' });
    });

    it('nothing was booked by any of them', async () => {
      expect(await slotsBetween(IDS.consult, isoAt(2, 16, 30), isoAt(2, 17))).toEqual(slotsAt([utcAt(2, 16, 30)], 30));
    });
  });

  it('400 attendee_email_invalid: a malformed email, or one over 254 characters', async () => {
    const long = `${'a'.repeat(243)}@example.com`; // 255 characters
    expect(long).toHaveLength(255);
    for (const email of ['not-an-email', 'two@@example.com', long]) {
      expectError(await create(bookingBody(IDS.consult, isoAt(2, 16, 30), email)), 400, 'attendee_email_invalid', {
        fields: ['attendee.email'],
      });
    }
    // 254 characters is allowed.
    const longest = `${'a'.repeat(242)}@example.com`;
    expect(expectCreated(await create(bookingBody(IDS.consult, isoAt(2, 16, 30), longest))).attendees[0].email).toBe(longest);
  });

  describe('404 event_type_not_found', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['an unknown id', { event_type_id: 'd3e00000-0000-4000-8000-0000000000ff' }],
      ["another user's event type", { event_type_id: IDS.calCall }],
      ["another user's event type by username and slug", { username: 'cal', event_slug: 'cal-call' }],
      ['an unknown username', { username: 'nobody', event_slug: 'consult' }],
      ['an unknown slug', { username: 'bea', event_slug: 'nope' }],
    ];
    it.each(cases)('%s', async (_, ref) => {
      expectError(await create({ ...ref, start: isoAt(2, 17), attendee: { email: 'a@example.com' } }), 404, 'event_type_not_found', {});
    });
  });

  it('409 event_type_inactive', async () => {
    expectError(await create(bookingBody(IDS.dormant, isoAt(2, 17))), 409, 'event_type_inactive', {});
  });

  it('409 slot_in_past', async () => {
    expectError(await create(bookingBody(IDS.consult, isoAt(-1, 9))), 409, 'slot_in_past', {});
    expectError(await create(bookingBody(IDS.consult, iso(utcAt(0) - 30 * MINUTE_MS))), 409, 'slot_in_past', {});
  });

  describe('409 slot_unavailable, with the reason', () => {
    it('the slot is taken', async () => {
      await book(IDS.consult, isoAt(3, 9));
      expectError(await create(bookingBody(IDS.consult, isoAt(3, 9), 'late@example.com')), 409, 'slot_unavailable', {
        reason: 'slot_busy',
      });
      // Overlapping it partly is refused as well.
      expectError(await create(bookingBody(IDS.long, isoAt(3, 8, 30))), 409, 'slot_unavailable', { reason: 'slot_busy' });
    });

    it('a start off the slot grid', async () => {
      expectError(await create(bookingBody(IDS.consult, isoAt(3, 9, 10))), 409, 'slot_unavailable', { reason: 'slot_busy' });
      expectError(await create(bookingBody(IDS.consult, iso(utcAt(3, 10) + 1000))), 409, 'slot_unavailable', { reason: 'slot_busy' });
    });

    it('outside working hours, also when the slot would end after them', async () => {
      expectError(await create(bookingBody(IDS.consult, isoAt(3, 7, 30))), 409, 'slot_unavailable', { reason: 'slot_busy' });
      expectError(await create(bookingBody(IDS.consult, isoAt(3, 18))), 409, 'slot_unavailable', { reason: 'slot_busy' });
      expectError(await create(bookingBody(IDS.long, isoAt(3, 17, 30))), 409, 'slot_unavailable', { reason: 'slot_busy' });
      // The last slot that fits is bookable.
      expect(expectCreated(await create(bookingBody(IDS.consult, isoAt(3, 17, 30)))).end_at).toBe(isoAt(3, 18));
    });

    it('inside the minimum notice', async () => {
      expectError(await create(bookingBody(IDS.strict, isoAt(1, 10))), 409, 'slot_unavailable', { reason: 'outside_minimum_notice' });
    });

    it('beyond the future limit', async () => {
      expectError(await create(bookingBody(IDS.strict, isoAt(12, 10))), 409, 'slot_unavailable', { reason: 'outside_future_limit' });
      expectError(await create(bookingBody(IDS.consult, isoAt(31, 10))), 409, 'slot_unavailable', { reason: 'outside_future_limit' });
    });
  });

  it('GET /v1/slots no longer lists a booked slot', async () => {
    const window = [isoAt(7, 8), isoAt(7, 9, 30)] as const;
    expect(await slotsBetween(IDS.consult, ...window)).toEqual(slotsAt([utcAt(7, 8), utcAt(7, 8, 30), utcAt(7, 9)], 30));
    await book(IDS.consult, isoAt(7, 8, 30));
    expect(await slotsBetween(IDS.consult, ...window)).toEqual(slotsAt([utcAt(7, 8), utcAt(7, 9)], 30));
    // A 60-minute event type on a 30-minute grid loses both starts that would overlap it.
    expect(await slotsBetween(IDS.long, ...window)).toEqual(slotsAt([utcAt(7, 9)], 60));
  });
});

describe('POST /v1/bookings/:uid/cancel', () => {
  it('200: canceled, version bumped, reason kept; GET shows the same; the slot is free again', async () => {
    const booking = await book(IDS.consult, isoAt(8, 9));
    const before = Date.now();
    const res = await cancel(booking.uid, { reason: 'Travel' });
    const after = Date.now();
    const data = expectData(res);
    expect(data).toEqual({
      ...booking,
      status: 'canceled',
      version: 2,
      cancelled_at: expect.stringMatching(TIMESTAMP),
      cancellation_reason: 'Travel',
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(Date.parse(data.cancelled_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(data.cancelled_at)).toBeLessThanOrEqual(after);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(await read(booking.uid)).toEqual({ data, etag: '"2"' });
    expect(await slotsBetween(IDS.consult, isoAt(8, 9), isoAt(8, 9, 30))).toEqual(slotsAt([utcAt(8, 9)], 30));
  });

  it('without a reason the cancellation_reason is null', async () => {
    const booking = await book(IDS.consult, isoAt(8, 9, 30));
    expect(expectData(await cancel(booking.uid))).toMatchObject({ status: 'canceled', version: 2, cancellation_reason: null });
  });

  it('a repeat answers 200 with the same state and the same version', async () => {
    const booking = await book(IDS.consult, isoAt(8, 10));
    const first = expectData(await cancel(booking.uid, { reason: 'First' }));
    const again = await cancel(booking.uid, { reason: 'Second' });
    expect(expectData(again)).toEqual(first);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await read(booking.uid)).data).toEqual(first);
  });

  it('an imported canceled booking is answered as it is', async () => {
    const data = expectData(await cancel(UIDS.canceled, { reason: 'Again' }));
    expect(data).toMatchObject({ uid: UIDS.canceled, status: 'canceled', version: 1, cancellation_reason: 'No longer needed' });
  });

  it('409 booking_in_past for a booking that has finished or started; it stays confirmed', async () => {
    expectError(await cancel(UIDS.past), 409, 'booking_in_past', { start_at: isoAt(-1, 10) });
    expectError(await cancel(UIDS.inProgress), 409, 'booking_in_past', { start_at: IN_PROGRESS_START });
    for (const uid of [UIDS.past, UIDS.inProgress]) expect((await read(uid)).data).toMatchObject({ status: 'confirmed', version: 1 });
  });

  it('404 booking_not_found: unknown, malformed, or not visible', async () => {
    const calBooking = expectData(await create(bookingBody(IDS.calCall, isoAt(8, 10)), undefined, CAL), 201);
    for (const uid of [randomUUID(), 'not-a-uuid', calBooking.uid]) {
      expectError(await cancel(uid), 404, 'booking_not_found', { uid });
    }
  });

  it('a reason over 1024 characters is 400 validation_error; 1024 is fine', async () => {
    const booking = await book(IDS.consult, isoAt(8, 10, 30));
    expectError(await cancel(booking.uid, { reason: 'r'.repeat(1025) }), 400, 'validation_error', { fields: ['reason'] });
    expect((await read(booking.uid)).data.status).toBe('confirmed');
    expect(expectData(await cancel(booking.uid, { reason: 'r'.repeat(1024) })).cancellation_reason).toBe('r'.repeat(1024));
  });

  it('400 missing_idempotency_key; the booking is untouched', async () => {
    const booking = await book(IDS.consult, isoAt(8, 11));
    expectError(await cancel(booking.uid, {}, null), 400, 'missing_idempotency_key', {});
    expect((await read(booking.uid)).data).toEqual(booking);
  });
});

describe('POST /v1/bookings/:uid/reschedule', () => {
  it('200: moved in place, same uid, duration kept, version bumped, new ETag; the old slot is free again', async () => {
    const booking = await book(IDS.consult, isoAt(9, 9));
    const window = [isoAt(9, 9), isoAt(9, 10, 30)] as const;
    expect(await slotsBetween(IDS.consult, ...window)).toEqual(slotsAt([utcAt(9, 9, 30), utcAt(9, 10)], 30));

    const res = await reschedule(booking.uid, { start: isoAt(9, 10), reason: 'Clash' });
    const data = expectData(res);
    expect(data).toEqual({
      ...booking,
      start_at: isoAt(9, 10),
      end_at: isoAt(9, 10, 30),
      version: 2,
      rescheduled_from_uid: null,
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(res.headers.get('etag')).toBe('"2"');
    expect(await read(booking.uid)).toEqual({ data, etag: '"2"' });
    expect(await slotsBetween(IDS.consult, ...window)).toEqual(slotsAt([utcAt(9, 9), utcAt(9, 9, 30)], 30));

    // Again, with a new zone: version 3.
    const again = await reschedule(booking.uid, { start: isoAt(9, 11), timezone: 'Asia/Tokyo' });
    expect(expectData(again)).toMatchObject({
      uid: booking.uid,
      start_at: isoAt(9, 11),
      end_at: isoAt(9, 11, 30),
      timezone: 'Asia/Tokyo',
      version: 3,
    });
    expect(again.headers.get('etag')).toBe('"3"');
  });

  it("a booking's own time does not count against its new time", async () => {
    const booking = await book(IDS.long, isoAt(9, 13));
    const data = expectData(await reschedule(booking.uid, { start: isoAt(9, 13, 30) }));
    expect(data).toMatchObject({ start_at: isoAt(9, 13, 30), end_at: isoAt(9, 14, 30), version: 2 });
  });

  it('a replay with the same key answers the first move and does not move again', async () => {
    const booking = await book(IDS.consult, isoAt(9, 15));
    const key = randomUUID();
    const first = await reschedule(booking.uid, { start: isoAt(9, 15, 30) }, key);
    expect(expectData(first).version).toBe(2);
    const replay = await reschedule(booking.uid, { start: isoAt(9, 15, 30) }, key);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await read(booking.uid)).data.version).toBe(2);
  });

  it('409 booking_already_cancelled', async () => {
    expectError(await reschedule(UIDS.canceled, { start: isoAt(9, 16) }), 409, 'booking_already_cancelled', {});
    const booking = await book(IDS.consult, isoAt(9, 16, 30));
    expectData(await cancel(booking.uid));
    expectError(await reschedule(booking.uid, { start: isoAt(9, 17) }), 409, 'booking_already_cancelled', {});
    expect((await read(booking.uid)).data).toMatchObject({ status: 'canceled', start_at: isoAt(9, 16, 30), version: 2 });
  });

  it('409 reschedule_not_allowed when the event type disallows it', async () => {
    expectError(await reschedule(UIDS.fixed, { start: isoAt(9, 17) }), 409, 'reschedule_not_allowed', {});
    expect((await read(UIDS.fixed)).data).toMatchObject({ start_at: isoAt(5, 11), version: 1 });
  });

  it('409 booking_in_past when the booking has finished or started', async () => {
    expectError(await reschedule(UIDS.past, { start: isoAt(9, 17) }), 409, 'booking_in_past', { start_at: isoAt(-1, 10) });
    expectError(await reschedule(UIDS.inProgress, { start: isoAt(9, 17) }), 409, 'booking_in_past', { start_at: IN_PROGRESS_START });
  });

  it('409 slot_unavailable: taken, off the grid, outside hours; the booking stays where it was', async () => {
    const booking = await book(IDS.consult, isoAt(5, 15));
    expectError(await reschedule(booking.uid, { start: isoAt(5, 14) }), 409, 'slot_unavailable', { reason: 'slot_busy' });
    expectError(await reschedule(booking.uid, { start: isoAt(5, 15, 10) }), 409, 'slot_unavailable', { reason: 'slot_busy' });
    expectError(await reschedule(booking.uid, { start: isoAt(5, 19) }), 409, 'slot_unavailable', { reason: 'slot_busy' });
    expectError(await reschedule(booking.uid, { start: isoAt(40, 10) }), 409, 'slot_unavailable', { reason: 'outside_future_limit' });
    expect(await read(booking.uid)).toEqual({ data: booking, etag: '"1"' });
  });

  it('404 booking_not_found', async () => {
    for (const uid of [randomUUID(), 'nope'])
      expectError(await reschedule(uid, { start: isoAt(9, 17) }), 404, 'booking_not_found', { uid });
  });

  it('400 validation_error: start missing or malformed, bad timezone, reason over 1024; 400 missing_idempotency_key', async () => {
    const booking = await book(IDS.consult, isoAt(9, 17, 30));
    const cases: [unknown, string[]][] = [
      [{}, ['start']],
      [{ start: 'soon' }, ['start']],
      [{ start: isoAt(9, 8), timezone: 'Nowhere/City' }, ['timezone']],
      [{ start: isoAt(9, 8), reason: 'r'.repeat(1025) }, ['reason']],
    ];
    for (const [body, fields] of cases) expectError(await reschedule(booking.uid, body), 400, 'validation_error', { fields });
    expectError(await reschedule(booking.uid, { start: isoAt(9, 8) }, null), 400, 'missing_idempotency_key', {});
    expect(await read(booking.uid)).toEqual({ data: booking, etag: '"1"' });
  });
});
