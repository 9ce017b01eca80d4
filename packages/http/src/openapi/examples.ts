import type {
  Booking,
  CalendarAccount,
  CalendarAccountTest,
  CalendarResync,
  Caller,
  Delivery,
  EventType,
  EventTypeSummary,
  Hold,
  Person,
  PersonDetail,
  Series,
  SlotCheck,
  SlotList,
  TimeOff,
  TokenSummary,
  TokenWithSecret,
  Webhook,
  WebhookWithSecret,
  WorkingHours,
} from '@schedule/core';

// One small organization, as the examples of docs/api show it: Alice hosts,
// Kim books. Typed by core's views, so an example that drifts from a
// resource's shape does not compile (and the document's linter checks each
// against its schema).

const ALICE = { user_id: '6f1c0c7e-6a3e-4c1b-9a55-0c6f2f0d9a01', username: 'alice', email: 'alice@acme.test' };
const INTRO_ID = '0b7d2a4e-3c1f-4e8a-9d2b-7a1c5e9f3b10';
const SYNC_ID = '0b7d2a4e-3c1f-4e8a-9d2b-7a1c5e9f3b11';
const BOOKING_UID = 'cd2ad973-6c01-42f0-94c4-d76cb4fe6343';
const SERIES_UID = 'e37286f5-00bd-4d1c-8abf-fe2456425921';

export const BOOKING: Booking = {
  uid: BOOKING_UID,
  version: 1,
  event_type_id: INTRO_ID,
  event_type_slug: 'intro',
  title: 'Intro call between Alice Host and Kim',
  status: 'confirmed',
  start_at: '2026-12-08T09:00:00.000Z',
  end_at: '2026-12-08T09:30:00.000Z',
  timezone: 'Europe/Berlin',
  host: ALICE,
  hosts: [ALICE],
  attendees: [{ email: 'kim@example.com', name: 'Kim', timezone: 'Europe/Berlin' }],
  guests: [],
  location: { type: 'conference', url: `https://meet.schedule.invalid/${BOOKING_UID}`, value: null },
  metadata: { utm_source: 'newsletter' },
  responses: { topic: 'Pricing' },
  calendar_sync_status: 'not_applicable',
  calendar_event_id: '',
  rescheduled_from_uid: null,
  cancelled_at: null,
  cancellation_reason: null,
  no_show_at: null,
  no_show_reason: null,
  created_at: '2026-11-25T01:21:46.101Z',
  updated_at: '2026-11-25T01:21:46.101Z',
};

export const CANCELED_BOOKING: Booking = {
  ...BOOKING,
  version: 2,
  status: 'canceled',
  cancelled_at: '2026-11-26T08:00:00.000Z',
  cancellation_reason: 'Something came up.',
  updated_at: '2026-11-26T08:00:00.000Z',
};

/** The booking after its attendee was marked a no-show, a while after its start. */
export const NO_SHOW_BOOKING: Booking = {
  ...BOOKING,
  version: 2,
  no_show_at: '2026-12-08T09:20:00.000Z',
  no_show_reason: 'Did not join; no reply to mail.',
  updated_at: '2026-12-08T09:20:00.000Z',
};

export const CONFIRMED_BOOKING: Booking = { ...BOOKING, version: 2, updated_at: '2026-11-26T08:00:00.000Z' };

export const DECLINED_BOOKING: Booking = {
  ...BOOKING,
  version: 2,
  status: 'declined',
  cancelled_at: '2026-11-26T08:00:00.000Z',
  cancellation_reason: 'Fully booked that week.',
  updated_at: '2026-11-26T08:00:00.000Z',
};

export const DECLINE_BOOKING_BODY = { reason: 'Fully booked that week.' };

export const SERIES: Series = {
  uid: SERIES_UID,
  version: 1,
  event_type: { id: SYNC_ID, slug: 'weekly-sync', name: 'Weekly sync' },
  host: ALICE,
  attendee: { name: 'Kim', email: 'kim@example.com', phone: null },
  frequency: 'weekly',
  interval_weeks: 1,
  weekdays: ['mon', 'wed'],
  time: '10:00',
  timezone: 'Europe/Berlin',
  starts_on: '2026-12-02',
  count: 3,
  status: 'active',
  location_url: null,
  notify_invitee: true,
  source: 'api',
  created_at: '2026-11-25T01:21:39.498Z',
  updated_at: '2026-11-25T01:21:39.498Z',
  ended_at: null,
};

const SKIPPED = { date: '2026-12-07', start_at: '2026-12-07T09:00:00.000Z', reason: 'conflict', cause: 'busy' } as const;

export const CREATED_SERIES = {
  series: SERIES,
  occurrences: [
    {
      uid: '672a79cf-d4db-4c40-89f2-c78eed87f993',
      start_at: '2026-12-02T09:00:00.000Z',
      end_at: '2026-12-02T09:45:00.000Z',
      status: 'confirmed',
    },
    {
      uid: '8c0e5a1b-2f3d-4e6a-9b7c-1d2e3f4a5b6c',
      start_at: '2026-12-09T09:00:00.000Z',
      end_at: '2026-12-09T09:45:00.000Z',
      status: 'confirmed',
    },
  ],
  skipped: [SKIPPED],
};

export const SERIES_PREVIEW = {
  timezone: 'Europe/Berlin',
  occurrences: CREATED_SERIES.occurrences.map(({ start_at, end_at }) => ({ date: start_at.slice(0, 10), start_at, end_at })),
  skipped: [SKIPPED],
};

export const PAUSED = { held: 3, superseded: false };
export const RESUMED = {
  created: 2,
  skipped: [{ ...SKIPPED, date: '2026-12-09', start_at: '2026-12-09T09:00:00.000Z' }],
  owed: 1,
  superseded: false,
};
export const ENDED = { canceled: 3, superseded: false };
export const HOST_CHANGED = { moved: 4, unchanged: 0, stopped_by: null, superseded: false };
export const UPDATED_SERIES = {
  series: { ...SERIES, version: 4, time: '11:00', updated_at: '2026-11-27T10:00:00.000Z' },
  resumed: { created: 3, skipped: [], owed: 0, superseded: false },
};

export const SLOTS: SlotList = {
  event_type_id: INTRO_ID,
  timezone: 'Europe/Berlin',
  computed_at: '2026-11-25T01:21:34.339Z',
  slots: [
    { start: '2026-12-08T08:00:00.000Z', end: '2026-12-08T08:30:00.000Z', available: true },
    { start: '2026-12-08T08:30:00.000Z', end: '2026-12-08T09:00:00.000Z', available: true },
  ],
};

export const HOLD: Hold = {
  id: '5b0c2e4e-8f3a-4c1d-9a2b-7e6f5d4c3b2a',
  event_type_id: BOOKING.event_type_id,
  start: '2026-12-08T10:00:00.000Z',
  end: '2026-12-08T10:30:00.000Z',
  expires_at: '2026-12-01T09:10:00.000Z',
  created_at: '2026-12-01T09:00:00.000Z',
};

export const SLOT_TAKEN: SlotCheck = { available: false, reason: 'slot_busy', next_available: '2026-12-08T10:00:00.000Z' };

export const CALLER: Caller = {
  user_id: ALICE.user_id,
  username: 'alice',
  name: 'Alice Host',
  email: ALICE.email,
  timezone: 'Europe/Berlin',
  role: 'owner',
  credential: 'pat',
  scopes: [
    'bookings:cancel',
    'bookings:create',
    'bookings:read',
    'bookings:reschedule',
    'bookings:update',
    'series:read',
    'series:write',
    'slots:read',
  ],
  acts_for: 'organization',
};

export const PERSON: Person = {
  user_id: ALICE.user_id,
  username: 'alice',
  name: 'Alice Host',
  email: ALICE.email,
  timezone: 'Europe/Berlin',
  role: 'owner',
};

export const PERSON_DETAIL: PersonDetail = {
  ...PERSON,
  manages: [],
  reminders: true,
  deactivated_at: null,
  version: 1,
  created_at: '2026-11-02T09:00:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
};

export const NEW_PERSON: PersonDetail = {
  user_id: '7a2d1b3c-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  username: 'bea',
  name: 'Bea Host',
  email: 'bea@acme.test',
  timezone: 'Europe/Paris',
  role: 'user',
  manages: [],
  reminders: true,
  deactivated_at: null,
  version: 1,
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T10:00:00.000Z',
};

export const CREATE_PERSON_BODY = { username: 'bea', email: 'bea@acme.test', name: 'Bea Host', timezone: 'Europe/Paris' };

export const UPDATE_PERSON_BODY = { timezone: 'Europe/Lisbon' };

export const TOKEN: TokenSummary = {
  id: '5c8e2f1a-9b3d-4c7e-8a1f-2d3e4f5a6b7c',
  name: 'laptop',
  user: { user_id: ALICE.user_id, username: 'alice' },
  scopes: ['bookings:read', 'slots:read'],
  kind: 'pat',
  created_at: '2026-12-01T10:00:00.000Z',
  expires_at: null,
  revoked_at: null,
};

export const CREATED_TOKEN: TokenWithSecret = { ...TOKEN, secret: 'pat_q3Jx0bW1nq8s7VYh2cJ5mTt4uK9dLrE0' };

export const CREATE_TOKEN_BODY = { name: 'laptop', scopes: ['bookings:read', 'slots:read'] };

export const WORKING_HOURS: WorkingHours = {
  user_id: ALICE.user_id,
  timezone: 'Europe/Berlin',
  weekly: {
    mon: [['09:00', '17:00']],
    tue: [
      ['09:00', '12:00'],
      ['13:00', '17:00'],
    ],
    wed: [['09:00', '17:00']],
    thu: [['09:00', '17:00']],
    fri: [['09:00', '13:00']],
    sat: [],
    sun: [],
  },
  overrides: [{ date: '2026-12-24', intervals: [] }],
  default: false,
  version: 3,
  updated_at: '2026-11-25T01:30:00.000Z',
};

export const EVENT_TYPE: EventTypeSummary = {
  id: INTRO_ID,
  slug: 'intro',
  name: 'Intro call',
  owner: { user_id: ALICE.user_id, username: 'alice' },
  duration_minutes: 30,
  status: 'on',
  recurring: 'on',
  allow_reschedule: true,
  minimum_notice_minutes: 120,
  cancel_notice_minutes: 1440,
  reschedule_notice_minutes: 0,
  future_limit_days: 60,
  timezone: 'Europe/Berlin',
  questions: [{ id: 'topic', label: 'Topic', type: 'text', required: false }],
  booking_url: 'https://schedule.example.com/@alice/intro',
};

/** The same type whole, as GET /v1/event-types/:id and its writes answer it. */
export const FULL_EVENT_TYPE: EventType = {
  id: INTRO_ID,
  slug: 'intro',
  name: 'Intro call',
  description: 'A first talk about your project.',
  owner: { user_id: ALICE.user_id, username: 'alice' },
  duration_minutes: 30,
  slot_interval_minutes: 30,
  buffer_before_minutes: 0,
  buffer_after_minutes: 10,
  minimum_notice_minutes: 120,
  cancel_notice_minutes: 1440,
  reschedule_notice_minutes: 0,
  future_limit_days: 60,
  status: 'on',
  recurring: 'on',
  allow_reschedule: true,
  requires_confirmation: false,
  attendee_mail: true,
  location: { type: 'conference' },
  reminders: [
    { minutes: 1440, relative_to: 'start', to: 'attendee', via: 'email', text: null },
    { minutes: 60, relative_to: 'start', to: 'both', via: 'email', text: 'Bring the contract draft.' },
  ],
  visibility: 'public',
  max_bookings_per_day: 4,
  max_bookings_per_week: null,
  seats: null,
  scheduling: 'single',
  hosts: [],
  booking_url: 'https://schedule.example.com/@alice/intro',
  questions: [{ id: 'topic', label: 'Topic', type: 'text', required: false }],
  version: 1,
  created_at: '2026-03-01T09:00:00.000Z',
  updated_at: '2026-03-01T09:00:00.000Z',
  archived_at: null,
};

export const CREATE_EVENT_TYPE_BODY = {
  slug: 'intro',
  name: 'Intro call',
  description: 'A first talk about your project.',
  duration_minutes: 30,
  buffer_after_minutes: 10,
  minimum_notice_minutes: 120,
  questions: [{ id: 'topic', label: 'Topic' }],
};

export const UPDATE_EVENT_TYPE_BODY = { duration_minutes: 45, slot_interval_minutes: 15 };

const WEBHOOK_ID = '5b1e9c1a-7d2f-4c3b-9a8e-2f4d6b8c0e11';

export const WEBHOOK: Webhook = {
  id: WEBHOOK_ID,
  url: 'https://crm.example.com/hooks/schedule',
  events: ['booking.created', 'booking.canceled', 'booking.rescheduled'],
  description: 'CRM sync',
  status: 'active',
  paused_reason: null,
  consecutive_failures: 0,
  failing_since: null,
  created_at: '2026-11-25T01:30:00.000Z',
  updated_at: '2026-11-25T01:30:00.000Z',
  version: 1,
};

export const CREATED_WEBHOOK: WebhookWithSecret = { ...WEBHOOK, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwYHwOkHcFQ5s=' };

export const PAUSED_WEBHOOK: Webhook = {
  ...WEBHOOK,
  status: 'paused',
  paused_reason: 'owner',
  version: 2,
  updated_at: '2026-11-26T09:00:00.000Z',
};

export const ROTATED_WEBHOOK: WebhookWithSecret = {
  ...WEBHOOK,
  version: 2,
  updated_at: '2026-11-26T09:00:00.000Z',
  secret: 'whsec_3q2+7w8yXk1t0mZ9cVb4nL6pR5sJ2hG8fD1aQ7eW0uI=',
};

export const DELIVERY: Delivery = {
  id: '0d4c2b8e-1f3a-4e5b-8c7d-9a0b1c2d3e4f',
  webhook_id: WEBHOOK_ID,
  event_id: '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928',
  event_type: 'booking.created',
  status: 'succeeded',
  attempts: 1,
  next_attempt_at: null,
  last_status_code: 200,
  last_response_body: '{"ok":true}',
  last_error: null,
  created_at: '2026-11-25T01:31:00.000Z',
  delivered_at: '2026-11-25T01:31:00.120Z',
};

export const QUEUED_DELIVERY: Delivery = {
  ...DELIVERY,
  id: '3f2e1d0c-9b8a-4765-8432-10fedcba9876',
  event_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  event_type: 'webhook.test',
  status: 'pending',
  attempts: 0,
  next_attempt_at: '2026-11-26T09:00:00.000Z',
  last_status_code: null,
  last_response_body: null,
  created_at: '2026-11-26T09:00:00.000Z',
  delivered_at: null,
};

// Request bodies, as a client would send them.

export const CREATE_BOOKING_BODY = {
  event_type_id: INTRO_ID,
  start: '2026-12-08T10:00:00+01:00',
  timezone: 'Europe/Berlin',
  attendee: { email: 'kim@example.com', name: 'Kim' },
  responses: { topic: 'Pricing' },
  utm_source: 'newsletter',
};
export const CANCEL_BOOKING_BODY = { reason: 'Something came up.' };
export const NO_SHOW_BODY = { reason: 'Did not join; no reply to mail.' };
export const RESCHEDULE_BOOKING_BODY = { start: '2026-12-09T14:00:00+01:00' };
export const UPDATE_BOOKING_BODY = { metadata: { crm_id: '42' }, attendee_name: 'Kim P.' };
export const CREATE_SERIES_BODY = {
  host_user_id: ALICE.user_id,
  event_type_id: SYNC_ID,
  attendee: { email: 'kim@example.com', name: 'Kim' },
  frequency: 'weekly',
  weekdays: ['mon', 'wed'],
  time: '10:00',
  timezone: 'Europe/Berlin',
  starts_on: '2026-12-02',
  count: 3,
};
export const CHANGE_HOST_BODY = { host_user_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' };
export const UPDATE_SERIES_BODY = { time: '11:00' };
export const CREATE_WEBHOOK_BODY = {
  url: 'https://crm.example.com/hooks/schedule',
  events: ['booking.created', 'booking.canceled', 'booking.rescheduled'],
  description: 'CRM sync',
};
export const UPDATE_WEBHOOK_BODY = { status: 'paused' };

export const CALENDAR_ACCOUNT: CalendarAccount = {
  id: 'cal_3f2a9c0e8b7d4e61a5c2f0d9b8e7a6c5',
  kind: 'caldav',
  user_id: ALICE.user_id,
  url: 'https://cloud.example.com/remote.php/dav',
  username: 'alice',
  busy_calendars: ['Work', 'Family'],
  book_into: 'Work',
  receives_bookings: true,
  source: 'api',
  created_at: '2026-11-25T01:30:00.000Z',
};

export const ADD_CALENDAR_BODY = {
  url: 'https://cloud.example.com/remote.php/dav',
  username: 'alice',
  password: 'app-password-from-the-server',
  busy_calendars: ['Work', 'Family'],
  book_into: 'Work',
};

export const CALENDAR_TEST: CalendarAccountTest = {
  id: CALENDAR_ACCOUNT.id,
  calendars: [
    { name: 'Work', url: 'https://cloud.example.com/remote.php/dav/calendars/alice/work/', busy: true, book_into: true },
    { name: 'Family', url: 'https://cloud.example.com/remote.php/dav/calendars/alice/family/', busy: true, book_into: false },
    { name: 'Birthdays', url: 'https://cloud.example.com/remote.php/dav/calendars/alice/birthdays/', busy: false, book_into: false },
  ],
};

export const RESYNC_CALENDAR_BODY = { user: 'alice' };

export const CALENDAR_RESYNC: CalendarResync = { queued: 3, remaining: 0 };

const TIME_OFF_ID = '3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

export const CREATE_TIME_OFF_BODY = { start_date: '2026-12-11', reason: 'Day off' };

export const TIME_OFF: TimeOff = {
  id: TIME_OFF_ID,
  user_id: '0b6f4a52-3c1d-4e8f-9a2b-7c5d1e3f9a01',
  start_at: '2026-12-10T23:00:00.000Z',
  end_at: '2026-12-11T23:00:00.000Z',
  reason: 'Day off',
  created_at: '2026-11-25T01:30:00.000Z',
  updated_at: '2026-11-25T01:30:00.000Z',
  version: 1,
};

export const UPDATE_TIME_OFF_BODY = { end_date: '2026-12-14' };

export const MOVED_TIME_OFF: TimeOff = { ...TIME_OFF, end_at: '2026-12-14T23:00:00.000Z', version: 2 };
export const REPLACE_WORKING_HOURS_BODY = {
  timezone: 'Europe/Berlin',
  weekly: WORKING_HOURS.weekly,
  overrides: WORKING_HOURS.overrides,
};
export const ADD_OVERRIDE_BODY = { date: '2026-12-31', intervals: [['09:00', '12:00']] };
