import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { type EventName, recordEvent } from '../outbox/record-event.js';
import { lockHost } from '../storage/host-lock.js';
import type { TimeOffTable } from '../storage/schema.js';
import type { Executor, Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { findTimeOff } from './find-time-off.js';
import type { CreateTimeOffBody, UpdateTimeOffBody } from './time-off-input.js';
import type { TimeOffOwner } from './time-off-owner.js';
import { resolveTimeOffRange } from './time-off-range.js';
import { type TimeOff, toTimeOff } from './time-off-view.js';

// The writers of a user's time off. Each records its webhook event in the
// same transaction: the event exists exactly when the change committed.
// Bookings already inside a new range stay (docs/api/time-off.md): time off
// only stops new ones.

/**
 * How many ranges one person may hold, past ones included (docs/api/choices.md
 * "Time off"). Counting every range, not only those still to come, bounds the
 * rows a person can add, which is what a cap is for; 500 is decades of days
 * off, and an old range can be deleted once it no longer matters.
 */
export const MAX_TIME_OFF_RANGES = 500;

export interface TimeOffDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The cap on one person's ranges; absent, MAX_TIME_OFF_RANGES. Tests pass a small one. */
  readonly maxTimeOffRanges?: number | undefined;
  /** Which database: the person's row lock is PostgreSQL's (storage/host-lock.ts). */
  readonly store: Pick<Store, 'dialect'>;
}

/** The `409 version_conflict` of a range at `current`. */
function timeOffVersionConflict(current: number): ScheduleError {
  return new ScheduleError('version_conflict', `The time off is at version ${current}.`, { current_version: current });
}

async function recorded(trx: Executor, deps: TimeOffDeps, event: EventName, row: TimeOffTable): Promise<TimeOff> {
  const view = toTimeOff(row);
  await recordEvent(trx, deps, event, row.id, view);
  return view;
}

/**
 * `409 time_off_limit_reached` when the owner already holds the cap. The
 * count runs under the person's row lock (storage/host-lock.ts), so two
 * creates at once cannot both take the last place, in this process or another.
 */
async function checkRangeCount(trx: Executor, deps: TimeOffDeps, ownerId: string): Promise<void> {
  const max = deps.maxTimeOffRanges ?? MAX_TIME_OFF_RANGES;
  await lockHost(trx, deps.store.dialect, ownerId);
  const { count } = await trx
    .selectFrom('time_off')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= max) {
    throw new ScheduleError('time_off_limit_reached', `A person may have at most ${max} time off ranges; delete one first.`, { max });
  }
}

/** Adds a range to the owner's time off, version 1. */
export async function createTimeOff(trx: Executor, deps: TimeOffDeps, owner: TimeOffOwner, body: CreateTimeOffBody): Promise<TimeOff> {
  const range = resolveTimeOffRange(body, owner.zone);
  await checkRangeCount(trx, deps, owner.id);
  const now = toTimestamp(deps.clock.now());
  const row: TimeOffTable = {
    id: deps.ids.uuid(),
    user_id: owner.id,
    start_at: toTimestamp(range.startMs),
    end_at: toTimestamp(range.endMs),
    reason: body.reason ?? null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('time_off').values(row).execute();
  return recorded(trx, deps, 'time_off.created', row);
}

/**
 * Applies a PATCH to one of the owner's ranges: each sent field replaces one
 * end (or the reason), and the range that results is checked whole. Every
 * success bumps `version`; the version is compared again in the UPDATE, so
 * of two writers that read the same version only one succeeds.
 */
export async function updateTimeOff(
  trx: Executor,
  deps: TimeOffDeps,
  owner: TimeOffOwner,
  id: string,
  ifMatch: IfMatch,
  patch: UpdateTimeOffBody,
): Promise<TimeOff> {
  const row = await findTimeOff(trx, owner.id, id);
  if (!matchesVersion(ifMatch, row.version)) throw timeOffVersionConflict(row.version);
  const range = resolveTimeOffRange(patch, owner.zone, { startMs: Date.parse(row.start_at), endMs: Date.parse(row.end_at) });
  const updated = await trx
    .updateTable('time_off')
    .set({
      start_at: toTimestamp(range.startMs),
      end_at: toTimestamp(range.endMs),
      // Stryker disable next-line ConditionalExpression: equivalent: `{ reason: undefined }` sets nothing (the query builder leaves undefined values out).
      ...(patch.reason !== undefined ? { reason: patch.reason } : {}),
      version: row.version + 1,
      updated_at: toTimestamp(deps.clock.now()),
    })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw timeOffVersionConflict((await findTimeOff(trx, owner.id, id)).version);
  return recorded(trx, deps, 'time_off.updated', updated);
}

/** Removes one of the owner's ranges; answers it as it was, so the caller can tell what it removed. */
export async function deleteTimeOff(trx: Executor, deps: TimeOffDeps, owner: TimeOffOwner, id: string): Promise<TimeOff> {
  const row = await findTimeOff(trx, owner.id, id);
  await trx.deleteFrom('time_off').where('id', '=', row.id).execute();
  return recorded(trx, deps, 'time_off.deleted', row);
}
