import { createHash } from 'node:crypto';
import type { Database, Store } from '@schedule/core';

// Every table of the schema, as a Record over its names: a table added to
// `Database` without being listed here does not compile, so no table is ever
// left out of "the database did not change". idempotency_keys is included on
// purpose: a refused keyed request releases its reservation (only successes
// are remembered, docs/api/requests.md "Idempotency" 5), so it too must be unchanged.
const TABLES: Record<keyof Database, true> = {
  organization: true,
  users: true,
  event_types: true,
  tokens: true,
  bookings: true,
  booking_hosts: true,
  idempotency_keys: true,
  outbox: true,
  series: true,
  series_owed: true,
  notifications: true,
  oauth_records: true,
  server_secrets: true,
  webhooks: true,
  webhook_deliveries: true,
  calendar_syncs: true,
  time_off: true,
  holds: true,
  mcp_sessions: true,
};

/** A digest of each table's rows, by table name. */
export type DatabaseDigest = ReadonlyMap<keyof Database, string>;

/**
 * Reads every row of every table and digests each table. Rows are compared as
 * sorted JSON text, so the digest does not depend on the order the engine
 * returns them in, nor on which columns form the key.
 */
export async function digestDatabase(store: Store): Promise<DatabaseDigest> {
  const digests = new Map<keyof Database, string>();
  for (const table of Object.keys(TABLES) as (keyof Database)[]) {
    const rows = await store.db.selectFrom(table).selectAll().execute();
    const text = rows.map((row) => JSON.stringify(row)).sort();
    digests.set(table, `${text.length}:${createHash('sha256').update(text.join('\n')).digest('hex').slice(0, 16)}`);
  }
  return digests;
}

/** The tables whose digest differs, with their row counts before and after. */
export function changedTables(before: DatabaseDigest, after: DatabaseDigest): string[] {
  const changed: string[] = [];
  for (const [table, digest] of after) {
    const was = before.get(table);
    if (was !== digest) changed.push(`${table} (rows ${was?.split(':')[0]} -> ${digest.split(':')[0]})`);
  }
  return changed;
}
