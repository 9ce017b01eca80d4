import type { Clock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { Store } from '../../src/storage/store.js';
import { type LoadReport, loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';

// A workspace for the availability, slots and booking-write suites. Unlike
// organization.ts its hosts have working hours, calendars and event types
// with notice, horizon, buffers and questions. The clock of these suites
// starts at T0, a Monday morning in UTC, before the hosts' working day.

/** Monday 2026-03-02, 08:30 UTC. */
export const T0 = '2026-03-02T08:30:00.000Z';

export const HANA = '50000000-0000-4000-8000-00000000000a';
export const IVAN = '50000000-0000-4000-8000-00000000000b';
export const CARL = '50000000-0000-4000-8000-00000000000c';
export const FENN = '50000000-0000-4000-8000-00000000000d';
export const NORA = '50000000-0000-4000-8000-00000000000e';
export const BERT = '50000000-0000-4000-8000-00000000000f';
export const LENA = '50000000-0000-4000-8000-000000000010';
export const SOLA = '50000000-0000-4000-8000-000000000011';
export const ADMIN = '50000000-0000-4000-8000-000000000012';

/** Event types by name; each host's own ids. */
export const ET = {
  meet: '60000000-0000-4000-8000-000000000001',
  buffered: '60000000-0000-4000-8000-000000000002',
  paused: '60000000-0000-4000-8000-000000000003',
  fixed: '60000000-0000-4000-8000-000000000004',
  form: '60000000-0000-4000-8000-000000000005',
  long: '60000000-0000-4000-8000-000000000006',
  ivanLong: '60000000-0000-4000-8000-000000000007',
  carlMeet: '60000000-0000-4000-8000-000000000008',
  fennMeet: '60000000-0000-4000-8000-000000000009',
  noraMeet: '60000000-0000-4000-8000-00000000000a',
  bertMeet: '60000000-0000-4000-8000-00000000000b',
  lenaMeet: '60000000-0000-4000-8000-00000000000c',
  solaMeet: '60000000-0000-4000-8000-00000000000d',
} as const;

export const TOKEN = {
  hana: 'pat_hana_all_scopes_x',
  ivan: 'pat_ivan_all_scopes_x',
  admin: 'pat_admin_all_scopes_x',
} as const;

const ALL_SCOPES = ['bookings:read', 'bookings:create', 'bookings:cancel', 'bookings:reschedule', 'bookings:update', 'slots:read'];

/** Monday to Friday, 09:00–12:00 and 13:00–17:00 UTC. */
const OFFICE_HOURS = {
  timezone: 'UTC',
  weekly: Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [
      day,
      [
        ['09:00', '12:00'],
        ['13:00', '17:00'],
      ],
    ]),
  ),
};

/** What the host part of a Booking shows, by username. */
export const HOST_VIEW = {
  hana: { user_id: HANA, username: 'hana', email: 'hana@acme.test' },
  ivan: { user_id: IVAN, username: 'ivan', email: 'ivan@acme.test' },
  carl: { user_id: CARL, username: 'carl', email: 'carl@acme.test' },
  nora: { user_id: NORA, username: 'nora', email: 'nora@acme.test' },
} as const;

/** Event type fields a suite may change on reload, by slug of hana's types. */
export type EventTypeChanges = Partial<Record<string, Record<string, unknown>>>;

function eventTypes(changes: EventTypeChanges): Record<string, unknown>[] {
  const base = (id: string, owner: string, slug: string, name: string, extra: Record<string, unknown> = {}) => ({
    id,
    owner,
    slug,
    name,
    duration_minutes: 30,
    slot_interval_minutes: 30,
    minimum_notice_minutes: 60,
    future_limit_days: 14,
    // No reminders: these suites count the booking's own mail (reminders.test.ts has its own).
    reminders: [],
    ...extra,
    ...(owner === 'hana' ? changes[slug] : {}),
  });
  return [
    base(ET.meet, 'hana', 'meet', 'Meeting', { questions: [{ id: 'topic', label: 'Topic', required: false }] }),
    base(ET.buffered, 'hana', 'buffered', 'Buffered', { buffer_before_minutes: 15, buffer_after_minutes: 15 }),
    base(ET.paused, 'hana', 'paused', 'Paused', { status: 'off' }),
    base(ET.fixed, 'hana', 'fixed', 'Fixed', { allow_reschedule: false }),
    base(ET.form, 'hana', 'form', 'Form', { questions: [{ id: 'agenda', label: 'Agenda', required: true }] }),
    base(ET.long, 'hana', 'long', 'Long', { duration_minutes: 60, minimum_notice_minutes: 0, future_limit_days: 60 }),
    base(ET.ivanLong, 'ivan', 'long', 'Long', { duration_minutes: 60, minimum_notice_minutes: 0, future_limit_days: 60 }),
    base(ET.carlMeet, 'carl', 'meet', 'Meeting'),
    base(ET.fennMeet, 'fenn', 'meet', 'Meeting'),
    base(ET.noraMeet, 'nora', 'meet', 'Meeting', { minimum_notice_minutes: 0 }),
    base(ET.bertMeet, 'bert', 'meet', 'Meeting'),
    base(ET.lenaMeet, 'lena', 'meet', 'Meeting'),
    base(ET.solaMeet, 'sola', 'meet', 'Meeting', { minimum_notice_minutes: 0, future_limit_days: 60 }),
  ];
}

/** A workspace `bookings[]` entry. */
export interface ImportedBooking {
  uid: string;
  /** The host's username. */
  host: string;
  /** The event type's slug on that host. */
  slug: string;
  start: string;
  timezone?: string;
  status?: 'confirmed' | 'canceled';
}

/** The workspace JSON, with the given imported bookings and event type changes. */
export function bookingWorkspace(bookings: readonly ImportedBooking[] = [], changes: EventTypeChanges = {}): Record<string, unknown> {
  return {
    organization: { name: 'Acme' },
    users: [
      { id: HANA, username: 'hana', email: 'hana@acme.test', name: 'Hana Host', schedule: OFFICE_HOURS },
      { id: IVAN, username: 'ivan', email: 'ivan@acme.test', name: 'Ivan Host', schedule: OFFICE_HOURS },
      {
        id: CARL,
        username: 'carl',
        email: 'carl@acme.test',
        name: 'Carl Cal',
        schedule: OFFICE_HOURS,
        calendars: [{ kind: 'static', busy: [{ start: '2026-03-02T10:00:00Z', end: '2026-03-02T11:00:00Z' }] }],
      },
      {
        id: FENN,
        username: 'fenn',
        email: 'fenn@acme.test',
        name: 'Fenn Feed',
        schedule: OFFICE_HOURS,
        calendars: [{ kind: 'ics', url: 'https://calendar.test/fenn.ics' }],
      },
      { id: NORA, username: 'nora', email: 'nora@acme.test', name: 'Nora Nohours', timezone: 'America/New_York' },
      {
        id: BERT,
        username: 'bert',
        email: 'bert@acme.test',
        name: 'Bert Berlin',
        timezone: 'Asia/Tokyo',
        schedule: { ...OFFICE_HOURS, timezone: 'Europe/Berlin' },
      },
      {
        id: LENA,
        username: 'lena',
        email: 'lena@acme.test',
        name: 'Lena Local',
        timezone: 'Asia/Tokyo',
        schedule: { weekly: OFFICE_HOURS.weekly },
      },
      // Free only on one date, so that next_available has to look far.
      {
        id: SOLA,
        username: 'sola',
        email: 'sola@acme.test',
        name: 'Sola Seldom',
        schedule: { timezone: 'UTC', weekly: {}, overrides: [{ date: '2026-03-10', intervals: [['09:00', '10:00']] }] },
      },
      { id: ADMIN, username: 'admin', email: 'admin@acme.test', name: 'Ada Admin', role: 'admin' },
    ],
    event_types: eventTypes(changes),
    tokens: [
      { name: 'hana', user: 'hana', secret: TOKEN.hana, scopes: ALL_SCOPES },
      { name: 'ivan', user: 'ivan', secret: TOKEN.ivan, scopes: ALL_SCOPES },
      { name: 'admin', user: 'admin', secret: TOKEN.admin, scopes: ALL_SCOPES },
    ],
    bookings: bookings.map((b) => ({
      uid: b.uid,
      event_type: b.slug,
      host: b.host,
      start: b.start,
      attendee: { email: 'bob@example.com', name: 'Bob', timezone: 'UTC' },
      status: b.status ?? 'confirmed',
      ...(b.timezone ? { timezone: b.timezone } : {}),
    })),
  };
}

/** Loads the workspace through the public parser and loader. */
export async function loadBookingWorkspace(
  deps: { store: Store; clock: Clock },
  bookings: readonly ImportedBooking[] = [],
  changes: EventTypeChanges = {},
): Promise<LoadReport> {
  const workspace = parseWorkspace(JSON.stringify(bookingWorkspace(bookings, changes)));
  return loadWorkspace({ ...deps, ids: randomIds }, workspace);
}

/**
 * Puts a store back to the freshly loaded workspace between tests: forgets
 * every booking, outbox event and idempotency key (all a booking write
 * touches), then loads the workspace again, which restores changed event
 * types and re-imports the given bookings. Much cheaper than a new schema.
 */
export async function resetBookingWorkspace(
  deps: { store: Store; clock: Clock },
  bookings: readonly ImportedBooking[] = [],
  changes: EventTypeChanges = {},
): Promise<LoadReport> {
  const { db } = deps.store;
  await db.deleteFrom('outbox').execute();
  await db.deleteFrom('idempotency_keys').execute();
  await db.deleteFrom('bookings').execute();
  return loadBookingWorkspace(deps, bookings, changes);
}

const EVENT_TYPE_VIEW: Record<string, { id: string; name: string; minutes: number }> = {
  meet: { id: ET.meet, name: 'Meeting', minutes: 30 },
  long: { id: ET.long, name: 'Long', minutes: 60 },
  fixed: { id: ET.fixed, name: 'Fixed', minutes: 30 },
};

/**
 * What the API shows of a booking of hana's that the workspace imported at
 * T0, with `changes` applied; the suite's own statement of the expected value.
 */
export function importedBookingView(booking: ImportedBooking, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const eventType = EVENT_TYPE_VIEW[booking.slug];
  if (!eventType || booking.host !== 'hana') throw new Error(`no view for ${booking.host}/${booking.slug}`);
  const startMs = Date.parse(booking.start);
  const canceled = booking.status === 'canceled';
  return {
    uid: booking.uid,
    version: 1,
    event_type_id: eventType.id,
    event_type_slug: booking.slug,
    title: `${eventType.name} between Hana Host and Bob`,
    status: booking.status ?? 'confirmed',
    start_at: new Date(startMs).toISOString(),
    end_at: new Date(startMs + eventType.minutes * 60_000).toISOString(),
    timezone: booking.timezone ?? 'UTC',
    host: HOST_VIEW.hana,
    hosts: [HOST_VIEW.hana],
    attendees: [{ email: 'bob@example.com', name: 'Bob', timezone: 'UTC' }],
    guests: [],
    location: { type: 'conference', url: null, value: null },
    metadata: {},
    responses: {},
    calendar_sync_status: 'not_applicable',
    calendar_event_id: '',
    rescheduled_from_uid: null,
    // The loader dates an imported cancellation at the booking's start when the file gives no time.
    cancelled_at: canceled ? new Date(startMs).toISOString() : null,
    cancellation_reason: null,
    no_show_at: null,
    no_show_reason: null,
    created_at: T0,
    updated_at: T0,
    ...changes,
  };
}
