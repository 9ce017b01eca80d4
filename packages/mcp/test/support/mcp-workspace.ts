import { type Limits, manualClock, SCOPES } from '@schedule/core';

// The organization the MCP suites run against. The clock is pinned at M0, a
// Monday morning in UTC before the working day. Everyone works Monday to
// Friday 09:00-17:00 UTC. Roles: olga owns the organization, max manages uma,
// uma and ulf are plain users (nobody manages ulf), ian's only calendar is an
// iCalendar feed.

/** Monday 2026-03-02, 08:00 UTC: the start of a rate-limit window. */
export const M0 = '2026-03-02T08:00:00.000Z';

export const USER = {
  ian: '90000000-0000-4000-8000-00000000000a',
  max: '90000000-0000-4000-8000-00000000000b',
  olga: '90000000-0000-4000-8000-00000000000c',
  ulf: '90000000-0000-4000-8000-00000000000d',
  uma: '90000000-0000-4000-8000-00000000000e',
} as const;
export type Username = keyof typeof USER;

export const NAME_OF: Record<Username, string> = {
  ian: 'Ian Feed',
  max: 'Max Manager',
  olga: 'Olga Owner',
  ulf: 'Ulf User',
  uma: 'Uma User',
};

export const ROLE_OF: Record<Username, string> = { ian: 'user', max: 'manager', olga: 'owner', ulf: 'user', uma: 'user' };

/** What a Booking or Series shows of each host. */
export const HOST_OF = Object.fromEntries(
  (Object.keys(USER) as Username[]).map((name) => [name, { user_id: USER[name], username: name, email: `${name}@acme.test` }]),
) as Record<Username, { user_id: string; username: string; email: string }>;

export const ET = {
  /** uma's 30-minute type: grid 30, no notice, 400-day horizon, recurring on. */
  weekly: 'a0000000-0000-4000-8000-00000000000a',
  /** uma's type with recurring "off". */
  single: 'a0000000-0000-4000-8000-00000000000b',
  /** ulf's 30-minute type. */
  chat: 'a0000000-0000-4000-8000-00000000000c',
  /** ian's 30-minute type; ian's calendar is an ics feed. */
  feed: 'a0000000-0000-4000-8000-00000000000d',
} as const;

/** Bookings imported with the workspace: uma's, on the weekly type, Tuesday to Thursday 10:00 UTC. */
export const IMPORTED = {
  tue: 'b0000000-0000-4000-8000-00000000000a',
  wed: 'b0000000-0000-4000-8000-00000000000b',
  thu: 'b0000000-0000-4000-8000-00000000000c',
} as const;

/** Every scope there is. */
export const ALL_SCOPES = SCOPES;

/** Bearer secrets. Every token has all scopes unless its name says otherwise. */
export const TOKEN = {
  olga: 'pat_mcp_olga_all_scopes',
  max: 'pat_mcp_max_all_scopes',
  uma: 'pat_mcp_uma_all_scopes',
  /** A second token of uma's: its own rate-limit bucket. */
  umaSecond: 'pat_mcp_uma_second_token',
  /** uma with bookings:read only. */
  umaFew: 'pat_mcp_uma_bookings_read',
  ulf: 'pat_mcp_ulf_all_scopes',
  ian: 'pat_mcp_ian_all_scopes',
} as const;

const WORKDAYS = {
  timezone: 'UTC',
  weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
};

export interface WorkspaceOptions {
  /** Secrets of tokens to load as revoked. */
  readonly revoked?: readonly string[];
  readonly limits?: Limits;
}

/** The workspace file of the MCP suites. */
export function mcpWorkspace(options: WorkspaceOptions = {}): Record<string, unknown> {
  const user = (name: Username, more: Record<string, unknown> = {}) => ({
    id: USER[name],
    username: name,
    email: `${name}@acme.test`,
    name: NAME_OF[name],
    timezone: 'UTC',
    role: ROLE_OF[name],
    schedule: WORKDAYS,
    ...more,
  });
  const type = (id: string, owner: Username, slug: string, name: string, more: Record<string, unknown> = {}) => ({
    id,
    owner,
    slug,
    name,
    duration_minutes: 30,
    slot_interval_minutes: 30,
    minimum_notice_minutes: 0,
    future_limit_days: 400,
    ...more,
  });
  const token = (secret: string, owner: Username, scopes: readonly string[] = ALL_SCOPES) => ({
    name: secret,
    user: owner,
    secret,
    scopes,
    revoked: options.revoked?.includes(secret) ?? false,
  });
  const imported = (uid: string, start: string) => ({
    uid,
    event_type: 'weekly',
    host: 'uma',
    start,
    attendee: { email: 'bob@example.com', name: 'Bob', timezone: 'UTC' },
  });
  return {
    organization: { name: 'MCP Co' },
    ...(options.limits ? { limits: options.limits } : {}),
    users: [
      user('ian', { calendars: [{ kind: 'ics', url: 'http://127.0.0.1:9/ian.ics' }] }),
      user('max', { manages: ['uma'] }),
      user('olga'),
      user('ulf'),
      user('uma'),
    ],
    event_types: [
      type(ET.weekly, 'uma', 'weekly', 'Weekly'),
      type(ET.single, 'uma', 'single', 'Single', { recurring: 'off' }),
      type(ET.chat, 'ulf', 'chat', 'Chat'),
      type(ET.feed, 'ian', 'feed', 'Feed'),
    ],
    tokens: [
      token(TOKEN.olga, 'olga'),
      token(TOKEN.max, 'max'),
      token(TOKEN.uma, 'uma'),
      token(TOKEN.umaSecond, 'uma'),
      token(TOKEN.umaFew, 'uma', ['bookings:read']),
      token(TOKEN.ulf, 'ulf'),
      token(TOKEN.ian, 'ian'),
    ],
    bookings: [
      imported(IMPORTED.tue, '2026-03-03T10:00:00Z'),
      imported(IMPORTED.wed, '2026-03-04T10:00:00Z'),
      imported(IMPORTED.thu, '2026-03-05T10:00:00Z'),
    ],
  };
}

/** A clock pinned at M0. */
export const pinnedClock = () => manualClock(M0);
