import { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { PostgresPoolDialect } from './postgres-driver.js';

/** How long each kind of wait on PostgreSQL may last before a request answers `503 database_unavailable`. */
export interface PostgresTimeouts {
  /** Waiting for a pooled connection, or opening a new one. */
  acquireMs: number;
  /** The server cancels a statement running longer (`statement_timeout`). */
  statementMs: number;
  /** The client gives up on an answer that does not come (a hung network); a little over statementMs. */
  queryMs: number;
  /** The server ends a session left idle inside a transaction (`idle_in_transaction_session_timeout`). */
  idleInTransactionMs: number;
}

/**
 * A request waits at most about acquire + query on one statement: a few
 * seconds, so that a hung database answers 503 instead of holding every
 * request (and its socket) open. The host lock's own 2 s `lock_timeout` fits inside.
 */
export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  acquireMs: 3000,
  statementMs: 5000,
  queryMs: 6000,
  idleInTransactionMs: 10_000,
};

export interface PostgresOptions {
  /** A schema to work in instead of `public`; tests give each run its own. */
  schema?: string;
  /** Pool size per process (default 10; openStore picks it by cores). */
  maxConnections?: number;
  timeouts?: Partial<PostgresTimeouts>;
}

/** Connects to PostgreSQL at a `postgres://` URL. */
export function openPostgres(url: string, options: PostgresOptions = {}): Store {
  const timeouts = { ...DEFAULT_POSTGRES_TIMEOUTS, ...options.timeouts };
  const settings = [
    `-c statement_timeout=${Math.round(timeouts.statementMs)}`,
    `-c idle_in_transaction_session_timeout=${Math.round(timeouts.idleInTransactionMs)}`,
    ...(options.schema ? [`-c search_path=${options.schema}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeouts.acquireMs,
    query_timeout: timeouts.queryMs,
    // Lets the kernel notice a peer that vanished without a FIN or RST.
    keepAlive: true,
    options: settings.join(' '),
    // Queries go out without waiting for the one before: the driver sends a
    // transaction's begin and its first statement on one round trip (postgres-driver.ts).
    pipeline: true,
  });
  // Every client, idle or checked out, has an error listener: a connection
  // lost under a request surfaces as that query's error (503), never as an
  // unhandled 'error' event that ends the process. The pool listens on idle
  // clients itself and drops them.
  pool.on('connect', (client) => client.on('error', () => {}));
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresPoolDialect(pool) });
  return {
    db,
    dialect: 'postgres',
    close: () => db.destroy(),
  };
}

/** A one-off connection, bounded like the pool's: a hung server fails it instead of hanging start-up. */
async function adminClient(url: string): Promise<pg.Client> {
  const { acquireMs, queryMs } = DEFAULT_POSTGRES_TIMEOUTS;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: acquireMs, query_timeout: queryMs });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Creates a schema if it is missing; for per-run test schemas. */
export async function createPostgresSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const client = await adminClient(url);
  try {
    await client.query(`create schema if not exists ${schema}`);
  } catch (error) {
    // Two processes creating the same schema at once: one insert into the
    // catalog wins, the other fails with a unique violation. Either way the schema exists.
    if ((error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
}

/**
 * Drops schemas and everything in them, all in one statement on one
 * connection: a test suite's cleanup drops dozens, and one connection and
 * one catalog transaction for each made cleanup outlast its hook on a busy
 * machine.
 */
export async function dropPostgresSchema(url: string, ...schemas: string[]): Promise<void> {
  const invalid = schemas.find((schema) => !/^[a-z_][a-z0-9_]*$/.test(schema));
  if (invalid !== undefined) throw new Error(`invalid schema name: ${invalid}`);
  if (schemas.length === 0) return;
  const client = await adminClient(url);
  try {
    await client.query(`drop schema if exists ${schemas.join(', ')} cascade`);
  } finally {
    await client.end();
  }
}
