import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Which SQL engine is behind a Store; the few statements that differ branch on it. */
export type Dialect = 'sqlite' | 'postgres';

/** An open database: the Kysely handle core queries through, and how to close it. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

/** A handle usable inside or outside a transaction. */
export type Executor = Kysely<Database>;
