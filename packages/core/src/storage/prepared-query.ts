import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Executor } from './store.js';

/**
 * Builds a query from its arguments; a module-level function, since it is the
 * cache key. It must pass each argument through unchanged as a query
 * parameter (once or more), as `where(col, '=', arg)` and `values({ col: arg })` do.
 */
// `any`: the arguments are placeholder strings while compiling and values of any column type when run.
export type BuildQuery<Row> = (db: Executor, ...args: any[]) => Compilable<Row>;

interface Prepared {
  compiled: CompiledQuery;
  /** For each compiled parameter, the argument it takes, or -1 for a constant of the query. */
  positions: number[];
}

// Keyed by the database's adapter, which a transaction shares with its
// database: the compiled text fits every handle of one dialect.
const preparedByAdapter = new WeakMap<object, Map<BuildQuery<unknown>, Prepared>>();

/**
 * Runs a query that is built and compiled once per database, then re-run
 * with new arguments, inside a transaction or not. Building and compiling a
 * Kysely query costs about as much as running a point lookup on SQLite, so
 * the hot reads and writes (token, booking, availability, idempotency, outbox)
 * use this.
 */
export async function executePrepared<Row>(db: Executor, build: BuildQuery<Row>, args: readonly unknown[]): Promise<QueryResult<Row>> {
  const adapter = db.getExecutor().adapter;
  let perDb = preparedByAdapter.get(adapter);
  if (!perDb) {
    perDb = new Map();
    preparedByAdapter.set(adapter, perDb);
  }
  let prepared = perDb.get(build as BuildQuery<unknown>);
  if (!prepared) {
    const placeholders = args.map((_, i) => `\u0000prepared-argument-${i}\u0000`);
    const compiled = build(db, ...placeholders).compile();
    const positions = compiled.parameters.map((p) => placeholders.indexOf(p as string));
    // An argument may appear more than once (a union's branches share a host and bounds); each must appear.
    // Stryker disable next-line ConditionalExpression,BlockStatement,StringLiteral: a guard against a build that drops an argument; no query here does.
    if (new Set(positions.filter((p) => p >= 0)).size !== args.length) {
      throw new Error('executePrepared: every argument must appear as a query parameter');
    }
    prepared = { compiled, positions };
    perDb.set(build as BuildQuery<unknown>, prepared);
  }
  const { compiled, positions } = prepared;
  const parameters = compiled.parameters.map((p, i) => (positions[i]! >= 0 ? args[positions[i]!] : p));
  return db.executeQuery<Row>({ ...compiled, parameters } as CompiledQuery<Row>);
}

/** The rows of a prepared query (see executePrepared). */
export async function runPrepared<Row>(db: Executor, build: BuildQuery<Row>, args: readonly unknown[]): Promise<Row[]> {
  return (await executePrepared(db, build, args)).rows;
}
