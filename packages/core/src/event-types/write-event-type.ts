import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import { type IdGenerator, isUuid } from '../ids.js';
import { type EventName, recordEvent } from '../outbox/record-event.js';
import { lockHost } from '../storage/host-lock.js';
import type { Dialect, Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { PagesAddress } from './booking-url.js';
import type { EventTypeDeclaration } from './event-type-fields.js';
import type { CreateEventTypeBody, UpdateEventTypeBody } from './event-type-input.js';
import { archivedSlugColumn, eventTypeColumns, eventTypeRowQuery, type ResolvedDeclaration, toEventTypeView } from './event-type-rows.js';
import type { EventType } from './event-type-view.js';
import { checkSlugFree, findVisibleEventType } from './find-event-type.js';
import { checkTeamShape, resolvePool } from './pool.js';

/** What the event type writes use; passed in, never imported. */
export interface EventTypeWriteDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly dialect: Dialect;
  /** Where booking pages are served, for the view's `booking_url`. */
  readonly pages?: PagesAddress | undefined;
}

/** The `409 version_conflict` of an event type at `current`. */
function versionConflict(current: number): ScheduleError {
  return new ScheduleError('version_conflict', `The event type is at version ${current}.`, { current_version: current });
}

/**
 * The owner a create names by user_id or username, the caller when none:
 * one the caller may not act for answers `403 host_not_allowed`, unknown
 * users alike, as a series' host does (nothing tells who exists).
 */
async function allowedOwner(db: Executor, principal: Principal, owner: string | undefined): Promise<string> {
  if (owner === undefined) return principal.account.id;
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(isUuid(owner) ? 'id' : 'username', '=', isUuid(owner) ? owner.toLowerCase() : owner)
    .executeTakeFirst();
  if (!row || !mayActFor(principal.actsFor, row.id)) {
    throw new ScheduleError('host_not_allowed', 'owner is not someone this caller may act for.', { fields: ['owner'] });
  }
  return row.id;
}

/** Reads the type back as the view shows it and records its event in the same transaction. */
async function viewAndRecord(trx: Executor, deps: EventTypeWriteDeps, id: string, event: EventName): Promise<EventType> {
  const view = toEventTypeView(await eventTypeRowQuery(trx).where('event_types.id', '=', id).executeTakeFirstOrThrow(), deps.pages);
  await recordEvent(trx, deps, event, id, view);
  return view;
}

/**
 * Inserts or rewrites an event type's declared fields, the one writer of
 * both the API and the workspace loader: the owner's lock is taken first,
 * so two writers cannot both find a slug free. Answers whether it wrote.
 */
export async function writeEventTypeFields(
  trx: Executor,
  deps: Pick<EventTypeWriteDeps, 'dialect'>,
  target: { readonly id: string; readonly ownerId: string; readonly now: string },
  fields: ResolvedDeclaration,
): Promise<boolean> {
  await lockHost(trx, deps.dialect, target.ownerId);
  const columns = eventTypeColumns(fields);
  const existing = await trx.selectFrom('event_types').selectAll().where('id', '=', target.id).executeTakeFirst();
  if (existing && Object.entries(columns).every(([column, value]) => existing[column as keyof typeof existing] === value)) return false;
  // Stryker disable next-line ConditionalExpression: a shortcut: checkSlugFree leaves out the type's own row, so checking a slug it keeps finds nothing (the line's mutant that never checks is killed).
  if (existing?.slug !== columns.slug) await checkSlugFree(trx, target.ownerId, columns.slug, target.id);
  if (!existing) {
    await trx
      .insertInto('event_types')
      .values({ id: target.id, owner_user_id: target.ownerId, ...columns, version: 1, created_at: target.now, updated_at: target.now })
      .execute();
  } else {
    await trx
      .updateTable('event_types')
      // A file that declares an archived type again brings it back under the slug it declares.
      .set({ ...columns, archived_at: null, archived_slug: null, version: existing.version + 1, updated_at: target.now })
      .where('id', '=', target.id)
      .execute();
  }
  return true;
}

/** Creates an event type for the caller or someone it acts for; records `event_type.created`. */
export async function createEventType(
  trx: Executor,
  deps: EventTypeWriteDeps,
  principal: Principal,
  body: CreateEventTypeBody,
): Promise<EventType> {
  const { owner, ...fields } = body;
  const ownerId = await allowedOwner(trx, principal, owner);
  checkTeamShape(fields);
  const hosts = await resolvePool(trx, fields.hosts, principal.actsFor);
  const id = deps.ids.uuid();
  await writeEventTypeFields(trx, deps, { id, ownerId, now: toTimestamp(deps.clock.now()) }, { ...fields, hosts });
  return viewAndRecord(trx, deps, id, 'event_type.created');
}

/**
 * Applies a PATCH: every success bumps `version`, as a webhook's does. A new
 * slug keeps the id, so bookings and series (which hold the id) keep
 * pointing at the type. Duration, interval and the other rules change the
 * slots offered from now on; bookings already made keep their times. An
 * archived type is kept as it was archived (`422 invalid_change`).
 */
export async function updateEventType(
  trx: Executor,
  deps: EventTypeWriteDeps,
  principal: Principal,
  id: string,
  ifMatch: IfMatch,
  patch: UpdateEventTypeBody,
): Promise<EventType> {
  const row = await findVisibleEventType(trx, principal, id);
  if (!matchesVersion(ifMatch, row.version)) throw versionConflict(row.version);
  if (row.archived_at !== null) {
    throw new ScheduleError('invalid_change', 'An archived event type cannot be changed; create a new one.', { fields: [] });
  }
  const current = toEventTypeView(row, deps.pages);
  const merged: EventTypeDeclaration = { ...current, ...patch } as EventTypeDeclaration;
  checkTeamShape(merged);
  // A pool the PATCH leaves alone is kept as stored, even if a host in it was deactivated since (availability leaves them out).
  const hosts = patch.hosts === undefined ? current.hosts : await resolvePool(trx, patch.hosts, principal.actsFor);
  await lockHost(trx, deps.dialect, row.owner_user_id);
  // Stryker disable next-line ConditionalExpression: a shortcut: checkSlugFree leaves out the type's own row, so checking a slug it keeps finds nothing (the line's mutant that never checks is killed).
  if (merged.slug !== row.slug) await checkSlugFree(trx, row.owner_user_id, merged.slug, row.id);
  const updated = await trx
    .updateTable('event_types')
    .set({ ...eventTypeColumns({ ...merged, hosts }), version: row.version + 1, updated_at: toTimestamp(deps.clock.now()) })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw versionConflict((await findVisibleEventType(trx, principal, id)).version);
  return viewAndRecord(trx, deps, row.id, 'event_type.updated');
}

/**
 * DELETE archives: the row stays, so bookings and series that name it keep
 * their event type; it is no longer listed nor bookable, and its slug is
 * free for a new type of the same owner (event-type-rows.ts). Archiving an
 * archived type again changes nothing and records nothing.
 */
export async function archiveEventType(trx: Executor, deps: EventTypeWriteDeps, principal: Principal, id: string): Promise<EventType> {
  const row = await findVisibleEventType(trx, principal, id);
  if (row.archived_at !== null) return toEventTypeView(row, deps.pages);
  await archiveEventTypeRow(trx, row.id, toTimestamp(deps.clock.now()));
  return viewAndRecord(trx, deps, row.id, 'event_type.deleted');
}

/** Archives a type that is not archived yet: its slug moves aside (freed for a new type), the row stays. Records nothing. */
export async function archiveEventTypeRow(trx: Executor, id: string, now: string): Promise<void> {
  const row = await trx
    .selectFrom('event_types')
    .select(['slug', 'version'])
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!row) return;
  await trx
    .updateTable('event_types')
    .set({ slug: archivedSlugColumn(id), archived_slug: row.slug, archived_at: now, version: row.version + 1, updated_at: now })
    .where('id', '=', id)
    .execute();
}
