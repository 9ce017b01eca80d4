import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { CalendarUnreadable, createCalendarReader } from '../src/availability/calendar-reader.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { bookingRowsOf, createBooking, getBooking, outboxOf } from './support/booking-calls.js';
import { ET, HOST_VIEW, loadBookingWorkspace, resetBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

const B_HANA = '70000000-0000-4000-8000-000000000001';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A full create body: every optional field the API takes. */
const FULL_BODY = {
  event_type_id: ET.meet,
  start: '2026-03-02T10:00:00Z',
  attendee: {
    email: 'bob@example.com',
    first_name: 'Bob',
    last_name: 'Stone',
    phone: '+49 30 123456',
    timezone: 'Europe/Berlin',
    sms_opt_in: true,
  },
  guests: ['carol@example.com', { email: 'dan@example.com', name: 'Dan' }],
  responses: { topic: 'pricing' },
  metadata: { source: 'web', utm_source: 'overwritten' },
  utm_source: 'newsletter',
  utm_campaign: 'spring',
};

/** The smallest body that books: hana's meeting at 10:00. */
const body = (changes: Record<string, unknown> = {}) => ({
  event_type_id: ET.meet,
  start: '2026-03-02T10:00:00Z',
  attendee: { email: 'bob@example.com' },
  ...changes,
});

const error = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });
const invalidFields = (...fields: string[]) => error('validation_error', { fields });
const unavailable = (reason: string) => error('slot_unavailable', { reason });

interface Created {
  uid: string;
  timezone: string;
  title: string;
  attendees: { email: string; name: string; timezone: string }[];
  [field: string]: unknown;
}

describe.each(storeFixtures())('POST /v1/bookings on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let admin: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock });
    hana = await principalOf({ store, clock }, TOKEN.hana);
    admin = await principalOf({ store, clock }, TOKEN.admin);
  });
  beforeEach(async () => {
    clock.set(T0);
    // Hana has one booking, 14:00–14:30 on Monday.
    await resetBookingWorkspace({ store, clock }, [{ uid: B_HANA, host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z' }]);
  });
  afterAll(() => fixture.cleanup());

  const created = async (b: unknown, principal = hana, key = 'key-create') =>
    (await createBooking(deps, principal, b, key)).outcome.data as Created;
  const refusal = (b: unknown, principal = hana) => scheduleErrorOf(createBooking(deps, principal, b));
  const bookingCount = async () => (await bookingRowsOf(store)).length;

  describe('a successful create', () => {
    it('answers 201 with the exact Booking, version 1 and its location', async () => {
      const executed = await createBooking(deps, hana, FULL_BODY);
      const uid = (executed.outcome.data as Created).uid;
      expect(uid).toMatch(UUID);
      expect(executed).toEqual({
        outcome: {
          status: 201,
          data: {
            uid,
            version: 1,
            event_type_id: ET.meet,
            event_type_slug: 'meet',
            title: 'Meeting between Hana Host and Bob Stone',
            status: 'confirmed',
            start_at: '2026-03-02T10:00:00.000Z',
            end_at: '2026-03-02T10:30:00.000Z',
            timezone: 'Europe/Berlin',
            host: HOST_VIEW.hana,
            hosts: [HOST_VIEW.hana],
            attendees: [{ email: 'bob@example.com', name: 'Bob Stone', timezone: 'Europe/Berlin' }],
            guests: [{ email: 'carol@example.com' }, { email: 'dan@example.com', name: 'Dan' }],
            location: { type: 'conference', url: `https://meet.test/${uid}`, value: null },
            metadata: { source: 'web', utm_source: 'newsletter', utm_campaign: 'spring' },
            responses: { topic: 'pricing' },
            calendar_sync_status: 'not_applicable',
            calendar_event_id: '',
            rescheduled_from_uid: null,
            cancelled_at: null,
            cancellation_reason: null,
            no_show_at: null,
            no_show_reason: null,
            created_at: T0,
            updated_at: T0,
          },
          version: 1,
          location: `/v1/bookings/${uid}`,
        },
        requestId: 'req-key-create',
        replayed: false,
      });
    });

    it('shows attendees as { email, name, timezone } only: phone and sms_opt_in stay out of the Booking', async () => {
      const { attendees } = await created(FULL_BODY);
      expect(attendees).toEqual([{ email: 'bob@example.com', name: 'Bob Stone', timezone: 'Europe/Berlin' }]);
    });

    it('answers a later GET with the same booking', async () => {
      const booking = await created(FULL_BODY);
      expect(await getBooking(deps, hana, booking.uid)).toEqual({ status: 200, data: booking, version: 1 });
    });

    it('records exactly one booking.created event carrying the booking', async () => {
      const booking = await created(FULL_BODY);
      expect(await outboxOf(store)).toEqual([
        { event_type: 'booking.created', subject_uid: booking.uid, created_at: T0, dispatched_at: null, payload: booking },
      ]);
    });

    it('gives a booking without responses an empty responses object and metadata of only its UTM values', async () => {
      const booking = await created(body({ utm_medium: 'email' }));
      expect({ responses: booking.responses, metadata: booking.metadata, guests: booking.guests }).toEqual({
        responses: {},
        metadata: { utm_medium: 'email' },
        guests: [],
      });
    });

    it('queues the booking_created mail to the host and the attendee with the booking', async () => {
      const booking = await created(body());
      const mail = await store.db
        .selectFrom('notifications')
        .select(['kind', 'recipient', 'booking_uid'])
        .where('booking_uid', '=', booking.uid)
        .orderBy('recipient')
        .execute();
      expect(mail).toEqual([
        { kind: 'booking_created', recipient: 'bob@example.com', booking_uid: booking.uid },
        { kind: 'booking_created', recipient: 'hana@acme.test', booking_uid: booking.uid },
      ]);
    });

    it('keeps the UTM keys of metadata that the body does not set as its own fields', async () => {
      const booking = await created(body({ metadata: { utm_medium: 'email', utm_campaign: 'fall' }, utm_campaign: 'spring' }));
      expect(booking.metadata).toEqual({ utm_medium: 'email', utm_campaign: 'spring' });
    });

    it('books through username and event_slug, and books the event type owner when an admin asks', async () => {
      const booking = await created(body({ event_type_id: undefined, username: 'hana', event_slug: 'meet' }), admin);
      expect({ event_type_id: booking.event_type_id, host: booking.host }).toEqual({ event_type_id: ET.meet, host: HOST_VIEW.hana });
    });

    it('marks a booking of a host whose static calendar takes bookings calendar_sync_status synced: the service keeps that calendar', async () => {
      const booking = await created(body({ event_type_id: ET.carlMeet, start: '2026-03-02T11:00:00Z' }), admin);
      expect({ host: booking.host, calendar_sync_status: booking.calendar_sync_status }).toEqual({
        host: HOST_VIEW.carl,
        calendar_sync_status: 'synced',
      });
    });

    describe('timezone falls back from body.timezone to attendee.timezone to UTC', () => {
      it.each([
        [
          'body.timezone wins',
          { timezone: 'America/New_York', attendee: { email: 'a@example.com', timezone: 'Asia/Tokyo' } },
          'America/New_York',
          'Asia/Tokyo',
        ],
        [
          'the attendee zone fills in for the booking',
          { attendee: { email: 'a@example.com', timezone: 'Asia/Tokyo' } },
          'Asia/Tokyo',
          'Asia/Tokyo',
        ],
        [
          'the booking zone fills in for the attendee',
          { timezone: 'America/New_York', attendee: { email: 'a@example.com' } },
          'America/New_York',
          'America/New_York',
        ],
        ['UTC when neither is given', { attendee: { email: 'a@example.com' } }, 'UTC', 'UTC'],
      ])('%s', async (_, changes, bookingZone, attendeeZone) => {
        const booking = await created(body(changes));
        expect({ timezone: booking.timezone, attendeeTimezone: booking.attendees[0]?.timezone }).toEqual({
          timezone: bookingZone,
          attendeeTimezone: attendeeZone,
        });
      });
    });

    describe('the attendee name is the name, else first and last name, else the email', () => {
      it.each([
        ['a given name wins', { email: 'a@example.com', name: 'Alex', first_name: 'Al', last_name: 'Ex' }, 'Alex'],
        ['first and last name', { email: 'a@example.com', first_name: 'Al', last_name: 'Ex' }, 'Al Ex'],
        ['first name alone', { email: 'a@example.com', first_name: 'Al' }, 'Al'],
        ['last name alone', { email: 'a@example.com', last_name: 'Ex' }, 'Ex'],
        ['the email', { email: 'a@example.com' }, 'a@example.com'],
      ])('%s', async (_, attendee, name) => {
        const booking = await created(body({ attendee }));
        expect({ name: booking.attendees[0]?.name, title: booking.title }).toEqual({
          name,
          title: `Meeting between Hana Host and ${name}`,
        });
      });
    });

    it.each([
      ['first_name of 127 characters', { attendee: { email: 'a@example.com', first_name: 'f'.repeat(127) } }],
      ['phone of 64 characters', { attendee: { email: 'a@example.com', phone: '1'.repeat(64) } }],
      ['utm_source of 255 characters', { utm_source: 'u'.repeat(255) }],
      ['an email of 254 characters', { attendee: { email: `${'e'.repeat(242)}@example.com` } }],
    ])('accepts %s', async (_, changes) => {
      expect((await createBooking(deps, hana, body(changes))).outcome.status).toBe(201);
    });

    it('books the slot a plain event type leaves free next to a booking (no buffers)', async () => {
      const booking = await created(body({ start: '2026-03-02T14:30:00Z' }));
      expect([booking.start_at, booking.end_at]).toEqual(['2026-03-02T14:30:00.000Z', '2026-03-02T15:00:00.000Z']);
    });

    it('books a host without a schedule at any time (free around the clock)', async () => {
      const booking = await created(body({ event_type_id: ET.noraMeet, start: '2026-03-03T02:00:00Z' }), admin);
      expect([booking.start_at, booking.host]).toEqual(['2026-03-03T02:00:00.000Z', HOST_VIEW.nora]);
    });

    it('replays the same key and body without booking twice', async () => {
      const first = await createBooking(deps, hana, body(), 'key-same');
      const again = await createBooking(deps, hana, body(), 'key-same');
      expect(again).toEqual({ outcome: first.outcome, requestId: 'req-key-same', replayed: true });
      expect(await bookingCount()).toBe(2);
    });
  });

  describe('validation_error', () => {
    const NOT_A_START =
      'start: must be an ISO 8601 date-time between 1900-01-01 and 9000-12-31; start: must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00)';
    it.each([
      ['a missing start', { start: undefined }, ['start'], 'start: is required'],
      // A start that is no date-time fails both of its checks, and says both.
      ['a bare date as start', { start: '2026-03-02' }, ['start'], NOT_A_START],
      ['a start that is not a date', { start: 'soon' }, ['start'], NOT_A_START],
      ['a missing attendee', { attendee: undefined }, ['attendee'], 'attendee: is required'],
      ['a missing attendee email', { attendee: { name: 'Bob' } }, ['attendee.email'], 'attendee.email: must be an email address'],
      [
        'first_name of 128 characters',
        { attendee: { email: 'a@example.com', first_name: 'f'.repeat(128) } },
        ['attendee.first_name'],
        'attendee.first_name: must be at most 127 characters',
      ],
      [
        'last_name of 128 characters',
        { attendee: { email: 'a@example.com', last_name: 'l'.repeat(128) } },
        ['attendee.last_name'],
        'attendee.last_name: must be at most 127 characters',
      ],
      [
        'phone of 65 characters',
        { attendee: { email: 'a@example.com', phone: '1'.repeat(65) } },
        ['attendee.phone'],
        'attendee.phone: must be at most 64 characters',
      ],
      ['utm_source of 256 characters', { utm_source: 'u'.repeat(256) }, ['utm_source'], 'utm_source: must be at most 255 characters'],
      ['utm_medium of 256 characters', { utm_medium: 'u'.repeat(256) }, ['utm_medium'], 'utm_medium: must be at most 255 characters'],
      [
        'utm_campaign of 256 characters',
        { utm_campaign: 'u'.repeat(256) },
        ['utm_campaign'],
        'utm_campaign: must be at most 255 characters',
      ],
      ['a timezone that is not IANA', { timezone: 'Mars/Olympus' }, ['timezone'], 'timezone: must be an IANA time zone name'],
      ['metadata that is an array', { metadata: [1] }, ['metadata'], 'metadata: must be an object'],
      ['responses that are a string', { responses: 'yes' }, ['responses'], 'responses: must be an object'],
      ['an event_type_id that is not a UUID', { event_type_id: 'meet' }, ['event_type_id'], 'event_type_id: must be a UUID'],
      [
        'two bad fields at once',
        { start: 'soon', utm_source: 'u'.repeat(256) },
        ['start', 'utm_source'],
        `${NOT_A_START}; utm_source: must be at most 255 characters`,
      ],
    ])('refuses %s, naming the field', async (_, changes, fields, message) => {
      expect(await refusal(body(changes))).toEqual({ ...invalidFields(...fields), message });
      expect(await bookingCount()).toBe(1);
    });

    it.each([
      ['no event type at all', { event_type_id: undefined }],
      ['a username without event_slug', { event_type_id: undefined, username: 'hana' }],
      ['an event_slug without username', { event_type_id: undefined, event_slug: 'meet' }],
    ])('refuses %s as validation_error naming event_type_id', async (_, changes) => {
      expect(await refusal(body(changes))).toEqual({
        ...invalidFields('event_type_id'),
        message: 'Name the event type: event_type_id, or both username and event_slug.',
      });
    });

    it.each([
      ['no responses', {}],
      ['an empty answer', { responses: { agenda: '' } }],
      ['a null answer', { responses: { agenda: null } }],
    ])('refuses a required question left unanswered (%s) as validation_error naming responses.<id>', async (_, changes) => {
      expect(await refusal(body({ event_type_id: ET.form, ...changes }))).toEqual({
        ...invalidFields('responses.agenda'),
        message: 'Required questions are unanswered: responses.agenda.',
      });
    });

    it('books once the required question is answered', async () => {
      const booking = await created(body({ event_type_id: ET.form, responses: { agenda: 'roadmap' } }));
      expect(booking.responses).toEqual({ agenda: 'roadmap' });
    });

    it('refuses a body that is not an object', async () => {
      expect(await refusal([body()])).toEqual({ ...invalidFields(), message: 'The body must be a JSON object.' });
    });
  });

  describe('attendee_email_invalid', () => {
    it.each([
      ['a bad format', 'not-an-email'],
      ['255 characters', `${'e'.repeat(243)}@example.com`],
    ])('refuses an attendee email with %s', async (_, email) => {
      expect(await refusal(body({ attendee: { email } }))).toEqual({
        ...error('attendee_email_invalid', { fields: ['attendee.email'] }),
        message: 'attendee.email must be an email address of at most 254 characters.',
      });
      expect(await bookingCount()).toBe(1);
    });
  });

  describe('event_type_not_found', () => {
    it.each([
      ['an unknown event_type_id', { event_type_id: '60000000-0000-4000-8000-0000000000ff' }],
      ["another user's event type", { event_type_id: ET.ivanLong, start: '2026-03-02T10:00:00Z' }],
      ['a username nobody has', { event_type_id: undefined, username: 'nobody', event_slug: 'meet' }],
      ['a slug the user does not have', { event_type_id: undefined, username: 'hana', event_slug: 'nope' }],
    ])('answers %s', async (_, changes) => {
      expect(await refusal(body(changes))).toEqual({ ...error('event_type_not_found'), message: 'No such event type.' });
    });
  });

  it('refuses an inactive event type as event_type_inactive', async () => {
    expect(await refusal(body({ event_type_id: ET.paused }))).toEqual({
      ...error('event_type_inactive'),
      message: 'This event type is not taking bookings.',
    });
    expect(await bookingCount()).toBe(1);
  });

  it('books a start exactly at now when the event type asks no notice', async () => {
    clock.set('2026-03-03T02:00:00.000Z');
    const booking = await created(body({ event_type_id: ET.noraMeet, start: '2026-03-03T02:00:00Z' }), admin);
    expect(booking.start_at).toBe('2026-03-03T02:00:00.000Z');
  });

  it('refuses a start in the past as slot_in_past', async () => {
    expect(await refusal(body({ start: '2026-03-02T08:00:00Z' }))).toEqual({
      ...error('slot_in_past'),
      message: 'The start is in the past.',
    });
  });

  describe('slot_unavailable names the reason', () => {
    it.each([
      ['within the minimum notice', body({ start: '2026-03-02T09:00:00Z' }), 'outside_minimum_notice'],
      ['beyond the future limit', body({ start: '2026-03-16T09:00:00Z' }), 'outside_future_limit'],
      ['off the slot grid', body({ start: '2026-03-02T10:15:00Z' }), 'slot_busy'],
      ['outside working hours', body({ start: '2026-03-02T12:00:00Z' }), 'slot_busy'],
      ['on a day without working hours', body({ start: '2026-03-07T10:00:00Z' }), 'slot_busy'],
      ['taken by another booking', body({ start: '2026-03-02T14:00:00Z' }), 'slot_busy'],
      ['overlapping a booking by its buffer', body({ event_type_id: ET.buffered, start: '2026-03-02T14:30:00Z' }), 'slot_busy'],
      ['inside a static calendar busy time', body({ event_type_id: ET.carlMeet, start: '2026-03-02T10:30:00Z' }), 'slot_busy'],
    ])('refuses a start %s', async (_, b, reason) => {
      expect(await refusal(b, admin)).toEqual({ ...unavailable(reason), message: 'The host is not free at this time.' });
      expect(await bookingCount()).toBe(1);
    });

    // Hana's buffered type keeps 15 minutes clear before and after its 30; the booking sits 10 minutes away.
    it.each([
      ['before', '2026-03-02T13:50:00Z'],
      ['after', '2026-03-02T15:10:00Z'],
    ])('refuses a start whose buffer %s reaches a booking 10 minutes off the slot', async (_, start) => {
      await resetBookingWorkspace({ store, clock }, [{ uid: B_HANA, host: 'hana', slug: 'meet', start }]);
      expect(await refusal(body({ event_type_id: ET.buffered, start: '2026-03-02T14:30:00Z' }))).toEqual({
        ...unavailable('slot_busy'),
        message: 'The host is not free at this time.',
      });
      expect(await bookingCount()).toBe(1);
    });

    it.each([
      ['before', '2026-03-02T13:45:00Z'],
      ['after', '2026-03-02T15:15:00Z'],
    ])('books a start whose buffer %s ends where a booking begins', async (_, start) => {
      await resetBookingWorkspace({ store, clock }, [{ uid: B_HANA, host: 'hana', slug: 'meet', start }]);
      const booking = await created(body({ event_type_id: ET.buffered, start: '2026-03-02T14:30:00Z' }));
      expect(booking.start_at).toBe('2026-03-02T14:30:00.000Z');
    });

    it('exactly at now plus the notice is still bookable', async () => {
      clock.set('2026-03-02T09:00:00.000Z');
      const booking = await created(body({ start: '2026-03-02T10:00:00Z' }));
      expect(booking.start_at).toBe('2026-03-02T10:00:00.000Z');
    });
  });

  it('answers availability_unavailable with Retry-After 30 and books nothing when a conflict calendar cannot be read', async () => {
    const unreadable = testDeps(store, clock, {
      calendars: createCalendarReader(async () => {
        throw new CalendarUnreadable('x');
      }),
    });
    expect(await scheduleErrorOf(createBooking(unreadable, admin, body({ event_type_id: ET.fennMeet })))).toEqual({
      code: 'availability_unavailable',
      message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
      details: {},
      retryAfterSeconds: 30,
    });
    expect(await bookingCount()).toBe(1);
    expect(await outboxOf(store)).toEqual([]);
  });
});
