import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type Dialect as KyselyDialect,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { databaseFault, isLostSession } from './postgres-faults.js';

/**
 * Statement names by SQL text, shared by every connection of the process: a
 * parameterized statement is parsed and planned once per connection, and each
 * later run only binds and executes it (saving the server's parse and plan).
 * Queries are built from a fixed set of shapes, so the texts are few; a cap
 * keeps a caller that builds unbounded shapes (an `in (...)` of any length)
 * from growing every connection's statement cache without end: past it,
 * statements run unnamed as before.
 */
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 512;

function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `schedule_${statementNames.size}`;
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * One checked-out pg client. A query that fails because the session is gone
 * (terminated, timed out, reset) marks the connection lost: it answers
 * `503 database_unavailable`, skips the rollback it could not run anyway, and
 * is destroyed on release instead of going back to the pool, where it would
 * hang the next request behind a query that will never answer.
 */
class PostgresConnection implements DatabaseConnection {
  #lost: Error | undefined;
  /** A `begin` on the wire whose answer is awaited with the transaction's first statement (begin). */
  #begun: Promise<unknown> | undefined;

  constructor(readonly client: pg.PoolClient) {}

  get lost(): boolean {
    return this.#lost !== undefined;
  }

  /**
   * Sends `begin` without waiting for its answer. The client pipelines, so
   * the transaction's first statement goes out right behind it and both are
   * answered in one round trip instead of two; that statement then reports
   * begin's failure, if any, before its own.
   */
  begin(statement: string): void {
    const begun = this.client.query(statement);
    begun.catch(() => {});
    this.#begun = begun;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#lost) throw databaseFault(this.#lost) ?? this.#lost;
    const begun = this.#begun;
    this.#begun = undefined;
    try {
      const { sql, parameters } = compiledQuery;
      // Unparameterized statements (begin, commit, set local) are one-offs: nothing to prepare.
      const name = parameters.length > 0 ? statementName(sql) : undefined;
      const running = this.client.query(
        name === undefined ? { text: sql, values: [...parameters] } : { name, text: sql, values: [...parameters] },
      );
      if (begun) {
        running.catch(() => {});
        await begun;
      }
      const result = await running;
      const writes = result.command === 'INSERT' || result.command === 'UPDATE' || result.command === 'DELETE';
      return {
        rows: (result.rows ?? []) as R[],
        ...(writes ? { numAffectedRows: BigInt(result.rowCount ?? 0) } : {}),
      };
    } catch (error) {
      if (isLostSession(error)) this.#lost = error as Error;
      throw databaseFault(error) ?? error;
    }
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; Kysely's interface requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by this PostgreSQL driver');
  }

  release(): void {
    // pg-pool destroys a client released with an error.
    this.client.release(this.#lost);
  }
}

/**
 * Kysely's driver over a pg pool, with every wait bounded: the pool's
 * `connectionTimeoutMillis` bounds acquiring (a free client or a new
 * connection), the client's `query_timeout` bounds a statement on a hung
 * network, and the server's `statement_timeout` a slow one.
 */
class PostgresDriver implements Driver {
  constructor(readonly pool: pg.Pool) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return new PostgresConnection(await this.pool.connect());
    } catch (error) {
      throw databaseFault(error) ?? error;
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    (connection as PostgresConnection).begin(`begin${level}`);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // A lost session has no transaction left to roll back; the server already did.
    if ((connection as PostgresConnection).lost) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PostgresConnection).release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/** The Kysely dialect for one pg pool. */
export class PostgresPoolDialect implements KyselyDialect {
  constructor(readonly pool: pg.Pool) {}
  createDriver(): Driver {
    return new PostgresDriver(this.pool);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
