import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectData } from './support/http.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import {
  occurrencesOf,
  postgresTables,
  postSeries,
  SERIES_SECRETS,
  SERIES_USERS,
  type SeriesTables,
  seriesBody,
  seriesWorkspace,
  skippedAt,
  sqliteTables,
  tokyoAt,
} from './support/series-workspace.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';
import { postgresBookings, type StoredBookings, sqliteBookings } from './support/stored-bookings.js';

// The requirement: a series create whose process is killed midway
// and retried with the same Idempotency-Key converges to exactly one series
// and no duplicate occurrences. The create is one transaction, so the crash
// leaves only the key's in-flight reservation; its lease (1 ms in the
// crashing process) has run out by the retry, which takes the key over.

const ORA = SERIES_SECRETS.ora;
const CRASH_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'support', 'crash-create.mjs');
// Mail is sent as in production (every second): an action waits out a send rather than failing busy.
const ENV = {};

interface CrashRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the crash script against a database; resolves once it has exited. */
function runCrash(db: string, key: string, crashAt: number, body: unknown): Promise<CrashRun> {
  const child = spawn(process.execPath, [CRASH_SCRIPT, db, ORA, key, String(crashAt), JSON.stringify(body)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

const CASES = [
  // Killed midway: two occurrences already written in the create's transaction (Thursday of week 0 is skipped).
  { name: 'after two occurrences', crashAt: 2, time: '10:00', booked: [0, 7, 10, 14, 17], skipped: [3] },
  // Killed with the series row written and no occurrence yet.
  { name: 'before the first occurrence', crashAt: 0, time: '15:00', booked: [0, 3, 7, 10, 14, 17], skipped: [] },
] as const;

describe.each([
  ['SQLite file', 'sqlite'],
  ['PostgreSQL schema', 'postgres'],
] as const)('a series create killed midway, on a %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let db: string;
  let tables: SeriesTables;
  let bookings: StoredBookings;
  let server: ServerProcess;

  beforeAll(async () => {
    if (backend === 'postgres') {
      schema = testSchema();
      db = schema.dbUrl;
      tables = postgresTables(schema);
      bookings = postgresBookings(schema);
    } else {
      db = join(tempDir('schedule-series-crash-'), 'crash.db');
      tables = sqliteTables(db);
      bookings = sqliteBookings(db);
    }
    // The server loads the workspace into the database and keeps running beside the crashing process.
    server = await startServer(['--workspace', writeWorkspace(seriesWorkspace()), '--db', db], ENV);
  });

  afterAll(async () => {
    await server?.stop();
    await schema?.drop();
  });

  const seriesOf = async (email: string) => {
    const rows = await tables.rows<{ uid: string; attendee_json: string }>('select uid, attendee_json from series');
    return rows.filter((r) => JSON.parse(r.attendee_json).email === email).map((r) => r.uid);
  };
  const bookingsOf = (email: string) =>
    tables.rows<{ uid: string; series_uid: string | null; start_at: string }>(
      'select uid, series_uid, start_at from bookings where attendee_email = $1 order by start_at',
      [email],
    );
  const keyState = (key: string) => tables.rows<{ state: string }>('select state from idempotency_keys where key = $1', [key]);

  it.each(CASES)('killed $name, then retried with the same key: exactly one series, no duplicate occurrence', async (c) => {
    const key = randomUUID();
    const email = `crash-${c.crashAt}@example.com`;
    const body = seriesBody({ time: c.time, attendee: { email } });

    const run = await runCrash(db, key, c.crashAt, body);
    expect(run.signal, `exit ${run.code}\n${run.stdout}\n${run.stderr}`).toBe('SIGKILL');

    // Nothing of the create survived the crash but its key's reservation, still in flight.
    expect(await seriesOf(email)).toEqual([]);
    expect(await bookingsOf(email)).toEqual([]);
    expect(await keyState(key)).toEqual([{ state: 'in_flight' }]);

    const retry = await postSeries(server.url, ORA, body, { key });
    // An idempotency_in_progress here would mean the abandoned reservation was not taken over.
    const data = expectData(retry, 201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(data.occurrences.map((o: { start_at: string }) => o.start_at)).toEqual(c.booked.map((d) => tokyoAt(d, c.time)));
    expect(data.skipped).toEqual(c.skipped.map((d) => skippedAt(d, c.time)));
    expect(data.occurrences.length).toBe(data.series.count - data.skipped.length);

    expect(await seriesOf(email)).toEqual([data.series.uid]);
    const stored = await bookingsOf(email);
    expect(stored).toEqual(
      data.occurrences.map((o: { uid: string; start_at: string }) => ({ uid: o.uid, series_uid: data.series.uid, start_at: o.start_at })),
    );
    expect(new Set(stored.map((b) => b.start_at)).size).toBe(stored.length);
    expect((await occurrencesOf(tables, data.series.uid)).every((o) => o.status === 'confirmed')).toBe(true);
    expect(await bookings.overlaps(SERIES_USERS.hal)).toEqual([]);
    expect(await keyState(key)).toEqual([{ state: 'completed' }]);

    // A second retry is a replay of the first: nothing runs again.
    const again = await postSeries(server.url, ORA, body, { key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retry.body);
    expect(await seriesOf(email)).toEqual([data.series.uid]);
    expect(await bookingsOf(email)).toEqual(stored);
  });
});
