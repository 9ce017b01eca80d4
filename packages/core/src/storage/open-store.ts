import { migrateToLatest } from './migrations.js';
import type { PostgresTimeouts } from './postgres/open-postgres.js';
import { loadPostgres } from './postgres/postgres-admin.js';
import { openSqlite } from './sqlite/open-sqlite.js';
import type { Store } from './store.js';

/** A database URL whose settings cannot be used; nothing was opened. */
export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

export interface StoreOptions {
  /** PostgreSQL only: bounds on each kind of wait (see DEFAULT_POSTGRES_TIMEOUTS). */
  readonly postgresTimeouts?: Partial<PostgresTimeouts>;
  /** SQLite only: how long a write waits for another process's lock. */
  readonly sqliteBusyTimeoutMs?: number;
}

/**
 * Opens the store a `--db` value names: a `postgres://` (or `postgresql://`)
 * URL, `:memory:`, or a SQLite file path; then brings its schema up to date.
 * A `?schema=NAME` on a PostgreSQL URL works inside that schema, creating it;
 * `?pool_size=N` sets the connections this process keeps (default 10).
 */
export async function openStore(location: string, options: StoreOptions = {}): Promise<Store> {
  let store: Store;
  let schema: string | undefined;
  if (/^postgres(ql)?:\/\//.test(location)) {
    // Loaded only for PostgreSQL: a command on the embedded SQLite file never pays for the pg driver.
    const { createPostgresSchema, openPostgres } = await loadPostgres();
    const url = new URL(location);
    schema = url.searchParams.get('schema') ?? undefined;
    url.searchParams.delete('schema');
    const poolSize = poolSizeOf(url.searchParams.get('pool_size'));
    url.searchParams.delete('pool_size');
    if (schema) await createPostgresSchema(url.toString(), schema);
    store = openPostgres(url.toString(), {
      ...(schema ? { schema } : {}),
      ...(poolSize === undefined ? {} : { maxConnections: poolSize }),
      ...(options.postgresTimeouts ? { timeouts: options.postgresTimeouts } : {}),
    });
  } else {
    store = openSqlite(location, options.sqliteBusyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.sqliteBusyTimeoutMs });
  }
  try {
    await migrateToLatest(store.db, { schema });
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** The most connections one process may keep: PostgreSQL's default max_connections is 100, shared by every process. */
const MAX_POOL_SIZE = 100;

function poolSizeOf(value: string | null): number | undefined {
  if (value === null) return undefined;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > MAX_POOL_SIZE) {
    throw new DatabaseUrlError(
      `pool_size in the database URL must be a whole number from 1 to ${MAX_POOL_SIZE}, not ${JSON.stringify(value)}.`,
    );
  }
  return size;
}
