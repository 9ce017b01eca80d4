import { pathUser } from '../auth/find-user.js';
import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import type { Schedule } from '../event-types/schedule.js';
import type { IdGenerator } from '../ids.js';
import { recordEvent } from '../outbox/record-event.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { type StoredHours, scheduleInUse, toWorkingHours, type WorkingHours } from './working-hours-view.js';

// docs/api/availability.md: a person's working hours live on their users row
// (`schedule_json`), versioned by `schedule_version` alone. Availability
// reads that row on every request, so a committed write is what the next
// slot query of any process sees.

export interface WorkingHoursDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

const HOURS_COLUMNS = ['id', 'schedule_json', 'schedule_version', 'schedule_updated_at'] as const;

/** `403 host_not_allowed` naming `user_id`: unknown people and people the caller may not act for answer alike. */
function personNotAllowed(): ScheduleError {
  return new ScheduleError('host_not_allowed', 'user_id is not someone this caller may act for.', { fields: ['user_id'] });
}

/** `409 version_conflict` of working hours at `current`. */
export function hoursVersionConflict(current: number): ScheduleError {
  return new ScheduleError('version_conflict', `The working hours are at version ${current}.`, { current_version: current });
}

/**
 * The hours of the person a path names (`me`, a user id or a username), if
 * the caller may act for them (docs/api/overview.md "Roles"); nothing tells
 * who exists beyond that.
 */
export async function findPersonHours(db: Executor, principal: Principal, userRef: string): Promise<StoredHours> {
  const row = await db.selectFrom('users').select(HOURS_COLUMNS).where(pathUser(principal, userRef)).executeTakeFirst();
  if (!row || !mayActFor(principal.actsFor, row.id)) throw personNotAllowed();
  return row;
}

async function readHours(db: Executor, userId: string): Promise<StoredHours> {
  return db.selectFrom('users').select(HOURS_COLUMNS).where('id', '=', userId).executeTakeFirstOrThrow();
}

/**
 * Writes `next` over `current` if no one has written since (the version is
 * compared again in the UPDATE), bumping the version; `announce` records
 * `availability.updated` in the same transaction. Undefined: another writer won.
 */
async function saveHours(
  trx: Executor,
  deps: WorkingHoursDeps,
  current: StoredHours,
  next: Schedule | null,
  announce: boolean,
): Promise<WorkingHours | undefined> {
  const saved = await trx
    .updateTable('users')
    .set({
      schedule_json: next === null ? null : JSON.stringify(next),
      schedule_version: current.schedule_version + 1,
      schedule_updated_at: toTimestamp(deps.clock.now()),
    })
    .where('id', '=', current.id)
    .where('schedule_version', '=', current.schedule_version)
    .returning(HOURS_COLUMNS)
    .executeTakeFirst();
  if (!saved) return undefined;
  const document = toWorkingHours(saved);
  if (announce) await recordEvent(trx, deps, 'availability.updated', saved.id, document);
  return document;
}

/** Attempts before a change without a version to match gives up on hours that keep changing. */
const ATTEMPTS = 5;

/**
 * Applies `change` to the hours in use (the stored ones, else around the
 * clock) of the person `userRef` names, and stores the result as the new
 * version. With a version in `ifMatch`, hours written since are a `409`;
 * without one, a lost race reads again and reapplies the change.
 */
export async function changeWorkingHours(
  trx: Executor,
  deps: WorkingHoursDeps,
  principal: Principal,
  userRef: string,
  ifMatch: IfMatch | undefined,
  change: (current: Schedule) => Schedule,
): Promise<WorkingHours> {
  let current = await findPersonHours(trx, principal, userRef);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (ifMatch !== undefined && !matchesVersion(ifMatch, current.schedule_version)) {
      throw hoursVersionConflict(current.schedule_version);
    }
    const saved = await saveHours(trx, deps, current, change(scheduleInUse(current)), true);
    if (saved) return saved;
    current = await readHours(trx, current.id);
  }
  throw new ScheduleError('slot_lock_timeout', 'The working hours kept changing meanwhile; nothing was written. Retry shortly.', {}, 1);
}

/**
 * A workspace load's write of a user's hours (docs/workspace.md): through the
 * same versioned write, only when they differ from what is stored, so that
 * reloading an unchanged file changes nothing. It records no event, as a
 * load records none for the bookings it imports.
 */
export async function loadWorkingHours(trx: Executor, deps: WorkingHoursDeps, userId: string, schedule: Schedule | null): Promise<void> {
  const json = schedule === null ? null : JSON.stringify(schedule);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await readHours(trx, userId);
    if (current.schedule_json === json) return;
    if (await saveHours(trx, deps, current, schedule, false)) return;
  }
  throw new ScheduleError('slot_lock_timeout', 'The working hours kept changing meanwhile; nothing was written. Retry shortly.', {}, 1);
}
