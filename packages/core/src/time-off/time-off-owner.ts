import { pathUser } from '../auth/find-user.js';
import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';

/** The user whose time off a call manages, with the zone whole days are read in. */
export interface TimeOffOwner {
  readonly id: string;
  /** The zone of their working hours (their schedule's, else their own): where a `start_date` begins. */
  readonly zone: string;
}

/** The `403 host_not_allowed` of a path's user, unknown or outside the caller's set alike. */
export function ownerNotAllowed(): ScheduleError {
  return new ScheduleError('host_not_allowed', 'user_id is not someone this caller may act for.', { fields: ['user_id'] });
}

/**
 * The user a time-off path names: `me` (the caller), a user id or a
 * username. One the caller may not act for (docs/api/overview.md "Roles")
 * answers like an unknown one, `403 host_not_allowed`, as a series host or
 * a calendar's `user` does, so nothing tells who exists.
 */
export async function timeOffOwner(db: Executor, principal: Principal, userId: string): Promise<TimeOffOwner> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'timezone', 'schedule_json'])
    .where(pathUser(principal, userId))
    .executeTakeFirst();
  if (!row || !mayActFor(principal.actsFor, row.id)) throw ownerNotAllowed();
  const scheduleZone = row.schedule_json === null ? undefined : (JSON.parse(row.schedule_json) as { timezone?: string }).timezone;
  return { id: row.id, zone: scheduleZone ?? row.timezone };
}
