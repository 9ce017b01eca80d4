import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { TIMESTAMP } from './booking-view.js';
import { type ApiResponse, api } from './http.js';
import type { TestSchema } from './postgres.js';
import { ALL_SCOPES } from './workspace.js';

/**
 * The workspace of the black-box series suites, with dates relative to the
 * real clock (the server reads the system clock). Hosts hal and gil live in
 * Asia/Tokyo (UTC+9 all year: no DST, so every instant below is exact) and
 * work Monday to Friday 09:00-17:00 there; ora is the owner and acts for
 * both. The event type reaches 400 days ahead with no notice, so a long
 * series fits. One imported booking of hal blocks Thursday of week 0 at
 * 10:00, so a series at 10:00 on Mondays and Thursdays skips that date.
 */

export const SERIES_USERS = {
  hal: 'a5000000-0000-4000-8000-000000000001',
  gil: 'a5000000-0000-4000-8000-000000000002',
  ora: 'a5000000-0000-4000-8000-000000000003',
} as const;

export type SeriesUser = keyof typeof SERIES_USERS;

const NAMES: Record<SeriesUser, string> = { hal: 'Hal Host', gil: 'Gil Second', ora: 'Ora Owner' };

/** The Series `host` object of each user. */
export const HOST_VIEW = Object.fromEntries(
  (Object.keys(SERIES_USERS) as SeriesUser[]).map((u) => [u, { user_id: SERIES_USERS[u], username: u, email: `${u}@series.test` }]),
) as Record<SeriesUser, { user_id: string; username: string; email: string }>;

export const SYNC = { id: 'a5e00000-0000-4000-8000-000000000001', slug: 'sync', name: 'Weekly sync', duration: 30 } as const;

export const SERIES_SECRETS = {
  /** The owner, every scope. */
  ora: 'series-secret-ora-all-scopes',
  /** hal, every scope; may act only for himself. */
  hal: 'series-secret-hal-all-scopes',
  /** The owner with series:read only. */
  oraRead: 'series-secret-ora-read-only',
} as const;

/** The imported booking that blocks Thursday of week 0, 10:00-10:30 Tokyo. */
export const BLOCKER_UID = 'a5b00000-0000-4000-8000-000000000001';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const TOKYO_OFFSET_MS = 9 * HOUR_MS;

// Day 0 of the epoch was a Thursday: day index d is a Monday when (d + 3) % 7 === 0.
const START_DAY = (() => {
  let day = Math.floor(Date.now() / DAY_MS) + 2;
  while ((day + 3) % 7 !== 0) day++;
  return day;
})();

/**
 * `starts_on` of the series: the first Monday at least two whole days after
 * today (UTC), so that every instant of week 0 is in the future in any zone.
 */
export const STARTS_ON = new Date(START_DAY * DAY_MS).toISOString().slice(0, 10);

/** The civil date `days` after STARTS_ON. */
export function dateAt(days: number): string {
  return new Date((START_DAY + days) * DAY_MS).toISOString().slice(0, 10);
}

/** The docs/api timestamp of wall-clock `time` (`HH:MM`) in Tokyo, `days` after STARTS_ON. */
export function tokyoAt(days: number, time: string): string {
  const [h, m] = time.split(':').map(Number);
  return new Date((START_DAY + days) * DAY_MS + h! * HOUR_MS + m! * 60_000 - TOKYO_OFFSET_MS).toISOString();
}

/** `tokyoAt` plus the 30 minutes of the event type. */
export function tokyoEnd(days: number, time: string): string {
  return new Date(Date.parse(tokyoAt(days, time)) + SYNC.duration * 60_000).toISOString();
}

/** Days after STARTS_ON of the Mondays and Thursdays of weeks 0, 1, 2, ... */
export const MON_THU_DAYS = [0, 3, 7, 10, 14, 17, 21, 24, 28, 31] as const;

/** A skipped entry of docs/api/choices.md for the pattern instant `days` after STARTS_ON; this workspace's skips are its blockers, so `busy`. */
export function skippedAt(days: number, time: string, cause = 'busy') {
  return { date: dateAt(days), start_at: tokyoAt(days, time), reason: 'conflict', cause };
}

export function seriesWorkspace(): Record<string, unknown> {
  const workdays = {
    timezone: 'Asia/Tokyo',
    weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
  };
  const user = (key: SeriesUser, role: string) => ({
    id: SERIES_USERS[key],
    username: key,
    email: `${key}@series.test`,
    name: NAMES[key],
    timezone: 'Asia/Tokyo',
    role,
    schedule: workdays,
  });
  return {
    organization: { name: 'Series Blackbox' },
    // Far more requests than the default 120 a minute are sent with one token.
    limits: { pat_per_minute: 10_000 },
    users: [user('hal', 'user'), user('gil', 'user'), user('ora', 'owner')],
    event_types: [
      {
        id: SYNC.id,
        owner: 'hal',
        slug: SYNC.slug,
        name: SYNC.name,
        duration_minutes: SYNC.duration,
        minimum_notice_minutes: 0,
        future_limit_days: 400,
        recurring: 'on',
      },
    ],
    tokens: [
      { name: 'ora', user: 'ora', secret: SERIES_SECRETS.ora, scopes: [...ALL_SCOPES] },
      { name: 'hal', user: 'hal', secret: SERIES_SECRETS.hal, scopes: [...ALL_SCOPES] },
      { name: 'ora-read', user: 'ora', secret: SERIES_SECRETS.oraRead, scopes: ['series:read'] },
    ],
    bookings: [
      {
        uid: BLOCKER_UID,
        event_type: SYNC.slug,
        host: 'hal',
        start: tokyoAt(3, '10:00'),
        attendee: { email: 'blocker@example.com', name: 'Blocker', timezone: 'Asia/Tokyo' },
      },
    ],
  };
}

/** A create body for hal: weekly on Monday and Thursday at 10:00 Tokyo (the host's zone), six times. */
export function seriesBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    host_user_id: SERIES_USERS.hal,
    event_type_id: SYNC.id,
    attendee: { email: 'pat@example.com', first_name: 'Pat', last_name: 'Lee' },
    frequency: 'weekly',
    weekdays: ['mon', 'thu'],
    time: '10:00',
    starts_on: STARTS_ON,
    count: 6,
    ...overrides,
  };
}

/** The Series docs/api shows for a `seriesBody()` create, with the given fields changed. */
export function expectedSeries(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uid: expect.any(String),
    version: 1,
    event_type: { id: SYNC.id, slug: SYNC.slug, name: SYNC.name },
    host: HOST_VIEW.hal,
    attendee: { name: 'Pat Lee', email: 'pat@example.com', phone: null },
    frequency: 'weekly',
    interval_weeks: 1,
    weekdays: ['mon', 'thu'],
    time: '10:00',
    timezone: 'Asia/Tokyo',
    starts_on: STARTS_ON,
    count: 6,
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

export interface SeriesCallOptions {
  /** The Idempotency-Key; a fresh UUID by default, `null` sends none. */
  key?: string | null;
  /** The If-Match header, when given. */
  ifMatch?: string;
  /** The JSON body, or a raw string sent as is. */
  body?: unknown;
}

function headersOf(options: SeriesCallOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.key !== null) headers['idempotency-key'] = options.key ?? randomUUID();
  if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
  return headers;
}

function bodyOf(body: unknown): { json?: unknown; raw?: string } {
  if (body === undefined) return {};
  return typeof body === 'string' ? { raw: body } : { json: body };
}

/** POST /v1/series. */
export function postSeries(baseUrl: string, token: string, body: unknown, options: SeriesCallOptions = {}): Promise<ApiResponse> {
  return api(baseUrl, '/v1/series', { method: 'POST', token, headers: headersOf(options), ...bodyOf(body) });
}

/** POST /v1/series/:uid/<action>. */
export function seriesAction(
  baseUrl: string,
  token: string,
  uid: string,
  action: 'pause' | 'resume' | 'end' | 'host',
  options: SeriesCallOptions = {},
): Promise<ApiResponse> {
  return api(baseUrl, `/v1/series/${uid}/${action}`, { method: 'POST', token, headers: headersOf(options), ...bodyOf(options.body) });
}

/** PATCH /v1/series/:uid; no Idempotency-Key unless one is given. */
export function patchSeries(baseUrl: string, token: string, uid: string, options: SeriesCallOptions = {}): Promise<ApiResponse> {
  return api(baseUrl, `/v1/series/${uid}`, {
    method: 'PATCH',
    token,
    headers: headersOf({ key: null, ...options }),
    ...bodyOf(options.body),
  });
}

/** GET /v1/series/:uid. */
export function getSeries(baseUrl: string, token: string, uid: string): Promise<ApiResponse> {
  return api(baseUrl, `/v1/series/${uid}`, { token });
}

// The tables behind the API, for what no answer proves on its own: one
// series row per create, no owed entry left, no duplicate occurrence.

/** Rows of the database the servers share. */
export interface SeriesTables {
  rows<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** The tables of a PostgreSQL test schema. */
export function postgresTables(schema: TestSchema): SeriesTables {
  return { rows: <T>(sql: string, params: readonly unknown[] = []) => schema.query(sql, [...params]) as Promise<T[]> };
}

/** The tables of a SQLite file that servers have open (read-only; WAL lets it read beside them). */
export function sqliteTables(path: string): SeriesTables {
  return {
    rows: <T>(sql: string, params: readonly unknown[] = []) => {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      try {
        return Promise.resolve(db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as T[]);
      } finally {
        db.close();
      }
    },
  };
}

export interface StoredOccurrence {
  uid: string;
  status: string;
  start_at: string;
  host_user_id: string;
}

/** The bookings of one series, in start order. */
export function occurrencesOf(tables: SeriesTables, seriesUid: string): Promise<StoredOccurrence[]> {
  return tables.rows<StoredOccurrence>(
    'select uid, status, start_at, host_user_id from bookings where series_uid = $1 order by start_at, uid',
    [seriesUid],
  );
}

/** The owed entries of one series. */
export function owedOf(tables: SeriesTables, seriesUid: string): Promise<{ id: string }[]> {
  return tables.rows('select id from series_owed where series_uid = $1', [seriesUid]);
}
