import type { Kysely } from 'kysely';
import { hashSecret } from '../auth/token-secret.js';
import { loadWorkingHours } from '../availability/working-hours-store.js';
import { insertBookingRow } from '../bookings/insert-booking-row.js';
import type { Clock } from '../clock.js';
import type { Calendar } from '../event-types/calendar.js';
import type { IdGenerator } from '../ids.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Dialect, Executor, Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { WorkspaceError } from './parse-workspace.js';
import { oauthClientProblems, writeOAuthClient } from './workspace-oauth-clients.js';
import { eventTypeIdOf, resolveEventTypes, resolveUsers } from './workspace-refs.js';
import { eventTypeRow, importedBookingRow, organizationRow, tokenRow, userRow } from './workspace-rows.js';
import type { Workspace, WorkspaceToken } from './workspace-schema.js';

export interface LoadWorkspaceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
}

export interface LoadReport {
  users: number;
  eventTypes: number;
  tokens: number;
  bookingsWritten: number;
  bookingsUnchanged: number;
  oauthClients: number;
}

/**
 * Applies a validated workspace to the store in one transaction. Loading the
 * same file twice changes nothing; a changed file updates what it names and
 * leaves everything else alone (docs/workspace.md). References are checked first,
 * so a bad file writes nothing.
 */
export async function loadWorkspace(deps: LoadWorkspaceDeps, workspace: Workspace): Promise<LoadReport> {
  const now = toTimestamp(deps.clock.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const users = await resolveUsers(trx, workspace);
    const eventTypes = await resolveEventTypes(trx, workspace, users);
    const problems: string[] = [];

    const userByRef = (ref: string) => users.get(ref);
    for (const [i, user] of workspace.users.entries()) {
      for (const [j, managed] of user.manages.entries()) {
        if (!userByRef(managed)) problems.push(`users[${i}].manages[${j}]: no user "${managed}"`);
      }
    }
    for (const [i, eventType] of workspace.event_types.entries()) {
      if (!userByRef(eventType.owner)) problems.push(`event_types[${i}].owner: no user "${eventType.owner}"`);
    }
    for (const [i, token] of workspace.tokens.entries()) {
      if (!userByRef(token.user)) problems.push(`tokens[${i}].user: no user "${token.user}"`);
    }
    const bookingRows = workspace.bookings.map((booking, i) => importedBookingRow(booking, i, users, eventTypes, problems, now));
    problems.push(...(await oauthClientProblems(trx, workspace)));
    if (problems.length > 0) throw new WorkspaceError(problems);

    const stored = await trx.selectFrom('organization').select('limits_json').where('id', '=', 1).executeTakeFirst();
    await upsertChanged(trx, 'organization', 1, organizationRow(workspace, stored?.limits_json), now);
    for (const user of workspace.users) {
      const id = users.get(user.username)!.id;
      await upsertChanged(trx, 'users', id, userRow(user, users, await storedCalendars(trx, deps.store.dialect, id)), now);
      await loadWorkingHours(trx, deps, id, user.schedule ?? null);
    }
    for (const eventType of workspace.event_types) {
      const ownerId = users.get(eventType.owner)!.id;
      await upsertChanged(trx, 'event_types', eventTypeIdOf(eventType, ownerId), eventTypeRow(eventType, ownerId), now);
    }
    for (const token of workspace.tokens) {
      await writeToken(trx, deps, token, users.get(token.user)!.id, now);
    }
    let bookingsWritten = 0;
    for (const row of bookingRows) {
      if (await writeImportedBooking(trx, row!, now)) bookingsWritten += 1;
    }
    for (const client of workspace.oauth_clients) await writeOAuthClient(trx, deps.clock, client);

    return {
      users: workspace.users.length,
      eventTypes: workspace.event_types.length,
      tokens: workspace.tokens.length,
      bookingsWritten,
      bookingsUnchanged: bookingRows.length - bookingsWritten,
      oauthClients: workspace.oauth_clients.length,
    };
  });
}

/**
 * The calendars a user has stored, locked on PostgreSQL until this load
 * commits: an account added through the API meanwhile then waits for the
 * load and is kept, rather than written over by it (user-calendars.ts).
 */
async function storedCalendars(trx: Executor, dialect: Dialect, userId: string): Promise<Calendar[]> {
  let query = trx.selectFrom('users').select('calendars_json').where('id', '=', userId);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? (JSON.parse(row.calendars_json) as Calendar[]) : [];
}

type Stamped = 'organization' | 'users' | 'event_types';

/**
 * Inserts a row, or updates it only where a value differs, so that loading an
 * unchanged file leaves every row (and its `updated_at`) exactly as it was.
 */
async function upsertChanged(trx: Executor, table: Stamped, id: string | number, row: Record<string, unknown>, now: string): Promise<void> {
  // The three tables share the id / created_at / updated_at columns this needs.
  const db = trx as unknown as Kysely<Record<Stamped, Record<string, unknown>>>;
  const existing = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!existing) {
    await db
      .insertInto(table)
      .values({ id, ...row, ...(table === 'organization' ? {} : { created_at: now }), updated_at: now })
      .execute();
    return;
  }
  if (Object.entries(row).every(([column, value]) => existing[column] === value)) return;
  await db
    .updateTable(table)
    .set({ ...row, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Writes a token, found by its secret: a revocation keeps the time it first took effect; un-revoking clears it. */
async function writeToken(trx: Executor, deps: LoadWorkspaceDeps, token: WorkspaceToken, userId: string, now: string): Promise<void> {
  const row = tokenRow(token, userId);
  const secretHash = hashSecret(token.secret);
  const existing = await trx.selectFrom('tokens').select('revoked_at').where('secret_hash', '=', secretHash).executeTakeFirst();
  const revokedAt = token.revoked ? (existing?.revoked_at ?? now) : null;
  if (existing) {
    await trx
      .updateTable('tokens')
      .set({ ...row, revoked_at: revokedAt })
      .where('secret_hash', '=', secretHash)
      .execute();
  } else {
    await trx
      .insertInto('tokens')
      .values({ id: deps.ids.uuid(), secret_hash: secretHash, ...row, revoked_at: revokedAt, created_at: now })
      .execute();
  }
}

/** Writes one imported booking unless the stored row came from this very entry. */
async function writeImportedBooking(trx: Executor, row: BookingsTable, now: string): Promise<boolean> {
  const existing = await trx.selectFrom('bookings').select(['version', 'import_hash']).where('uid', '=', row.uid).executeTakeFirst();
  if (existing?.import_hash === row.import_hash) return false;
  if (existing) {
    // A changed entry changes the booking in place: same uid and creation, next version.
    const { uid, version: _version, created_at: _created, ...changes } = row;
    await trx
      .updateTable('bookings')
      .set({ ...changes, version: existing.version + 1, updated_at: now })
      .where('uid', '=', uid)
      .execute();
  } else {
    await insertBookingRow(trx, row);
  }
  return true;
}
