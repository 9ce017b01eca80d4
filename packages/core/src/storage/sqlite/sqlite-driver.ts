import { setTimeout as sleep } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type Dialect as KyselyDialect,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { ScheduleError } from '../../errors.js';

/** Longest pause between two tries for another process's write lock. */
const MAX_BACKOFF_MS = 50;

/**
 * One better-sqlite3 connection, handed to one user at a time.
 *
 * Why not Kysely's own SqliteDriver: its lock wakes every waiter on each
 * release, and under a few dozen concurrent requests that herd cost more than
 * the queries; a FIFO hand-off gives the connection straight to the next waiter.
 * It is a queue of resolvers rather than a general mutex (async-mutex's costs a
 * generator, a semaphore and a sorted insert per acquire), since most reads
 * find the connection free and should take it in one step.
 * Why BEGIN IMMEDIATE: a write transaction takes the file's write lock when
 * it begins, so two processes on one file never both read, then both try to
 * upgrade and fail with SQLITE_BUSY halfway through.
 */
class SqliteDriver implements Driver {
  readonly #connection: SqliteConnection;
  #held = false;
  readonly #waiters: ((connection: DatabaseConnection) => void)[] = [];

  constructor(
    readonly database: BetterSqlite3.Database,
    busyTimeoutMs: number,
  ) {
    this.#connection = new SqliteConnection(database, busyTimeoutMs);
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(this.#connection);
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async releaseConnection(): Promise<void> {
    // Still held: the next waiter, in arrival order, gets the connection as it is.
    const next = this.#waiters.shift();
    if (next) next(this.#connection);
    else this.#held = false;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.database.close();
  }
}

/**
 * SQLite's own busy handler sleeps inside the call, and better-sqlite3 is
 * synchronous: a writer waiting for another process's lock would stop the
 * whole event loop. So the file is opened with no busy wait at all, and a
 * statement refused as busy is tried again here, on timers, until
 * `busyTimeoutMs`; then the request answers `503 slot_lock_timeout`. Only a
 * `BEGIN IMMEDIATE` or a statement outside a transaction can be refused so
 * (inside one, the lock is already held), and a refused statement did nothing,
 * so trying it again is safe.
 */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

class SqliteConnection implements DatabaseConnection {
  // Kysely would prepare every statement afresh; the hot reads repeat the same SQL.
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    readonly database: BetterSqlite3.Database,
    readonly busyTimeoutMs: number,
  ) {}

  #prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      if (this.#statements.size >= 500) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const giveUpAt = performance.now() + this.busyTimeoutMs;
    for (let backoffMs = 1; ; backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS)) {
      try {
        return this.#run<R>(compiledQuery);
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (performance.now() + backoffMs > giveUpAt) {
          throw new ScheduleError('slot_lock_timeout', 'The database is locked by another writer; retry shortly.', {}, 1, {
            cause: error,
          });
        }
        await sleep(backoffMs);
      }
    }
  }

  #run<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const statement = this.#prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; Kysely's interface requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by this SQLite driver');
  }
}

/** The Kysely dialect for one better-sqlite3 database. */
export class SqliteDialect implements KyselyDialect {
  constructor(
    readonly database: BetterSqlite3.Database,
    readonly busyTimeoutMs: number,
  ) {}
  createDriver(): Driver {
    return new SqliteDriver(this.database, this.busyTimeoutMs);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
