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
