import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { openStore } from '../src/storage/open-store.js';
import { openPostgres } from '../src/storage/postgres/open-postgres.js';
import { databaseFault } from '../src/storage/postgres/postgres-faults.js';
import type { Store } from '../src/storage/store.js';
import { createBooking } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { createTestSchema, TEST_DATABASE_URL } from './support/stores.js';

// Issue 10: what the database does to a request must never end or wedge the
// process. Each case here failed before its fix: a terminated session under
// a checked-out client was an unhandled 'error' event (the process died), a
// slow statement or a full pool waited forever, and a SQLite file locked by
// another process answered 500 after blocking the event loop for 5 s.

const unavailable = { code: 'database_unavailable', details: {}, retryAfterSeconds: 2 };

describe('databaseFault: which driver errors mean the database is away', () => {
  it.each([
    ['a terminated backend (57P01)', { code: '57P01', message: 'terminating connection due to administrator command' }],
    ['a connection exception (08006)', { code: '08006', message: 'connection failure' }],
    ['too many connections (53300)', { code: '53300', message: 'sorry, too many clients already' }],
    ['an idle-in-transaction timeout (25P03)', { code: '25P03', message: 'terminating connection due to idle-in-transaction timeout' }],
    ['a refused socket', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['a lost socket', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a hung network', new Error('Query read timeout')],
    ['a statement canceled by statement_timeout (57014)', { code: '57014', message: 'canceling statement due to statement timeout' }],
  ])('%s is 503 database_unavailable with Retry-After', (_, error) => {
    const fault = databaseFault(error);
    expect(fault && { code: fault.code, details: fault.details, retryAfterSeconds: fault.retryAfterSeconds }).toEqual(unavailable);
    expect(fault?.cause).toBe(error);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a lock timeout (its own 503 slot_lock_timeout)', { code: '55P03' }],
    ['a syntax error', { code: '42601' }],
    ['a bug', new TypeError('x is undefined')],
  ])('%s is not', (_, error) => {
    expect(databaseFault(error)).toBeUndefined();
  });
});

describe('PostgreSQL: a session lost or slow under a request', () => {
  const stores: Store[] = [];
  let schema: string;
  let admin: pg.Client;

  beforeAll(async () => {
    schema = await createTestSchema();
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });
  const open = (options: Parameters<typeof openPostgres>[1] = {}) => {
    const store = openPostgres(TEST_DATABASE_URL, { schema, ...options });
    stores.push(store);
    return store;
  };

  it('a backend terminated inside a transaction answers 503 and the next query succeeds on a new connection', async () => {
    const store = open();
    const inside = store.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await sql`select 1`.execute(trx);
    });
    expect(await scheduleErrorOf(inside)).toEqual({
      ...unavailable,
      message: 'The database is unavailable or too slow to answer; retry shortly.',
    });
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('an idle pooled connection terminated between requests costs nothing', async () => {
    const store = open();
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db);
    await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    // The pool saw the idle client die and dropped it; the next query connects anew.
    await expect.poll(async () => (await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows).toEqual([{ one: 1 }]);
  });

  it('a statement over statement_timeout answers 503 in about that time, and the connection stays usable', async () => {
    const store = open({ maxConnections: 1, timeouts: { statementMs: 200, queryMs: 2000 } });
    const started = performance.now();
    expect(await scheduleErrorOf(sql`select pg_sleep(3)`.execute(store.db))).toEqual({
      ...unavailable,
      message: 'The database is unavailable or too slow to answer; retry shortly.',
    });
    expect(performance.now() - started).toBeLessThan(1500);
    expect((await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows).toEqual([{ one: 1 }]);
  });

  it('a request waiting for a pooled connection gives up after acquireMs with 503', async () => {
    const store = open({ maxConnections: 1, timeouts: { acquireMs: 200 } });
    let release!: () => void;
    const held = store.db.connection().execute(async (db) => {
      await sql`select 1`.execute(db);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await expect.poll(() => release).toBeTypeOf('function');
    const started = performance.now();
    expect(await scheduleErrorOf(sql`select 1`.execute(store.db))).toEqual({
      ...unavailable,
      message: 'The database is unavailable or too slow to answer; retry shortly.',
    });
    expect(performance.now() - started).toBeLessThan(1500);
    release();
    await held;
    expect((await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows).toEqual([{ one: 1 }]);
  });

  it('a server that is not there answers 503 within acquireMs, not an unhandled error', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const store = open({ timeouts: { acquireMs: 500 } });
    const nowhere = openPostgres('postgres://postgres@127.0.0.1:1/test', { timeouts: { acquireMs: 500 } });
    stores.push(nowhere);
    expect(await scheduleErrorOf(sql`select 1`.execute(nowhere.db))).toEqual({
      ...unavailable,
      message: 'The database is unavailable or too slow to answer; retry shortly.',
    });
    expect((await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows).toEqual([{ one: 1 }]);
  });
});

describe('SQLite: a file another process holds', () => {
  let dir: string;
  let store: Store;
  let other: BetterSqlite3.Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'schedule-busy-'));
    const file = join(dir, 'busy.db');
    store = await openStore(file, { sqliteBusyTimeoutMs: 300 });
    await loadBookingWorkspace({ store, clock: manualClock(T0) });
    other = new BetterSqlite3(file);
  });
  afterEach(() => {
    if (other.inTransaction) other.exec('rollback');
  });
  afterAll(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a keyed create answers 503 slot_lock_timeout after the busy timeout, and the event loop runs meanwhile', async () => {
    const clock = manualClock(T0);
    const deps = testDeps(store, clock);
    const hana = await principalOf({ store, clock }, TOKEN.hana);
    other.exec('begin immediate');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = performance.now();
    const refused = await scheduleErrorOf(
      createBooking(
        deps,
        hana,
        { event_type_id: ET.meet, start: '2026-03-02T10:00:00Z', attendee: { email: 'bob@example.com' } },
        'busy-1',
      ),
    );
    clearInterval(ticker);
    expect(refused).toEqual({
      code: 'slot_lock_timeout',
      message: 'The database is locked by another writer; retry shortly.',
      details: {},
      retryAfterSeconds: 1,
    });
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(1500);
    // A blocked event loop would have let no timer fire while it waited.
    expect(ticks).toBeGreaterThanOrEqual(10);

    other.exec('rollback');
    const created = await createBooking(
      deps,
      hana,
      { event_type_id: ET.meet, start: '2026-03-02T10:00:00Z', attendee: { email: 'bob@example.com' } },
      'busy-1',
    );
    expect(created.outcome.status).toBe(201);
  });

  it('a write that gets the lock within the busy timeout waits for it and succeeds', async () => {
    other.exec('begin immediate');
    setTimeout(() => other.exec('rollback'), 50);
    await store.db.transaction().execute((trx) => sql`update users set name = name`.execute(trx));
    expect(other.inTransaction).toBe(false);
  });
});
