import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { SqliteDialect } from './sqlite-driver.js';

export interface SqliteOptions {
  /** How long a writer waits for another process's lock before failing, in ms. */
  busyTimeoutMs?: number;
}

/** Opens (and creates) a SQLite database file, or `:memory:`. */
export function openSqlite(path: string, options: SqliteOptions = {}): Store {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  // Opening may wait inside SQLite for another process (before any request is served)...
  const database = new BetterSqlite3(path, { timeout: busyTimeoutMs });
  if (path !== ':memory:') database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  // Checkpoints are where WAL mode syncs to disk; every 4 MB (the default)
  // that is many times a second under a stream of bookings. 32 MB between
  // checkpoints keeps the same durability with far fewer syncs.
  database.pragma('wal_autocheckpoint = 8000');
  // A 64 MB page cache holds the hot index pages of the bookings table.
  database.pragma('cache_size = -65536');
  database.pragma('foreign_keys = ON');
  // ...but a request must not: the driver waits for another process's lock on timers instead.
  database.pragma('busy_timeout = 0');
  const db = new Kysely<Database>({ dialect: new SqliteDialect(database, busyTimeoutMs) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
