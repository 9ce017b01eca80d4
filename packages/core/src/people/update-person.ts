import type { Updateable } from 'kysely';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { type EventName, recordEvent } from '../outbox/record-event.js';
import type { UsersTable } from '../storage/schema.js';
import type { Dialect, Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { findVisiblePerson } from './find-person.js';
import { managedIds } from './manages.js';
import type { UpdatePersonBody } from './person-input.js';
import { keepAnOwner, requireAdmin, requireOwnerFor } from './person-rules.js';
import { type PersonDetail, type PersonRow, toPerson } from './person-view.js';

export interface PersonWriteDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly dialect: Dialect;
}

/** The `409 version_conflict` of a person at `current`. */
function personVersionConflict(current: number): ScheduleError {
  return new ScheduleError('version_conflict', `The person is at version ${current}.`, { current_version: current });
}

/**
 * Writes a change to a person the caller can see, at the version it read:
 * the version is compared again in the UPDATE, so of two writers that read
 * the same version only one succeeds. Records `event` with the person after.
 */
async function writePerson(
  trx: Executor,
  deps: PersonWriteDeps,
  principal: Principal,
  row: PersonRow,
  changes: Updateable<UsersTable>,
  event: EventName,
): Promise<PersonDetail> {
  const updated = await trx
    .updateTable('users')
    .set({ ...changes, version: row.version + 1, updated_at: toTimestamp(deps.clock.now()) })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  // Stryker disable next-line ConditionalExpression: only a write between this transaction's read and its update (a race on PostgreSQL) makes it miss.
  if (!updated) throw personVersionConflict((await findVisiblePerson(trx, principal, row.id)).version);
  const person = toPerson(updated);
  await recordEvent(trx, deps, event, person.user_id, person);
  return person;
}

/**
 * Applies a PATCH (docs/api/people.md): a profile (name, email, zone) by
 * whoever may act for the person, themself included; role and manages by
 * admins and owners; an owner, or the role owner, only by an owner; never
 * leaving the organization without an active owner.
 */
export async function updatePerson(
  trx: Executor,
  deps: PersonWriteDeps,
  principal: Principal,
  ref: string,
  ifMatch: IfMatch,
  patch: UpdatePersonBody,
): Promise<PersonDetail> {
  const row = await findVisiblePerson(trx, principal, ref);
  const organizational = (['role', 'manages'] as const).filter((field) => patch[field] !== undefined);
  if (organizational.length > 0) requireAdmin(principal, 'change roles and managers', organizational);
  requireOwnerFor(principal, row, patch.role);
  if (!matchesVersion(ifMatch, row.version)) throw personVersionConflict(row.version);
  if (patch.role !== undefined && patch.role !== 'owner') await keepAnOwner(trx, deps.dialect, row);
  // Stryker disable ConditionalExpression: Kysely leaves out a column set to undefined, so spreading `{ name: undefined }` changes nothing (the `false` side is killed).
  const changes: Updateable<UsersTable> = {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.email !== undefined ? { email: patch.email } : {}),
    ...(patch.timezone !== undefined ? { timezone: patch.timezone } : {}),
    ...(patch.reminders !== undefined ? { reminders: patch.reminders ? 1 : 0 } : {}),
    ...(patch.role !== undefined ? { role: patch.role } : {}),
    ...(patch.manages !== undefined ? { manages_json: JSON.stringify(await managedIds(trx, patch.manages)) } : {}),
  };
  // Stryker restore ConditionalExpression
  return writePerson(trx, deps, principal, row, changes, 'person.updated');
}

/**
 * Deactivates or reactivates a person (admins and owners; an owner only by an
 * owner; never the last active owner). Deactivating stops every token of
 * theirs (auth/authenticate.ts) and switches their event types off for
 * booking (event-types/resolve-event-type.ts); nothing is deleted. Asking for
 * the state they are in answers them unchanged, with no event.
 */
export async function setPersonActive(
  trx: Executor,
  deps: PersonWriteDeps,
  principal: Principal,
  ref: string,
  active: boolean,
): Promise<PersonDetail> {
  const row = await findVisiblePerson(trx, principal, ref);
  requireAdmin(principal, active ? 'reactivate people' : 'deactivate people');
  requireOwnerFor(principal, row);
  if ((row.deactivated_at === null) === active) return toPerson(row);
  // Stryker disable next-line ConditionalExpression: reactivating, the person is not among the active owners, and one always is (the last cannot leave), so the check passes.
  if (!active) await keepAnOwner(trx, deps.dialect, row);
  const deactivatedAt = active ? null : toTimestamp(deps.clock.now());
  return writePerson(trx, deps, principal, row, { deactivated_at: deactivatedAt }, active ? 'person.updated' : 'person.deactivated');
}
