// The organization the endpoint fuzzer runs against. Its clock is pinned at
// T0, a Monday morning in UTC before the working day, so that the valid
// bodies the fuzzer builds (a weekday slot in the next weeks) are bookable
// until someone takes them. Limits are out of reach: a 429 would hide
// whatever the request would otherwise have reached.

import { SCOPES } from '@schedule/core';

/** Monday 2026-03-02, 08:00 UTC. */
export const T0 = '2026-03-02T08:00:00.000Z';

export const USER = {
  /** The owner, whose token most cases carry: sees and may act for everyone. */
  olga: 'f0000000-0000-4000-8000-000000000001',
  uma: 'f0000000-0000-4000-8000-000000000002',
  /** Manages uma. */
  max: 'f0000000-0000-4000-8000-000000000003',
  /** Works around the clock (no schedule), with a static calendar busy on Tuesday morning. */
  ivo: 'f0000000-0000-4000-8000-000000000004',
} as const;

export const EVENT_TYPE = {
  /** olga's: 30 minutes on a 30-minute grid, no notice, 60-day horizon, one optional question. */
  meet: 'f1000000-0000-4000-8000-000000000001',
  /** olga's series type: 400-day horizon. */
  weekly: 'f1000000-0000-4000-8000-000000000002',
  /** olga's: recurring off. */
  single: 'f1000000-0000-4000-8000-000000000003',
  /** olga's: status off. */
  off: 'f1000000-0000-4000-8000-000000000004',
  /** olga's: rescheduling not allowed. */
  fixed: 'f1000000-0000-4000-8000-000000000005',
  /** olga's: a required question. */
  form: 'f1000000-0000-4000-8000-000000000006',
  uma: 'f1000000-0000-4000-8000-000000000007',
  /** ivo's, with buffers. */
  ivo: 'f1000000-0000-4000-8000-000000000008',
} as const;

/** Bearer secrets. */
export const TOKEN = {
  owner: 'pat_fuzz_owner_all_scopes',
  uma: 'pat_fuzz_uma_all_scopes_',
  manager: 'pat_fuzz_max_all_scopes_',
  oauth: 'oat_fuzz_olga_client_all',
  readOnly: 'pat_fuzz_olga_read_only',
  expired: 'pat_fuzz_olga_expired___',
  revoked: 'pat_fuzz_olga_revoked___',
} as const;

/** Bookings imported with the workspace, by what makes each one interesting. */
export const BOOKING = {
  future: 'f2000000-0000-4000-8000-000000000001',
  past: 'f2000000-0000-4000-8000-000000000002',
  canceled: 'f2000000-0000-4000-8000-000000000003',
  fixed: 'f2000000-0000-4000-8000-000000000004',
  ofUma: 'f2000000-0000-4000-8000-000000000005',
  withAnswers: 'f2000000-0000-4000-8000-000000000006',
} as const;

const ALL_SCOPES = [...SCOPES];

const WORKDAYS = {
  timezone: 'UTC',
  weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
};

const UNREACHABLE = 1_000_000_000;

export function fuzzWorkspace(): Record<string, unknown> {
  const type = (id: string, owner: string, slug: string, more: Record<string, unknown> = {}) => ({
    id,
    owner,
    slug,
    name: slug,
    duration_minutes: 30,
    slot_interval_minutes: 30,
    minimum_notice_minutes: 0,
    future_limit_days: 60,
    ...more,
  });
  const token = (secret: string, user: string, more: Record<string, unknown> = {}) => ({
    name: secret,
    user,
    secret,
    scopes: ALL_SCOPES,
    ...more,
  });
  const booking = (uid: string, eventType: string, start: string, more: Record<string, unknown> = {}) => ({
    uid,
    event_type: eventType,
    host: 'olga',
    start,
    attendee: { email: 'bob@example.test', name: 'Bob' },
    ...more,
  });
  return {
    organization: { name: 'Fuzz' },
    limits: { pat_per_minute: UNREACHABLE, oauth_per_minute: UNREACHABLE, anonymous_per_minute: UNREACHABLE },
    users: [
      { id: USER.olga, username: 'olga', email: 'olga@fuzz.test', name: 'Olga Owner', role: 'owner', schedule: WORKDAYS },
      { id: USER.uma, username: 'uma', email: 'uma@fuzz.test', name: 'Uma User', timezone: 'Europe/Berlin', schedule: WORKDAYS },
      { id: USER.max, username: 'max', email: 'max@fuzz.test', name: 'Max Manager', role: 'manager', manages: ['uma'] },
      {
        id: USER.ivo,
        username: 'ivo',
        email: 'ivo@fuzz.test',
        name: 'Ivo Always',
        timezone: 'Asia/Kolkata',
        calendars: [{ kind: 'static', busy: [{ start: '2026-03-03T09:00:00Z', end: '2026-03-03T12:00:00Z' }] }],
      },
    ],
    event_types: [
      type(EVENT_TYPE.meet, 'olga', 'meet', { questions: [{ id: 'topic', label: 'Topic', required: false }] }),
      type(EVENT_TYPE.weekly, 'olga', 'weekly', { future_limit_days: 400 }),
      type(EVENT_TYPE.single, 'olga', 'single', { recurring: 'off' }),
      type(EVENT_TYPE.off, 'olga', 'off', { status: 'off' }),
      type(EVENT_TYPE.fixed, 'olga', 'fixed', { allow_reschedule: false }),
      type(EVENT_TYPE.form, 'olga', 'form', { questions: [{ id: 'agenda', label: 'Agenda', required: true }] }),
      type(EVENT_TYPE.uma, 'uma', 'meet'),
      type(EVENT_TYPE.ivo, 'ivo', 'meet', { buffer_before_minutes: 15, buffer_after_minutes: 15 }),
    ],
    tokens: [
      token(TOKEN.owner, 'olga'),
      token(TOKEN.uma, 'uma'),
      token(TOKEN.manager, 'max'),
      token(TOKEN.oauth, 'olga', { oauth_client_id: 'fuzz-client' }),
      token(TOKEN.readOnly, 'olga', { scopes: ['bookings:read', 'series:read'] }),
      token(TOKEN.expired, 'olga', { expires_at: '2026-01-01T00:00:00Z' }),
      token(TOKEN.revoked, 'olga', { revoked: true }),
    ],
    bookings: [
      booking(BOOKING.future, 'meet', '2026-03-04T10:00:00Z'),
      booking(BOOKING.past, 'meet', '2026-02-20T10:00:00Z'),
      booking(BOOKING.canceled, 'meet', '2026-03-05T10:00:00Z', { status: 'canceled' }),
      booking(BOOKING.fixed, 'fixed', '2026-03-06T10:00:00Z'),
      booking(BOOKING.ofUma, 'meet', '2026-03-04T11:00:00Z', { host: 'uma' }),
      booking(BOOKING.withAnswers, 'meet', '2026-03-09T13:00:00Z', { responses: { topic: 'fuzz' }, metadata: { a: 1 } }),
    ],
  };
}
