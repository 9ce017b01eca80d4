import { loadDriver } from '../../optional-driver.js';

// The PostgreSQL adapter loads with its driver on first use: importing
// @schedule/core must not cost the pg module when only SQLite is used (the
// CLI's start-up), and an embedder on SQLite need not install pg at all.

/** The PostgreSQL adapter, pg loaded with it; a MissingDriver when pg is not installed. */
export function loadPostgres(): Promise<typeof import('./open-postgres.js')> {
  return loadDriver(() => import('./open-postgres.js'), { packages: ['pg'], usedFor: 'use a postgres:// database' });
}

/** Creates a schema if it does not exist. */
export async function createPostgresSchema(url: string, schema: string): Promise<void> {
  return (await loadPostgres()).createPostgresSchema(url, schema);
}

/** Drops schemas and everything in them, in one statement. */
export async function dropPostgresSchema(url: string, ...schemas: string[]): Promise<void> {
  return (await loadPostgres()).dropPostgresSchema(url, ...schemas);
}
