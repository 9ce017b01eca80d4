import type { Compilable, CompiledQuery } from 'kysely';
import type { Executor } from './store.js';

/** Builds the query on a handle from string arguments; a module-level function, since it is the cache key. */
export type BuildQuery<Row> = (db: Executor, ...args: string[]) => Compilable<Row>;

const compiledByDb = new WeakMap<Executor, Map<BuildQuery<unknown>, { compiled: CompiledQuery; positions: number[] }>>();

/**
 * Runs a query that is built and compiled once per database handle, then
 * re-run with new arguments. Building a Kysely query costs more than a point
 * lookup on SQLite, so the hottest reads (token, booking by uid) use this.
 *
 * `build` must pass each argument through unchanged as a query parameter, as
 * `where(col, '=', arg)` does. Inside a transaction the query is built as usual.
 */
export async function runPrepared<Row>(db: Executor, build: BuildQuery<Row>, args: string[]): Promise<Row[]> {
  if (db.isTransaction) return (await db.executeQuery(build(db, ...args).compile())).rows;
  let perDb = compiledByDb.get(db);
  if (!perDb) {
    perDb = new Map();
    compiledByDb.set(db, perDb);
  }
  let entry = perDb.get(build as BuildQuery<unknown>);
  if (!entry) {
    const placeholders = args.map((_, i) => `\u0000prepared-argument-${i}\u0000`);
    const compiled = build(db, ...placeholders).compile();
    const positions = compiled.parameters.map((p) => placeholders.indexOf(p as string));
    if (positions.filter((p) => p >= 0).length !== args.length) {
      throw new Error('runPrepared: every argument must appear exactly once as a query parameter');
    }
    entry = { compiled, positions };
    perDb.set(build as BuildQuery<unknown>, entry);
  }
  const { compiled, positions } = entry;
  const parameters = compiled.parameters.map((p, i) => (positions[i]! >= 0 ? args[positions[i]!] : p));
  return (await db.executeQuery<Row>({ ...compiled, parameters } as CompiledQuery<Row>)).rows;
}
