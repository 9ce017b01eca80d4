import type { Principal } from '../../src/auth/principal.js';
import { type ExecuteDeps, type Executed, execute } from '../../src/operations/execute.js';
import {
  changeSeriesHostOperation,
  createSeriesOperation,
  endSeriesOperation,
  getSeriesOperation,
  listSeriesOperation,
  pauseSeriesOperation,
  resumeSeriesOperation,
  updateSeriesOperation,
} from '../../src/operations/series-operations.js';
import type { SeriesSource } from '../../src/series/series-view.js';
import type { Store } from '../../src/storage/store.js';

// The series endpoints, called the way every front end calls them: through
// `execute` with a raw call. Keys default to fresh ones, so a test that means
// a replay passes its key twice.

let counter = 0;
const freshKey = (name: string) => `${name}-${++counter}`;

export interface CallOptions {
  readonly key?: string | undefined;
  readonly ifMatch?: string | undefined;
  /** The front end the call comes through; `api` when not said. */
  readonly source?: SeriesSource | undefined;
}

export const listSeries = (deps: ExecuteDeps, principal: Principal, query: Record<string, unknown> = {}): Promise<Executed> =>
  execute(deps, listSeriesOperation, principal, { params: {}, query, body: undefined }, 'req-list-series');

export const getSeries = (deps: ExecuteDeps, principal: Principal, uid: string): Promise<Executed> =>
  execute(deps, getSeriesOperation, principal, { params: { uid }, query: {}, body: undefined }, 'req-get-series');

export const createSeries = (deps: ExecuteDeps, principal: Principal, body: unknown, options: CallOptions = {}): Promise<Executed> => {
  const key = options.key ?? freshKey('create');
  return execute(
    deps,
    createSeriesOperation,
    principal,
    { params: {}, query: {}, body, idempotencyKey: key, source: options.source },
    `req-${key}`,
  );
};

/** Pause sends no key unless given one (it is optional there). */
export const pauseSeries = (deps: ExecuteDeps, principal: Principal, uid: string, options: CallOptions = {}): Promise<Executed> =>
  execute(deps, pauseSeriesOperation, principal, { params: { uid }, query: {}, body: undefined, idempotencyKey: options.key }, 'req-pause');

export const resumeSeries = (deps: ExecuteDeps, principal: Principal, uid: string, options: CallOptions = {}): Promise<Executed> => {
  const key = options.key ?? freshKey('resume');
  return execute(
    deps,
    resumeSeriesOperation,
    principal,
    { params: { uid }, query: {}, body: undefined, idempotencyKey: key, ifMatch: options.ifMatch },
    `req-${key}`,
  );
};

export const endSeries = (deps: ExecuteDeps, principal: Principal, uid: string, options: CallOptions = {}): Promise<Executed> => {
  const key = options.key ?? freshKey('end');
  return execute(deps, endSeriesOperation, principal, { params: { uid }, query: {}, body: undefined, idempotencyKey: key }, `req-${key}`);
};

/** Host change sends no key unless given one (it is optional there). */
export const changeSeriesHost = (
  deps: ExecuteDeps,
  principal: Principal,
  uid: string,
  body: unknown,
  options: CallOptions = {},
): Promise<Executed> =>
  execute(deps, changeSeriesHostOperation, principal, { params: { uid }, query: {}, body, idempotencyKey: options.key }, 'req-host');

/** PATCH needs If-Match; pass `ifMatch: undefined` explicitly in options to test its absence. */
export const updateSeries = (
  deps: ExecuteDeps,
  principal: Principal,
  uid: string,
  body: unknown,
  options: CallOptions = {},
): Promise<Executed> =>
  execute(
    deps,
    updateSeriesOperation,
    principal,
    { params: { uid }, query: {}, body, idempotencyKey: options.key, ifMatch: options.ifMatch },
    'req-patch',
  );

/** A series' occurrences (all its bookings), by start then uid, as stored. */
export function occurrenceRowsOf(store: Store, seriesUid: string) {
  return store.db
    .selectFrom('bookings')
    .select([
      'uid',
      'host_user_id',
      'status',
      'start_at',
      'end_at',
      'pattern_instant',
      'moved_by_invitee',
      'rescheduled_from_uid',
      'canceled_by',
      'version',
    ])
    .where('series_uid', '=', seriesUid)
    .orderBy('start_at')
    .orderBy('uid')
    .execute();
}

/** A series' owed entries in owed order. */
export function owedRowsOf(store: Store, seriesUid: string) {
  return store.db
    .selectFrom('series_owed')
    .select(['pattern_instant', 'held_booking_uid'])
    .where('series_uid', '=', seriesUid)
    .orderBy('pattern_instant')
    .orderBy('id')
    .execute();
}

/** Queued mail, oldest first, payloads parsed. */
export async function notificationsOf(store: Store) {
  const rows = await store.db.selectFrom('notifications').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload_json) as Record<string, unknown> }));
}
