import { expect } from 'vitest';
import type { Clock } from '../../src/clock.js';
import type { Series, SkipCause } from '../../src/series/series-view.js';
import type { Store } from '../../src/storage/store.js';
import { HOST_OF, loadSeriesWorkspace, NAME_OF, S0, SERIES_ET, type Username } from './series-workspace.js';

// What the create and read suites expect of a series, stated apart from the
// code under test, and the small store reads they check it against.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a Series shows of each event type of the series workspace. */
export const EVENT_TYPE_VIEW = {
  weekly: { id: SERIES_ET.weekly, slug: 'weekly', name: 'Weekly' },
  buffered: { id: SERIES_ET.buffered, slug: 'buffered', name: 'Buffered' },
  short: { id: SERIES_ET.short, slug: 'short', name: 'Short' },
  ivanWeekly: { id: SERIES_ET.ivanWeekly, slug: 'weekly', name: 'Weekly' },
  rickWeekly: { id: SERIES_ET.rickWeekly, slug: 'weekly', name: 'Weekly' },
} as const;

/** The attendee every suite books for, and what a Series shows of them. */
export const ATTENDEE = { email: 'bob@example.com', first_name: 'Bob', last_name: 'Stone', phone: '+1 555 0100' };
export const ATTENDEE_VIEW = { name: 'Bob Stone', email: 'bob@example.com', phone: '+1 555 0100' };

/**
 * The create body the suites start from: hana's weekly type on Mondays and
 * Wednesdays at 10:00 from Monday 2026-03-02, four times; no timezone (so
 * hana's own, UTC).
 */
export function seriesBody(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    host_user_id: HOST_OF.hana.user_id,
    event_type_id: SERIES_ET.weekly,
    attendee: ATTENDEE,
    frequency: 'weekly',
    weekdays: ['mon', 'wed'],
    time: '10:00',
    starts_on: '2026-03-02',
    count: 4,
    ...changes,
  };
}

/** The Series a create of `seriesBody()` answers with, `changes` applied. */
export function seriesView(uid: string, changes: Partial<Series> = {}): Series {
  return {
    uid,
    version: 1,
    event_type: EVENT_TYPE_VIEW.weekly,
    host: HOST_OF.hana,
    attendee: ATTENDEE_VIEW,
    frequency: 'weekly',
    interval_weeks: 1,
    weekdays: ['mon', 'wed'],
    time: '10:00',
    timezone: 'UTC',
    starts_on: '2026-03-02',
    count: 4,
    status: 'active',
    location_url: null,
    notify_invitee: true,
    source: 'api',
    created_at: S0,
    updated_at: S0,
    ended_at: null,
    ...changes,
  };
}

/** An entry of `occurrences` of a create answer: `uid` any UUID, times from the start and length. */
export function occurrenceAt(start: string, minutes = 30) {
  const startMs = Date.parse(start);
  return {
    uid: expect.stringMatching(UUID) as unknown as string,
    start_at: new Date(startMs).toISOString(),
    end_at: new Date(startMs + minutes * 60_000).toISOString(),
    status: 'confirmed',
  };
}

/** An entry of `skipped`: the civil date in the series zone and the instant. */
export function skippedAt(date: string, start: string, cause: SkipCause) {
  return { date, start_at: new Date(Date.parse(start)).toISOString(), reason: 'conflict', cause };
}

/** The Booking an occurrence of hana's weekly type shows on GET, for the `seriesBody()` attendee. */
export function occurrenceBookingView(
  occurrence: { uid: string; start_at: string; end_at: string },
  changes: { host?: Username; timezone?: string; location?: Record<string, unknown>; [field: string]: unknown } = {},
) {
  const { host = 'hana', timezone = 'UTC', ...rest } = changes;
  return {
    uid: occurrence.uid,
    version: 1,
    event_type_id: SERIES_ET.weekly,
    event_type_slug: 'weekly',
    title: `Weekly between ${NAME_OF[host]} and Bob Stone`,
    status: 'confirmed',
    start_at: occurrence.start_at,
    end_at: occurrence.end_at,
    timezone,
    host: HOST_OF[host],
    hosts: [HOST_OF[host]],
    attendees: [{ email: 'bob@example.com', name: 'Bob Stone', timezone }],
    guests: [],
    location: { type: 'conference', url: `https://meet.test/${occurrence.uid}`, value: null },
    metadata: {},
    responses: {},
    calendar_sync_status: 'not_applicable',
    calendar_event_id: '',
    rescheduled_from_uid: null,
    cancelled_at: null,
    cancellation_reason: null,
    no_show_at: null,
    no_show_reason: null,
    created_at: S0,
    updated_at: S0,
    ...rest,
  };
}

/** A workspace `bookings[]` entry on hana's weekly type, hosted by `host`. */
export function importedBooking(uid: string, host: Username, start: string, status: 'confirmed' | 'canceled' = 'confirmed') {
  return {
    uid,
    event_type: SERIES_ET.weekly,
    host,
    start,
    attendee: { email: 'carol@example.com', name: 'Carol', timezone: 'UTC' },
    status,
  };
}

/**
 * Puts a store back to the freshly loaded series workspace: forgets every
 * series, booking, event, mail and idempotency key, then loads the workspace
 * again with the given imported bookings.
 */
export async function resetSeriesWorkspace(deps: { store: Store; clock: Clock }, bookings: object[] = []): Promise<void> {
  const { db } = deps.store;
  await db.deleteFrom('notifications').execute();
  await db.deleteFrom('series_owed').execute();
  await db.deleteFrom('outbox').execute();
  await db.deleteFrom('idempotency_keys').execute();
  await db.deleteFrom('bookings').execute();
  await db.deleteFrom('series').execute();
  await loadSeriesWorkspace(deps, { bookings });
}

/** How many rows a series write leaves behind, by kind; all zero after a refused create. */
export async function writesOf(store: Store) {
  const { db } = store;
  const count = async (rows: Promise<{ n: number | string | bigint }[]>) => Number((await rows)[0]?.n ?? 0);
  return {
    series: await count(
      db
        .selectFrom('series')
        .select((eb) => eb.fn.countAll().as('n'))
        .execute(),
    ),
    occurrences: await count(
      db
        .selectFrom('bookings')
        .where('series_uid', 'is not', null)
        .select((eb) => eb.fn.countAll().as('n'))
        .execute(),
    ),
    notifications: await count(
      db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .execute(),
    ),
    outbox: await count(
      db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .execute(),
    ),
    idempotencyKeys: await count(
      db
        .selectFrom('idempotency_keys')
        .select((eb) => eb.fn.countAll().as('n'))
        .execute(),
    ),
  };
}

export const NOTHING_WRITTEN = { series: 0, occurrences: 0, notifications: 0, outbox: 0, idempotencyKeys: 0 };
