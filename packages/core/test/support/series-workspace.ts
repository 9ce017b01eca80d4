import type { Clock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { Store } from '../../src/storage/store.js';
import { type LoadReport, loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';

// The organization of the series suites. Its clock starts at S0, a Monday
// morning in UTC. Hosts work Monday to Friday 09:00-17:00 UTC unless noted,
// and the series event types reach a year ahead, so a count-42 weekly series
// fits inside the horizon.

/** Monday 2026-03-02, 08:00 UTC. */
export const S0 = '2026-03-02T08:00:00.000Z';

/** Users by username. Roles: hana, ivan, sam, rick, pia are users; mona manages hana and ivan; ada is admin; owen is owner. */
export const USER = {
  hana: '70000000-0000-4000-8000-00000000000a',
  ivan: '70000000-0000-4000-8000-00000000000b',
  mona: '70000000-0000-4000-8000-00000000000c',
  ada: '70000000-0000-4000-8000-00000000000d',
  owen: '70000000-0000-4000-8000-00000000000e',
  /** Works around the clock (no schedule), zone Asia/Kolkata. */
  sam: '70000000-0000-4000-8000-00000000000f',
  /** Only an ics feed as calendar: no calendar accepts writes. */
  rick: '70000000-0000-4000-8000-000000000010',
  /** A static calendar busy on Wednesday 2026-03-11 09:00-12:00 UTC. */
  pia: '70000000-0000-4000-8000-000000000011',
} as const;

export type Username = keyof typeof USER;

/** Event types of hana unless noted. */
export const SERIES_ET = {
  /** 30 minutes, grid 30, no notice, 400-day horizon, recurring on. */
  weekly: '80000000-0000-4000-8000-000000000001',
  /** recurring "off". */
  single: '80000000-0000-4000-8000-000000000002',
  /** status "off". */
  inactive: '80000000-0000-4000-8000-000000000003',
  /** 30 minutes with 15-minute buffers both sides. */
  buffered: '80000000-0000-4000-8000-000000000004',
  /** 60 minutes, 120-minute notice, 14-day horizon. */
  short: '80000000-0000-4000-8000-000000000005',
  /** ivan's 30-minute type. */
  ivanWeekly: '80000000-0000-4000-8000-000000000006',
  /** rick's 30-minute type. */
  rickWeekly: '80000000-0000-4000-8000-000000000007',
} as const;

/** Bearer secrets. Every token has all scopes unless its name says otherwise. */
export const SERIES_TOKEN = {
  hana: 'pat_series_hana_all',
  ivan: 'pat_series_ivan_all',
  mona: 'pat_series_mona_all',
  ada: 'pat_series_ada_all',
  owen: 'pat_series_owen_all',
  sam: 'pat_series_sam_all',
  /** hana with series:read only. */
  hanaRead: 'pat_series_hana_read',
  /** hana with bookings scopes only. */
  hanaBookings: 'pat_series_hana_bookings',
} as const;

export const ALL_SCOPES = [
  'series:read',
  'series:write',
  'bookings:read',
  'bookings:create',
  'bookings:cancel',
  'bookings:reschedule',
  'bookings:update',
  'slots:read',
];

const WORKDAYS = {
  timezone: 'UTC',
  weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
};

/** What a Series or Booking shows of each host. */
export const HOST_OF = Object.fromEntries(
  (Object.keys(USER) as Username[]).map((name) => [name, { user_id: USER[name], username: name, email: `${name}@acme.test` }]),
) as Record<Username, { user_id: string; username: string; email: string }>;

/** The display name of each user, as booking titles use it. */
export const NAME_OF: Record<Username, string> = {
  hana: 'Hana Host',
  ivan: 'Ivan Host',
  mona: 'Mona Manager',
  ada: 'Ada Admin',
  owen: 'Owen Owner',
  sam: 'Sam Night',
  rick: 'Rick Readonly',
  pia: 'Pia Busy',
};

/**
 * A day-long type of sam's (who works around the clock), loaded only by the
 * suites that pass it in `eventTypes`: two occurrences a short DST day apart overlap.
 */
export const DAY_LONG_TYPE = {
  id: '80000000-0000-4000-8000-0000000000d1',
  owner: 'sam',
  slug: 'day',
  name: 'Day',
  duration_minutes: 1440,
  future_limit_days: 400,
  reminders: [],
} as const;

/** What a suite adds to the series workspace: imported bookings, event types of its own. */
export interface WorkspaceExtra {
  readonly bookings?: object[];
  readonly eventTypes?: object[];
}

export function seriesWorkspace(extra: WorkspaceExtra = {}): Record<string, unknown> {
  const user = (name: Username, role: string, more: Record<string, unknown> = {}) => ({
    id: USER[name],
    username: name,
    email: `${name}@acme.test`,
    name: NAME_OF[name],
    timezone: 'UTC',
    role,
    schedule: WORKDAYS,
    ...more,
  });
  const type = (id: string, owner: Username, slug: string, more: Record<string, unknown> = {}) => ({
    id,
    owner,
    slug,
    name: slug === 'weekly' ? 'Weekly' : slug[0]!.toUpperCase() + slug.slice(1),
    duration_minutes: 30,
    slot_interval_minutes: 30,
    minimum_notice_minutes: 0,
    future_limit_days: 400,
    // No reminders: these suites count the series' mail (reminders.test.ts has a series of its own).
    reminders: [],
    ...more,
  });
  const token = (secret: string, user: Username, scopes = ALL_SCOPES) => ({ name: secret, user, secret, scopes });
  return {
    organization: { name: 'Series Co' },
    users: [
      user('hana', 'user'),
      user('ivan', 'user'),
      user('mona', 'manager', { manages: ['hana', 'ivan'] }),
      user('ada', 'admin'),
      user('owen', 'owner'),
      user('sam', 'user', { timezone: 'Asia/Kolkata', schedule: undefined }),
      user('rick', 'user', { calendars: [{ kind: 'ics', url: 'http://127.0.0.1:9/rick.ics' }] }),
      user('pia', 'user', {
        calendars: [{ kind: 'static', busy: [{ start: '2026-03-11T09:00:00Z', end: '2026-03-11T12:00:00Z' }] }],
      }),
    ],
    event_types: [
      type(SERIES_ET.weekly, 'hana', 'weekly'),
      type(SERIES_ET.single, 'hana', 'single', { recurring: 'off' }),
      type(SERIES_ET.inactive, 'hana', 'inactive', { status: 'off' }),
      type(SERIES_ET.buffered, 'hana', 'buffered', { buffer_before_minutes: 15, buffer_after_minutes: 15 }),
      type(SERIES_ET.short, 'hana', 'short', { duration_minutes: 60, minimum_notice_minutes: 120, future_limit_days: 14 }),
      type(SERIES_ET.ivanWeekly, 'ivan', 'weekly'),
      type(SERIES_ET.rickWeekly, 'rick', 'weekly'),
      ...(extra.eventTypes ?? []),
    ],
    tokens: [
      token(SERIES_TOKEN.hana, 'hana'),
      token(SERIES_TOKEN.ivan, 'ivan'),
      token(SERIES_TOKEN.mona, 'mona'),
      token(SERIES_TOKEN.ada, 'ada'),
      token(SERIES_TOKEN.owen, 'owen'),
      token(SERIES_TOKEN.sam, 'sam'),
      token(SERIES_TOKEN.hanaRead, 'hana', ['series:read']),
      token(
        SERIES_TOKEN.hanaBookings,
        'hana',
        ALL_SCOPES.filter((s) => !s.startsWith('series:')),
      ),
    ],
    bookings: extra.bookings ?? [],
  };
}

/** Loads the series workspace (with any imported bookings) into a store. */
export async function loadSeriesWorkspace(deps: { store: Store; clock: Clock }, extra: WorkspaceExtra = {}): Promise<LoadReport> {
  return loadWorkspace({ store: deps.store, clock: deps.clock, ids: randomIds }, parseWorkspace(JSON.stringify(seriesWorkspace(extra))));
}
