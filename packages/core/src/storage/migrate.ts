import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import { migrations } from './migrations.js';

// Runs the migrations of migrations.ts: once per schema, from any number of
// processes at once, trying again when another schema's change got in the way.

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Kysely's migrator looks for its bookkeeping tables by listing every table
 * of the database, with each table's schema and columns: a schema, table or
 * column changed by someone else at that moment (another tenant, another test
 * run migrating its own schema) fails the listing with "schema does not
 * exist" (3F000), "relation does not exist" (42P01) or "column does not
 * exist" (42703, seen while another schema's time_off table was being made).
 * Nothing was changed by then, so the migration is simply tried again; a
 * migration of ours that fails so fails every attempt, and is reported.
 */
function isConcurrentChange(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '3F000' || code === '42P01' || code === '42703';
}

/**
 * Brings the schema up to date. Safe to run from several processes at once.
 * On PostgreSQL, `schema` names the schema the store works in: the migration
 * bookkeeping lives there too, so each schema migrates on its own.
 */
export async function migrateToLatest(db: Kysely<any>, options: { schema?: string | undefined } = {}): Promise<void> {
  const migrator = new Migrator({ db, provider, ...(options.schema ? { migrationTableSchema: options.schema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    if (attempt < 5 && isConcurrentChange(error)) continue;
    // An error before any migration ran (no connection, no database) names no migration.
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration${failed === undefined ? '' : ` ${failed}`} failed: ${String(error)}`, { cause: error });
  }
}
