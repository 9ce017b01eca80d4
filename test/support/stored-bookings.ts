import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type TestSchema, testSchema } from './postgres.js';
import { tempDir } from './serve.js';

// Reads the bookings table behind the API, for checks no API answer can
// prove on its own (no two confirmed bookings of a host overlap).

export interface StoredBooking {
  uid: string;
  status: string;
  start_at: string;
  end_at: string;
}

export interface StoredBookings {
  /** Every booking of the host, in start order. */
  ofHost(hostId: string): Promise<StoredBooking[]>;
  /** Pairs of confirmed bookings of one host whose times overlap. */
  overlaps(hostId: string): Promise<{ a: string; b: string }[]>;
}

const OF_HOST = 'select uid, status, start_at, end_at from bookings where host_user_id = $1 order by start_at, uid';
// Timestamps are fixed-width ISO 8601 UTC text on both engines, so text order is time order.
const OVERLAPS = `select x.uid as a, y.uid as b from bookings x join bookings y
  on x.host_user_id = y.host_user_id and x.uid < y.uid and x.start_at < y.end_at and y.start_at < x.end_at
  where x.host_user_id = $1 and x.status = 'confirmed' and y.status = 'confirmed'`;

/** The bookings of a PostgreSQL test schema. */
export function postgresBookings(schema: TestSchema): StoredBookings {
  return {
    ofHost: (hostId) => schema.query<StoredBooking>(OF_HOST, [hostId]),
    overlaps: (hostId) => schema.query<{ a: string; b: string }>(OVERLAPS, [hostId]),
  };
}

/** The bookings of a SQLite file that servers have open (read-only; WAL lets it read beside them). */
export function sqliteBookings(path: string): StoredBookings {
  const all = <T>(sql: string, hostId: string): Promise<T[]> => {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return Promise.resolve(db.prepare(sql.replace('$1', '?')).all(hostId) as T[]);
    } finally {
      db.close();
    }
  };
  return {
    ofHost: (hostId) => all<StoredBooking>(OF_HOST, hostId),
    overlaps: (hostId) => all<{ a: string; b: string }>(OVERLAPS, hostId),
  };
}

/** A database for one test file on either engine: the `--db` value, its bookings, and how to drop it after. */
export interface TestDatabase {
  readonly db: string;
  readonly stored: StoredBookings;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL schema, or a SQLite file in a temporary directory; nothing is created until a server opens it. */
export function testDatabase(backend: 'sqlite' | 'postgres'): TestDatabase {
  if (backend === 'postgres') {
    const schema = testSchema();
    return { db: schema.dbUrl, stored: postgresBookings(schema), drop: () => schema.drop() };
  }
  const db = join(tempDir('schedule-db-'), 'shared.db');
  return { db, stored: sqliteBookings(db), drop: async () => {} };
}
