import type { Kysely } from 'kysely';
import { hashSecret } from '../auth/token-secret.js';
import { insertBookingRow } from '../bookings/insert-booking-row.js';
import type { Calendar } from '../event-types/calendar.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Dialect, Executor } from '../storage/store.js';
import type { WriteContext } from './resource-kind.js';
import { tokenRow } from './workspace-rows.js';
import type { WorkspaceToken } from './workspace-schema.js';

// The loader's writers, one row at a time: what the file's entries store.

/**
 * The calendars a user has stored, locked on PostgreSQL until this load
 * commits: an account added through the API meanwhile then waits for the
 * load and is kept, rather than written over by it (user-calendars.ts).
 */
export async function storedCalendars(trx: Executor, dialect: Dialect, userId: string): Promise<Calendar[]> {
  let query = trx.selectFrom('users').select('calendars_json').where('id', '=', userId);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a row lock, seen only by a concurrent writer on PostgreSQL
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  // A user this load creates has none yet.
  return JSON.parse(row?.calendars_json ?? '[]') as Calendar[];
}

type Stamped = 'organization' | 'users' | 'event_types';

/**
 * Inserts a row, or updates it only where a value differs, so that loading an
 * unchanged file leaves every row (and its `updated_at`) exactly as it was.
 */
export async function upsertChanged(
  trx: Executor,
  table: Stamped,
  id: string | number,
  row: Record<string, unknown>,
  now: string,
): Promise<void> {
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
    // A versioned row (a person) moves on, so an API client's If-Match sees that the file changed it.
    .set({ ...row, ...(typeof existing.version === 'number' ? { version: existing.version + 1 } : {}), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Writes a token, found by its secret: a revocation keeps the time it first took effect; un-revoking clears it. */
export async function writeToken(trx: Executor, ctx: WriteContext, token: WorkspaceToken, userId: string): Promise<void> {
  const row = tokenRow(token, userId);
  const secretHash = hashSecret(token.secret);
  const existing = await trx.selectFrom('tokens').select('revoked_at').where('secret_hash', '=', secretHash).executeTakeFirst();
  const revokedAt = token.revoked ? (existing?.revoked_at ?? ctx.now) : null;
  if (existing) {
    await trx
      .updateTable('tokens')
      .set({ ...row, revoked_at: revokedAt })
      .where('secret_hash', '=', secretHash)
      .execute();
  } else {
    await trx
      .insertInto('tokens')
      .values({ id: ctx.deps.ids.uuid(), secret_hash: secretHash, ...row, revoked_at: revokedAt, created_at: ctx.now })
      .execute();
  }
}

/**
 * Writes one imported booking. The plan calls it only for an entry whose
 * fingerprint (`import_hash`) differs from the stored row's, or is new.
 */
export async function writeImportedBooking(trx: Executor, row: BookingsTable, now: string): Promise<void> {
  const existing = await trx.selectFrom('bookings').select('version').where('uid', '=', row.uid).executeTakeFirst();
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
}
