import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import { runPrepared } from '../storage/prepared-query.js';
import type { Executor } from '../storage/store.js';
import type { Pattern, PatternWeekday } from './pattern.js';
import type { Series } from './series-view.js';

/** Series joined with what their view shows of the host and event type. */
export function selectSeries(db: Executor) {
  return (
    db
      .selectFrom('series')
      .innerJoin('users as host', 'host.id', 'series.host_user_id')
      .innerJoin('event_types', 'event_types.id', 'series.event_type_id')
      .selectAll('series')
      .select(['host.username as host_username', 'host.email as host_email', 'event_types.name as event_type_name'])
      // An archived type's slug column holds `~<id>`; the slug it had is shown (event-type-rows.ts).
      .select((eb) => eb.fn.coalesce('event_types.archived_slug', 'event_types.slug').as('event_type_slug'))
  );
}

export type SeriesRow = Awaited<ReturnType<ReturnType<typeof selectSeries>['executeTakeFirstOrThrow']>>;

/** The attendee a series books for, as stored. */
export interface SeriesAttendee {
  readonly name: string;
  readonly email: string;
  readonly phone: string | null;
}

/** The docs/api Series of a row. */
export function toSeries(row: SeriesRow): Series {
  return {
    uid: row.uid,
    version: row.version,
    event_type: { id: row.event_type_id, slug: row.event_type_slug, name: row.event_type_name },
    host: { user_id: row.host_user_id, username: row.host_username, email: row.host_email },
    attendee: JSON.parse(row.attendee_json) as SeriesAttendee,
    frequency: row.frequency,
    interval_weeks: row.interval_weeks,
    weekdays: JSON.parse(row.weekdays_json) as Series['weekdays'],
    time: row.time,
    timezone: row.timezone,
    starts_on: row.starts_on,
    count: row.count,
    status: row.status,
    location_url: row.location_url,
    notify_invitee: row.notify_invitee === 1,
    source: row.source,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ended_at: row.ended_at,
  };
}

/** The pattern a series row generates its instants from. */
export function patternOf(
  row: Pick<SeriesRow, 'frequency' | 'interval_weeks' | 'weekdays_json' | 'time' | 'timezone' | 'starts_on'>,
): Pattern {
  return {
    frequency: row.frequency,
    intervalWeeks: row.interval_weeks,
    weekdays: JSON.parse(row.weekdays_json) as PatternWeekday[],
    time: row.time,
    timezone: row.timezone,
    startsOn: row.starts_on,
  };
}

const seriesByUid = (db: Executor, uid: string) => selectSeries(db).where('series.uid', '=', uid);

/**
 * The series with this uid, if the caller can see it. Malformed, unknown and
 * invisible uids all answer `404 series_not_found`, so existence never leaks.
 */
export async function findVisibleSeries(db: Executor, principal: Principal, uid: string): Promise<SeriesRow> {
  const notFound = () => new ScheduleError('series_not_found', 'No series with this uid.', { uid });
  // Stryker disable next-line ConditionalExpression: equivalent: series uids are generated UUIDs in a text column on both stores, so a uid that is none matches no row and the 404 below follows; raw-call-bounds.ts refuses a param no store can hold (a NUL byte) before here.
  if (!isUuid(uid)) throw notFound();
  const [row] = await runPrepared(db, seriesByUid, [uid.toLowerCase()]);
  if (!row || !mayActFor(principal.actsFor, row.host_user_id)) throw notFound();
  return row;
}

/** The series as it is now, whoever asks; for the steps of an action already allowed. */
export async function loadSeries(db: Executor, uid: string): Promise<SeriesRow> {
  const [row] = await runPrepared(db, seriesByUid, [uid]);
  if (!row) throw new ScheduleError('series_not_found', 'No series with this uid.', { uid });
  return row;
}
