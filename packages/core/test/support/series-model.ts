import { expect } from 'vitest';
import type { Principal } from '../../src/auth/principal.js';
import type { ExecuteDeps } from '../../src/operations/execute.js';
import type { Store } from '../../src/storage/store.js';
import { createSeries } from './series-calls.js';
import { SERIES_ET, USER } from './series-workspace.js';

// Shared by the interleaving and model suites of the series actions: a create
// body, the series row as the checks read it, and a reset between runs.

/** A weekly series of hana's on her `weekly` type, no mail; `changes` override any field. */
export function weeklyBody(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    host_user_id: USER.hana,
    event_type_id: SERIES_ET.weekly,
    attendee: { email: 'ann@example.com', name: 'Ann Invitee' },
    frequency: 'weekly',
    weekdays: ['mon'],
    time: '10:00',
    starts_on: '2026-03-02',
    count: 4,
    notify_invitee: false,
    ...changes,
  };
}

/** Creates a series and answers its uid. */
export async function createdSeries(deps: ExecuteDeps, principal: Principal, changes: Record<string, unknown> = {}): Promise<string> {
  const { outcome } = await createSeries(deps, principal, weeklyBody(changes));
  return (outcome.data as { series: { uid: string } }).series.uid;
}

/** The series row fields the concurrency rules speak about. */
export async function seriesStateOf(store: Store, uid: string) {
  return store.db
    .selectFrom('series')
    .select(['version', 'status', 'host_user_id', 'ended_at', 'hold_token', 'time', 'location_url'])
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
}

/** Every series row, by uid. */
export async function allSeriesOf(store: Store) {
  return store.db
    .selectFrom('series')
    .select(['uid', 'version', 'status', 'host_user_id', 'ended_at', 'hold_token', 'count', 'location_url'])
    .orderBy('uid')
    .execute();
}

/** Every booking row the model checks read, by start then uid. */
export async function allBookingsOf(store: Store) {
  return store.db
    .selectFrom('bookings')
    .select([
      'uid',
      'series_uid',
      'host_user_id',
      'status',
      'start_at',
      'end_at',
      'pattern_instant',
      'moved_by_invitee',
      'canceled_by',
      'rescheduled_from_uid',
      'location_json',
      'version',
    ])
    .orderBy('start_at')
    .orderBy('uid')
    .execute();
}

/** Owed entries per series uid. */
export async function owedCountsOf(store: Store): Promise<Map<string, number>> {
  const rows = await store.db.selectFrom('series_owed').select('series_uid').execute();
  const counts = new Map<string, number>();
  for (const { series_uid } of rows) counts.set(series_uid, (counts.get(series_uid) ?? 0) + 1);
  return counts;
}

/** Forgets every series, booking, owed entry, mail, event and idempotency key; the workspace stays. */
export async function resetSeriesData(store: Store): Promise<void> {
  const { db } = store;
  await db.deleteFrom('series_owed').execute();
  await db.deleteFrom('notifications').execute();
  await db.deleteFrom('outbox').execute();
  await db.deleteFrom('idempotency_keys').execute();
  await db.deleteFrom('bookings').execute();
  await db.deleteFrom('series').execute();
}

export type SeriesSnap = Awaited<ReturnType<typeof allSeriesOf>>[number];
export type BookingSnap = Awaited<ReturnType<typeof allBookingsOf>>[number];

/** The database as the model checks see it at one moment. */
export interface Snapshot {
  readonly nowMs: number;
  readonly series: ReadonlyMap<string, SeriesSnap>;
  readonly bookings: ReadonlyMap<string, BookingSnap>;
  readonly owed: ReadonlyMap<string, number>;
}

export async function takeSnapshot(store: Store, nowMs: number): Promise<Snapshot> {
  const series = await allSeriesOf(store);
  const bookings = await allBookingsOf(store);
  return {
    nowMs,
    series: new Map(series.map((s) => [s.uid, s])),
    bookings: new Map(bookings.map((b) => [b.uid, b])),
    owed: await owedCountsOf(store),
  };
}

/** What the model knows of one series: what the rules say must hold of it whatever the database says. */
export interface ModelSeries {
  readonly uid: string;
  readonly count: number;
  readonly hasLocation: boolean;
  /** The current pattern (the suites' series are weekly, interval 1, in UTC). */
  weekdays: readonly string[];
  time: string;
  /**
   * Confirmed occurrences (past and future) plus owed entries. Pause, resume,
   * PATCH and host change never change it (docs/api/series.md "Owed, held and moved");
   * an invitee's cancel takes one away; end leaves only the past ones.
   */
  live: number;
  /** Set once an end succeeded: its time, and the occurrences still confirmed then. */
  ended: { readonly endedAt: string; readonly confirmed: ReadonlySet<string> } | null;
}

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Whether a UTC start is one the model's weekly pattern generates (weekday and wall-clock time in UTC). */
function onPattern(startAt: string, m: Pick<ModelSeries, 'weekdays' | 'time'>): boolean {
  const start = new Date(startAt);
  return m.weekdays.includes(DAY_NAMES[start.getUTCDay()]!) && startAt.slice(11, 16) === m.time;
}

const isFuture = (b: BookingSnap, nowMs: number) => Date.parse(b.start_at) > nowMs;

/** A series' bookings in a snapshot. */
export const bookingsOfSeries = (snap: Snapshot, uid: string) => [...snap.bookings.values()].filter((b) => b.series_uid === uid);

/** A series' confirmed occurrences that have not started. */
export const futureConfirmed = (snap: Snapshot, uid: string) =>
  bookingsOfSeries(snap, uid).filter((b) => b.status === 'confirmed' && isFuture(b, snap.nowMs));

/** Bookings that are new or differ between two snapshots. */
export function changedBookings(before: Snapshot, after: Snapshot): { before: BookingSnap | undefined; after: BookingSnap }[] {
  const changed: { before: BookingSnap | undefined; after: BookingSnap }[] = [];
  for (const [uid, b] of after.bookings) {
    const was = before.bookings.get(uid);
    if (JSON.stringify(was) !== JSON.stringify(b)) changed.push({ before: was, after: b });
  }
  return changed;
}

/** The rules that hold after every step, whatever the step was. */
export function checkInvariants(model: readonly ModelSeries[], snap: Snapshot): void {
  const bookings = [...snap.bookings.values()];
  const confirmed = bookings.filter((b) => b.status === 'confirmed');
  // (a) No two confirmed bookings of one host overlap.
  const clashes = confirmed.flatMap((a) =>
    confirmed.filter((b) => a.uid < b.uid && a.host_user_id === b.host_user_id && a.start_at < b.end_at && b.start_at < a.end_at),
  );
  expect(clashes).toEqual([]);
  // No hold outlives the action or mail that took it.
  expect([...snap.series.values()].filter((s) => s.hold_token !== null)).toEqual([]);
  expect([...snap.series.keys()].sort()).toEqual(model.map((m) => m.uid).sort());

  for (const m of model) {
    const row = snap.series.get(m.uid)!;
    const own = bookingsOfSeries(snap, m.uid);
    const live = own.filter((b) => b.status === 'confirmed');
    const owed = snap.owed.get(m.uid) ?? 0;
    const future = futureConfirmed(snap, m.uid);
    // (b) What the series holds plus what it owes is what the rules left it, never above count.
    expect({ uid: m.uid, live: live.length + owed }).toEqual({ uid: m.uid, live: m.live });
    expect(future.length + owed).toBeLessThanOrEqual(m.count);
    // An instant is held by one live occurrence at most, and one the invitee did not move sits at its instant.
    expect(new Set(live.map((b) => b.pattern_instant)).size).toBe(live.length);
    expect(live.filter((b) => b.moved_by_invitee === 0 && b.start_at !== b.pattern_instant)).toEqual([]);
    // A future occurrence the invitee did not move sits on the current pattern (a PATCH holds the ones that do not).
    const offPattern = future.filter((b) => b.moved_by_invitee === 0 && !onPattern(b.start_at, m));
    expect(offPattern).toEqual([]);
    // (c) Ended is terminal: status and ended_at stay, nothing is owed, no occurrence is confirmed anew or ahead.
    if (m.ended) {
      expect({ status: row.status, ended_at: row.ended_at, owed }).toEqual({ status: 'ended', ended_at: m.ended.endedAt, owed: 0 });
      expect(live.filter((b) => !m.ended!.confirmed.has(b.uid))).toEqual([]);
      expect(future).toEqual([]);
    } else {
      expect(row.status).not.toBe('ended');
    }
  }
}
