import { expect } from 'vitest';
import { TIMESTAMP } from './booking-view.js';
import { STARTS_ON, tokyoAt } from './series-workspace.js';
import { ALL_SCOPES } from './workspace.js';

/**
 * The workspace of the black-box MCP suites, with dates relative to the real
 * clock (STARTS_ON and tokyoAt of series-workspace.ts: the first Monday at
 * least two days ahead, wall clock in Asia/Tokyo, which has no DST).
 *
 * alder and birch are twins: same name, zone, working hours (Monday to
 * Friday 09:00-17:00 Tokyo) and an identical event type each, and each has
 * one imported booking on Thursday of week 0 at 10:00. So the same change
 * made on alder over HTTP and on birch over MCP must store the same thing,
 * except for the host, the event type and what only the channel decides.
 * ora is the owner and acts for both; alder acts only for herself.
 */

export const MCP_USERS = {
  alder: 'a6000000-0000-4000-8000-000000000001',
  birch: 'a6000000-0000-4000-8000-000000000002',
  ora: 'a6000000-0000-4000-8000-000000000003',
} as const;

export type McpUser = keyof typeof MCP_USERS;
export type Twin = 'alder' | 'birch';

/** Both twins carry this display name, so titles do not tell them apart. */
export const TWIN_NAME = 'Twin Host';

/** The event type each twin owns: the same settings, its own id and slug. */
export const TWIN_EVENT_TYPES: Record<Twin, { id: string; slug: string }> = {
  alder: { id: 'a6e00000-0000-4000-8000-000000000001', slug: 'alder-sync' },
  birch: { id: 'a6e00000-0000-4000-8000-000000000002', slug: 'birch-sync' },
};
export const EVENT_NAME = 'Weekly sync';
export const DURATION_MINUTES = 30;

/** The imported booking of each twin on Thursday of week 0, 10:00-10:30 Tokyo. */
export const BLOCKERS: Record<Twin, string> = {
  alder: 'a6b00000-0000-4000-8000-000000000001',
  birch: 'a6b00000-0000-4000-8000-000000000002',
};

export const MCP_SECRETS = {
  /** The owner, every scope. */
  ora: 'mcp-secret-ora-all-scopes',
  /** alder, every scope; acts only for herself. */
  alder: 'mcp-secret-alder-all-scopes',
  /** The owner's, revoked. */
  revoked: 'mcp-secret-ora-revoked',
  /** In no workspace. */
  unknown: 'mcp-secret-nobody-has-this',
} as const;

/** The Series and Booking `host` object of a user. */
export function hostView(user: McpUser): { user_id: string; username: string; email: string } {
  return { user_id: MCP_USERS[user], username: user, email: `${user}@mcp.test` };
}

/** `start` plus the event type's 30 minutes. */
export function endOf(start: string): string {
  return new Date(Date.parse(start) + DURATION_MINUTES * 60_000).toISOString();
}

export function mcpWorkspace(): Record<string, unknown> {
  const schedule = {
    timezone: 'Asia/Tokyo',
    weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
  };
  const user = (key: McpUser, role: string, name: string) => ({
    id: MCP_USERS[key],
    username: key,
    email: `${key}@mcp.test`,
    name,
    timezone: 'Asia/Tokyo',
    role,
    schedule,
  });
  const twins: Twin[] = ['alder', 'birch'];
  return {
    organization: { name: 'MCP Blackbox' },
    // Far more calls than the default 120 a minute go through one token.
    limits: { pat_per_minute: 10_000 },
    users: [user('alder', 'user', TWIN_NAME), user('birch', 'user', TWIN_NAME), user('ora', 'owner', 'Ora Owner')],
    event_types: twins.map((twin) => ({
      id: TWIN_EVENT_TYPES[twin].id,
      owner: twin,
      slug: TWIN_EVENT_TYPES[twin].slug,
      name: EVENT_NAME,
      duration_minutes: DURATION_MINUTES,
      minimum_notice_minutes: 0,
      future_limit_days: 400,
      recurring: 'on',
      questions: [{ id: 'topic', label: 'Topic', required: false }],
    })),
    tokens: [
      { name: 'ora', user: 'ora', secret: MCP_SECRETS.ora, scopes: [...ALL_SCOPES] },
      { name: 'alder', user: 'alder', secret: MCP_SECRETS.alder, scopes: [...ALL_SCOPES] },
      { name: 'ora-revoked', user: 'ora', secret: MCP_SECRETS.revoked, scopes: [...ALL_SCOPES], revoked: true },
    ],
    bookings: twins.map((twin) => ({
      uid: BLOCKERS[twin],
      event_type: TWIN_EVENT_TYPES[twin].slug,
      host: twin,
      start: tokyoAt(3, '10:00'),
      attendee: { email: 'blocker@example.com', name: 'Blocker', timezone: 'Asia/Tokyo' },
    })),
  };
}

/** Series create arguments for a twin: Mondays and Thursdays at 10:00 Tokyo, four times (Thursday of week 0 is taken). */
export function twinSeriesBody(twin: Twin, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    host_user_id: MCP_USERS[twin],
    event_type_id: TWIN_EVENT_TYPES[twin].id,
    attendee: { email: 'pat@example.com', first_name: 'Pat', last_name: 'Lee', phone: '+81 3 1234 5678' },
    frequency: 'weekly',
    weekdays: ['mon', 'thu'],
    time: '10:00',
    starts_on: STARTS_ON,
    count: 4,
    ...overrides,
  };
}

/** The Series a `twinSeriesBody(twin)` create shows, with the given fields changed. */
export function expectedTwinSeries(twin: Twin, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uid: expect.any(String),
    version: 1,
    event_type: { id: TWIN_EVENT_TYPES[twin].id, slug: TWIN_EVENT_TYPES[twin].slug, name: EVENT_NAME },
    host: hostView(twin),
    attendee: { name: 'Pat Lee', email: 'pat@example.com', phone: '+81 3 1234 5678' },
    frequency: 'weekly',
    interval_weeks: 1,
    weekdays: ['mon', 'thu'],
    time: '10:00',
    timezone: 'Asia/Tokyo',
    starts_on: STARTS_ON,
    count: 4,
    status: 'active',
    location_url: null,
    notify_invitee: true,
    source: 'api',
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: expect.stringMatching(TIMESTAMP),
    ended_at: null,
    ...overrides,
  };
}

/** Booking create arguments on a twin's event type. */
export function twinBookingBody(twin: Twin, start: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_type_id: TWIN_EVENT_TYPES[twin].id,
    start,
    timezone: 'Europe/Paris',
    attendee: { email: 'sam@example.com', first_name: 'Sam', last_name: 'Ray', timezone: 'America/New_York' },
    guests: ['guest@example.com', { email: 'named@example.com', name: 'Named Guest' }],
    responses: { topic: 'Roadmap' },
    metadata: { crm: 'x-1' },
    utm_source: 'newsletter',
    ...overrides,
  };
}

/** The Booking a `twinBookingBody(twin, start)` create shows (detail view: responses populated). */
export function expectedTwinBooking(twin: Twin, start: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uid: expect.any(String),
    version: 1,
    event_type_id: TWIN_EVENT_TYPES[twin].id,
    event_type_slug: TWIN_EVENT_TYPES[twin].slug,
    title: `${EVENT_NAME} between ${TWIN_NAME} and Sam Ray`,
    status: 'confirmed',
    start_at: start,
    end_at: endOf(start),
    timezone: 'Europe/Paris',
    host: hostView(twin),
    hosts: [hostView(twin)],
    attendees: [{ email: 'sam@example.com', name: 'Sam Ray', timezone: 'America/New_York' }],
    guests: [{ email: 'guest@example.com' }, { email: 'named@example.com', name: 'Named Guest' }],
    location: { type: 'conference', url: expect.stringMatching(/^https:\/\/meet\.test\/[0-9a-f-]{36}$/), value: null },
    metadata: { crm: 'x-1', utm_source: 'newsletter' },
    responses: { topic: 'Roadmap' },
    calendar_sync_status: 'not_applicable',
    calendar_event_id: expect.any(String),
    rescheduled_from_uid: null,
    cancelled_at: null,
    cancellation_reason: null,
    no_show_at: null,
    no_show_reason: null,
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: expect.stringMatching(TIMESTAMP),
    ...overrides,
  };
}
