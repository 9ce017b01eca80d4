// The PostgreSQL helpers of the public surface, loading the driver on first
// use: importing @schedule/core must not cost the pg module when only SQLite
// is used (the CLI's start-up).

/** Creates a schema if it does not exist. */
export async function createPostgresSchema(url: string, schema: string): Promise<void> {
  return (await import('./open-postgres.js')).createPostgresSchema(url, schema);
}

/** Drops a schema and everything in it. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  return (await import('./open-postgres.js')).dropPostgresSchema(url, schema);
}
