import { migrateToLatest } from './migrate.js';
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
  /**
   * PostgreSQL only: the CPU cores of the machine this process runs on, which
   * set the pool size when the URL names none (defaultPoolSize). Without it
   * the pool is the largest default, MAX_DEFAULT_POOL_SIZE.
   */
  readonly cores?: number;
}

/**
 * Opens the store a `--db` value names: a `postgres://` (or `postgresql://`)
 * URL, `:memory:`, or a SQLite file path; then brings its schema up to date.
 * A `?schema=NAME` on a PostgreSQL URL works inside that schema, creating it;
 * `?pool_size=N` sets the connections this process keeps (default:
 * defaultPoolSize of `options.cores`).
 */
export async function openStore(location: string, options: StoreOptions = {}): Promise<Store> {
  let store: Store;
  let schema: string | undefined;
  let postgresUrl: URL | undefined;
  if (/^postgres(ql)?:\/\//.test(location)) {
    // Loaded only for PostgreSQL: a command on the embedded SQLite file never pays for the pg driver.
    const { createPostgresSchema, openPostgres } = await loadPostgres();
    const url = new URL(location);
    schema = url.searchParams.get('schema') ?? undefined;
    url.searchParams.delete('schema');
    const poolSize = poolSizeOf(url.searchParams.get('pool_size')) ?? defaultPoolSize(options.cores);
    url.searchParams.delete('pool_size');
    postgresUrl = url;
    if (schema) {
      await createPostgresSchema(url.toString(), schema).catch((error: unknown) => {
        throw missingDatabase(error, url) ?? error;
      });
    }
    store = openPostgres(url.toString(), {
      ...(schema ? { schema } : {}),
      maxConnections: poolSize,
      ...(options.postgresTimeouts ? { timeouts: options.postgresTimeouts } : {}),
    });
  } else {
    store = openSqlite(location, options.sqliteBusyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.sqliteBusyTimeoutMs });
  }
  try {
    await migrateToLatest(store.db, { schema });
  } catch (error) {
    await store.close();
    throw (postgresUrl && missingDatabase((error as { cause?: unknown }).cause, postgresUrl)) ?? error;
  }
  return store;
}

/** PostgreSQL's SQLSTATE for a database that does not exist (invalid_catalog_name). */
const NO_SUCH_DATABASE = '3D000';

/**
 * The refusal of a URL naming a database the server does not have: a
 * mistake in the URL, or a `createdb` not yet run, said in those words with
 * the database's name rather than as a failed migration. Undefined for any
 * other error.
 */
function missingDatabase(error: unknown, url: URL): DatabaseUrlError | undefined {
  if ((error as { code?: unknown } | null | undefined)?.code !== NO_SUCH_DATABASE) return undefined;
  // PostgreSQL takes the user name for a URL without a database.
  const name = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || 'postgres';
  return new DatabaseUrlError(
    `The PostgreSQL database "${name}" does not exist on ${url.host}. Create it (createdb ${name}) or name another in the URL.`,
    { cause: error },
  );
}

/** The most connections one process may keep: PostgreSQL's default max_connections is 100, shared by every process. */
const MAX_POOL_SIZE = 100;

/** The default pool never goes below this, so a request and the background loops rarely wait for each other. */
export const MIN_DEFAULT_POOL_SIZE = 4;
/** ...nor above this: ten processes then fill PostgreSQL's default max_connections. */
export const MAX_DEFAULT_POOL_SIZE = 10;

/**
 * The pool a process keeps when the URL names none: two connections per
 * core, from 4 to 10. A backend beyond what the cores can run only adds
 * contention: on 2 cores the create benchmark spent about a fifth more
 * PostgreSQL CPU per create with 10 connections than with 4, at the same
 * throughput (README "Benchmarks", "Pool size").
 */
export function defaultPoolSize(cores: number | undefined): number {
  if (cores === undefined || !(cores >= 1)) return MAX_DEFAULT_POOL_SIZE;
  return Math.min(MAX_DEFAULT_POOL_SIZE, Math.max(MIN_DEFAULT_POOL_SIZE, 2 * Math.floor(cores)));
}

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
