import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, expectData, expectError } from './support/http.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import {
  getSeries,
  occurrencesOf,
  owedOf,
  postgresTables,
  postSeries,
  SERIES_SECRETS,
  SERIES_USERS,
  type SeriesTables,
  seriesAction,
  seriesBody,
  seriesWorkspace,
  skippedAt,
  sqliteTables,
  tokyoAt,
} from './support/series-workspace.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';
import { postgresBookings, type StoredBookings, sqliteBookings } from './support/stored-bookings.js';

// Two `schedule serve` processes on one database (a PostgreSQL schema, and a
// SQLite file) racing series writes: the host is never double-booked, an
// Idempotency-Key creates one series, and an end racing a pause leaves an
// ended series with nothing booked and nothing owed (docs/api/series.md,
// "Superseded and busy behaviour", "Idempotency rules").

const ORA = SERIES_SECRETS.ora;
const HAL = SERIES_USERS.hal;
// No mail is sent while these tests run: a send holds its series (409 series_busy), which is not what is raced here.
const ENV = { MAIL_DISPATCH_MS: '3600000' };

const summary = (answers: readonly ApiResponse[]) => answers.map((r) => `${r.status} ${r.text.slice(0, 160)}`).join(' | ');

describe.each([
  ['one PostgreSQL schema', 'postgres'],
  ['one SQLite file', 'sqlite'],
] as const)('two processes on %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let tables: SeriesTables;
  let bookings: StoredBookings;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
    let db: string;
    if (backend === 'postgres') {
      schema = testSchema();
      db = schema.dbUrl;
      tables = postgresTables(schema);
      bookings = postgresBookings(schema);
    } else {
      db = join(tempDir('schedule-series-race-'), 'shared.db');
      tables = sqliteTables(db);
      bookings = sqliteBookings(db);
    }
    const file = writeWorkspace(seriesWorkspace());
    // One after the other: the first creates and migrates the database, the second finds it ready.
    one = await startServer(['--workspace', file, '--db', db], ENV);
    two = await startServer(['--workspace', file, '--db', db], ENV);
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await schema?.drop();
  });

  /** Each series' stored bookings are exactly the occurrences its answer named, and occurrences plus skipped make its count. */
  async function expectStoredAsAnswered(data: { series: { uid: string; count: number }; occurrences: any[]; skipped: any[] }) {
    expect(data.occurrences.length + data.skipped.length).toBe(data.series.count);
    const stored = await occurrencesOf(tables, data.series.uid);
    expect(stored.map((o) => [o.uid, o.status, o.start_at])).toEqual(data.occurrences.map((o) => [o.uid, 'confirmed', o.start_at]));
  }

  it('creates for one host with overlapping patterns, one on each process: each shared date is booked once', async () => {
    // Mondays and Wednesdays against Wednesdays and Fridays: weeks 0-2 share three Wednesdays.
    const shared = [2, 9, 16];
    for (const [round, time] of ['09:00', '09:30', '10:00', '10:30'].entries()) {
      const [first, second] = round % 2 === 0 ? [one, two] : [two, one];
      const answers = await Promise.all([
        postSeries(first.url, ORA, seriesBody({ weekdays: ['mon', 'wed'], time, attendee: { email: `mw${round}@example.com` } })),
        postSeries(second.url, ORA, seriesBody({ weekdays: ['wed', 'fri'], time, attendee: { email: `wf${round}@example.com` } })),
      ]);
      const context = `round ${round}: ${summary(answers)}`;
      expect(
        answers.map((r) => r.status),
        context,
      ).toEqual([201, 201]);
      const [mw, wf] = answers.map((r) => expectData(r, 201));
      // The create that committed second found the shared dates taken and skipped them; the first skipped nothing.
      const skips = [mw.skipped, wf.skipped].sort((a, b) => a.length - b.length);
      expect(skips, context).toEqual([[], shared.map((d) => skippedAt(d, time))]);
      await expectStoredAsAnswered(mw);
      await expectStoredAsAnswered(wf);
      const starts = [...mw.occurrences, ...wf.occurrences].map((o) => o.start_at).sort();
      expect(starts).toEqual([0, 2, 4, 7, 9, 11, 14, 16, 18].map((d) => tokyoAt(d, time)));
    }
    expect(await bookings.overlaps(HAL)).toEqual([]);
  });

  it('the same pattern created on both processes at once: one series, the other 409 no_dates_free', async () => {
    for (const [round, time] of ['11:00', '11:30'].entries()) {
      const body = (who: string) => seriesBody({ weekdays: ['tue'], time, count: 3, attendee: { email: `${who}${round}@example.com` } });
      const answers = await Promise.all([postSeries(one.url, ORA, body('one')), postSeries(two.url, ORA, body('two'))]);
      const context = `round ${round}: ${summary(answers)}`;
      const won = answers.filter((r) => r.status === 201);
      expect(won, context).toHaveLength(1);
      const data = expectData(won[0]!, 201);
      expect(data.occurrences.map((o: { start_at: string }) => o.start_at)).toEqual([1, 8, 15].map((d) => tokyoAt(d, time)));
      await expectStoredAsAnswered(data);
      const lost = answers.find((r) => r !== won[0])!;
      expectError(lost, 409, 'no_dates_free', { skipped: [1, 8, 15].map((d) => skippedAt(d, time)) });
    }
    expect(await bookings.overlaps(HAL)).toEqual([]);
    // A refused create leaves no series behind: one per winning attendee.
    const rows = await tables.rows<{ attendee_json: string }>('select attendee_json from series');
    const emails = rows.map((r) => JSON.parse(r.attendee_json).email as string).filter((e) => /^(one|two)\d@/.test(e));
    expect(emails).toHaveLength(2);
  });

  it('the same Idempotency-Key and body on both processes at once create exactly one series', async () => {
    for (const [round, time] of ['12:00', '12:30', '13:00', '13:30'].entries()) {
      const key = randomUUID();
      const email = `same-key${round}@example.com`;
      const body = seriesBody({ weekdays: ['tue', 'fri'], time, count: 4, attendee: { email } });
      const answers = await Promise.all([postSeries(one.url, ORA, body, { key }), postSeries(two.url, ORA, body, { key })]);
      const context = `round ${round}: ${summary(answers)}`;
      const fresh = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
      expect(fresh, context).toHaveLength(1);
      const executed = fresh[0]!;
      const data = expectData(executed, 201);
      const other = answers.find((r) => r !== executed)!;
      if (other.status === 201) {
        expect(other.headers.get('idempotent-replayed'), context).toBe('true');
        expect(other.body).toEqual(executed.body);
        expect(other.headers.get('location')).toBe(executed.headers.get('location'));
      } else {
        expectError(other, 409, 'idempotency_in_progress', {});
        expect(other.headers.get('retry-after')).toBe('1');
      }
      // Once the first has finished, the key replays on either process.
      for (const server of [one, two]) {
        const retry = await postSeries(server.url, ORA, body, { key });
        expect(retry.status).toBe(201);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body).toEqual(executed.body);
      }
      const rows = await tables.rows<{ uid: string; attendee_json: string }>('select uid, attendee_json from series');
      expect(rows.filter((r) => JSON.parse(r.attendee_json).email === email).map((r) => r.uid)).toEqual([data.series.uid]);
      await expectStoredAsAnswered(data);
    }
    expect(await bookings.overlaps(HAL)).toEqual([]);
  });

  it('pause on one process racing end on the other: the series ends with nothing booked and nothing owed', async () => {
    const HELD = 'Held by the series; a replacement is owed.';
    const ENDED = 'The series was ended.';
    for (const [round, time] of ['14:00', '14:30', '15:00', '15:30', '16:00', '16:30'].entries()) {
      const body = seriesBody({ weekdays: ['mon', 'tue', 'wed', 'thu'], time, count: 8, attendee: { email: `race${round}@example.com` } });
      const created = expectData(await postSeries(one.url, ORA, body), 201);
      const uid: string = created.series.uid;
      expect(created.occurrences).toHaveLength(8);
      const [pauser, ender] = round % 2 === 0 ? [one, two] : [two, one];
      const pauseCall = () => seriesAction(pauser.url, ORA, uid, 'pause', { key: null });
      // docs/api: series_busy changed nothing; read and retry. The end is retried until it runs.
      const endCall = async () => {
        const answers: ApiResponse[] = [];
        for (let attempt = 0; attempt < 100; attempt++) {
          const res = await seriesAction(ender.url, ORA, uid, 'end');
          answers.push(res);
          if (res.body?.error?.code !== 'series_busy') break;
          expectError(res, 409, 'series_busy', {});
        }
        return answers.at(-1)!;
      };
      const [paused, ended] =
        round % 4 < 2 ? await Promise.all([pauseCall(), endCall()]) : (await Promise.all([endCall(), pauseCall()])).reverse();
      const context = `round ${round}: pause ${paused!.status} ${paused!.text.slice(0, 160)} | end ${ended!.status} ${ended!.text.slice(0, 160)}`;

      const end = expectData(ended!);
      expect(end.superseded, context).toBe(false);
      let held = 0;
      if (paused!.status === 200) {
        const pause = expectData(paused!);
        held = pause.held;
      } else if (paused!.body?.error?.code === 'series_busy') {
        expectError(paused!, 409, 'series_busy', {});
      } else {
        expectError(paused!, 409, 'series_ended', {});
      }

      const series = expectData(await getSeries(two.url, ORA, uid));
      expect(series.status, context).toBe('ended');
      expect(series.version, context).toBe(paused!.status === 200 ? 3 : 2);
      const stored = await occurrencesOf(tables, uid);
      expect(
        stored.filter((o) => o.status === 'confirmed'),
        context,
      ).toEqual([]);
      expect(await owedOf(tables, uid), context).toEqual([]);
      // Every occurrence was canceled by exactly one of the two, as their counts say.
      const reasons = await tables.rows<{ cancellation_reason: string }>('select cancellation_reason from bookings where series_uid = $1', [
        uid,
      ]);
      expect(reasons.filter((r) => r.cancellation_reason === HELD).length, context).toBe(held);
      expect(reasons.filter((r) => r.cancellation_reason === ENDED).length, context).toBe(end.canceled);
      expect(held + end.canceled, context).toBe(stored.length);
      expectError(await seriesAction(one.url, ORA, uid, 'end'), 409, 'series_ended', {});
    }
  });
});
