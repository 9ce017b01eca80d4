import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type SqliteStatement,
} from 'kysely';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';

/**
 * Writes take the database lock when they begin (`BEGIN IMMEDIATE`), so two
 * processes on one file never both read, then both try to upgrade to a write
 * lock and fail with SQLITE_BUSY halfway through a transaction.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

export interface SqliteOptions {
  /** How long a writer waits for another process's lock before failing, in ms. */
  busyTimeoutMs?: number;
}

/** Opens (and creates) a SQLite database file, or `:memory:`. */
export function openSqlite(path: string, options: SqliteOptions = {}): Store {
  const raw = new BetterSqlite3(path);
  raw.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  if (path !== ':memory:') raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');

  // Kysely prepares every statement afresh; keeping prepared statements by SQL
  // text saves that work on the hot read paths.
  const statements = new Map<string, SqliteStatement>();
  const database = {
    prepare(sqlText: string): SqliteStatement {
      let statement = statements.get(sqlText);
      if (!statement) {
        statement = raw.prepare(sqlText) as unknown as SqliteStatement;
        if (statements.size > 500) statements.clear();
        statements.set(sqlText, statement);
      }
      return statement;
    },
    close: () => raw.close(),
  };

  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }) });
  return {
    db,
    dialect: 'sqlite',
    close: () => db.destroy(),
  };
}
