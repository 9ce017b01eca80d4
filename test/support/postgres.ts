import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the black-box tests use (trust auth on loopback). */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestSchema {
  readonly name: string;
  /** The `--db` value: the database URL with `?schema=NAME`; the server creates the schema. */
  readonly dbUrl: string;
  /** Runs one query inside the schema. */
  query<T extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<T[]>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/** A fresh schema name for one test file; nothing is created until a server opens it. */
export function testSchema(): TestSchema {
  const name = `bb_${randomBytes(6).toString('hex')}`;
  const withClient = async <R>(work: (client: pg.Client) => Promise<R>): Promise<R> => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    name,
    dbUrl: `${POSTGRES_URL}?schema=${name}`,
    query: (text, values) =>
      withClient(async (client) => {
        await client.query(`set search_path to ${name}`);
        return (await client.query(text, values)).rows;
      }),
    drop: () =>
      withClient(async (client) => {
        await client.query(`drop schema if exists ${name} cascade`);
      }),
  };
}
