import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, expectData, expectError } from './support/http.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';
import { buildWorkspace, EVENT_TYPES, SECRETS, USER_IDS } from './support/workspace.js';

// Two `schedule serve` processes on one database (a PostgreSQL schema, and a
// SQLite file): idempotency and If-Match must hold across processes (docs/api/requests.md "Idempotency", "Versioning").

const fx = buildWorkspace();
const b = fx.bookings;
const ROUNDS = 8;

describe.each([
  ['one PostgreSQL schema', 'postgres'],
  ['one SQLite file', 'sqlite'],
] as const)('two processes, %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
    let db: string;
    if (backend === 'postgres') {
      schema = testSchema();
      db = schema.dbUrl;
    } else {
      db = join(tempDir('schedule-db-'), 'shared.db');
    }
    const file = writeWorkspace(fx.workspace);
    // One after the other: the first creates and migrates the database, the second finds it ready.
    one = await startServer(['--workspace', file, '--db', db]);
    two = await startServer(['--workspace', file, '--db', db]);
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await schema?.drop();
  });

  const patchOn = (server: ServerProcess, uid: string, body: unknown, key: string, ifMatch: string) =>
    api(server.url, `/v1/bookings/${uid}`, {
      method: 'PATCH',
      token: SECRETS.owner,
      json: body,
      headers: { 'idempotency-key': key, 'if-match': ifMatch },
    });

  const read = async (server: ServerProcess, uid: string) => {
    const res = await api(server.url, `/v1/bookings/${uid}`, { token: SECRETS.owner });
    return { data: expectData(res), etag: res.headers.get('etag') };
  };

  it('a change made through one process is read through the other', async () => {
    const uid = b.scratch1.uid;
    const data = expectData(await patchOn(one, uid, { metadata: { via: 'one' } }, randomUUID(), '"1"'));
    const seen = await read(two, uid);
    expect(seen.data).toEqual(data);
    expect(seen.etag).toBe('"2"');
  });

  it('a key used on one process is replayed, or refused for another body, on the other', async () => {
    const uid = b.scratch2.uid;
    const key = randomUUID();
    const first = await patchOn(one, uid, { metadata: { k: 1 } }, key, '"1"');
    expect(expectData(first).version).toBe(2);
    const replay = await patchOn(two, uid, { metadata: { k: 1 } }, key, '"1"');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expectError(await patchOn(two, uid, { metadata: { k: 2 } }, key, '"2"'), 409, 'idempotency_key_conflict', {});
    expect((await read(one, uid)).data.version).toBe(2);
  });

  it('the same PATCH with the same key sent to both at once runs exactly once', async () => {
    const uid = b.scratch3.uid;
    for (let round = 0; round < ROUNDS; round++) {
      const { data: before } = await read(one, uid);
      const key = randomUUID();
      const body = { metadata: { round } };
      // `If-Match: *` so that a second execution would not be stopped by the version check.
      const answers = await Promise.all([patchOn(one, uid, body, key, '*'), patchOn(two, uid, body, key, '*')]);

      const fresh = answers.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
      expect(fresh, `round ${round}: ${answers.map((r) => r.text).join(' | ')}`).toHaveLength(1);
      const executed = fresh[0]!;
      expect(expectData(executed)).toMatchObject({ version: before.version + 1, metadata: { round } });
      const other = answers.find((r) => r !== executed)!;
      expectSecondAnswer(other, executed);

      // A retry with the key once the first has finished is a replay, on either process.
      for (const server of [one, two]) {
        const retry = await patchOn(server, uid, body, key, '*');
        expect(retry.status).toBe(200);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body).toEqual(executed.body);
      }
      expect((await read(two, uid)).data.version).toBe(before.version + 1);
    }
  });

  it('concurrent PATCHes with the same If-Match on both processes: one wins, the other gets version_conflict', async () => {
    const uid = b.scratch4.uid;
    for (let round = 0; round < ROUNDS; round++) {
      const { data: before, etag } = await read(one, uid);
      const answers = await Promise.all([
        patchOn(one, uid, { metadata: { round, writer: 'one' } }, randomUUID(), etag!),
        patchOn(two, uid, { metadata: { round, writer: 'two' } }, randomUUID(), etag!),
      ]);
      const ok = answers.filter((r) => r.status === 200);
      expect(ok, `round ${round}: ${answers.map((r) => r.text).join(' | ')}`).toHaveLength(1);
      const winner = expectData(ok[0]!);
      expect(winner.version).toBe(before.version + 1);
      const loser = answers.find((r) => r !== ok[0])!;
      expectError(loser, 409, 'version_conflict', { current_version: before.version + 1 });

      // No lost update: what is stored is the winner's write.
      const after = await read(two, uid);
      expect(after.data).toEqual(winner);
      expect(after.etag).toBe(`"${before.version + 1}"`);
    }
  });
});

/**
 * The answer of the process that lost the race for an Idempotency-Key: a
 * replay of the winner's response, or `409 idempotency_in_progress` with
 * `Retry-After: 1` when the winner had not finished yet.
 */
function expectSecondAnswer(res: ApiResponse, executed: ApiResponse): void {
  if (res.status === 200) {
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(res.body).toEqual(executed.body);
    expect(res.headers.get('etag')).toBe(executed.headers.get('etag'));
    return;
  }
  expectError(res, 409, 'idempotency_in_progress', {});
  expect(res.headers.get('retry-after')).toBe('1');
}

describe('two processes on one PostgreSQL schema, with an idempotency lease shorter than a request', () => {
  // IDEMPOTENCY_LEASE_MS=1: every in-flight reservation counts as abandoned at
  // once, as it would for a request that outlives its lease (a stalled
  // process). Taking over an abandoned reservation is allowed; running a
  // request whose key has already completed is not.
  const leaseFx = buildWorkspace({ limits: { pat_per_minute: 10_000 } });
  const LEASE_ROUNDS = 30;
  let schema: TestSchema;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
    schema = testSchema();
    const file = writeWorkspace(leaseFx.workspace);
    const env = { IDEMPOTENCY_LEASE_MS: '1' };
    one = await startServer(['--workspace', file, '--db', schema.dbUrl], env);
    two = await startServer(['--workspace', file, '--db', schema.dbUrl], env);
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await schema?.drop();
  });

  it('the same PATCH with the same key, twice on each process at once, still runs exactly once', async () => {
    const uid = leaseFx.bookings.scratch3.uid;
    const version = async () => expectData(await api(one.url, `/v1/bookings/${uid}`, { token: SECRETS.owner })).version as number;
    for (let round = 0; round < LEASE_ROUNDS; round++) {
      const before = await version();
      const key = randomUUID();
      const send = (server: ServerProcess) =>
        api(server.url, `/v1/bookings/${uid}`, {
          method: 'PATCH',
          token: SECRETS.owner,
          json: { metadata: { round } },
          headers: { 'idempotency-key': key, 'if-match': '*' },
        });
      const answers = await Promise.all([send(one), send(two), send(one), send(two)]);
      const summary = `round ${round}: ${answers.map((r) => `${r.status} ${r.headers.get('idempotent-replayed') ?? ''} ${r.text.slice(0, 80)}`).join(' | ')}`;
      expect(await version(), summary).toBe(before + 1);
      const fresh = answers.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
      expect(fresh, summary).toHaveLength(1);
      for (const other of answers) {
        if (other === fresh[0]) continue;
        // A request whose reservation was taken over may also lose the version race
        // to the one that completed; it must not run a second time.
        if (other.body?.error?.code === 'version_conflict') expectError(other, 409, 'version_conflict', { current_version: before + 1 });
        else expectSecondAnswer(other, fresh[0]!);
      }
    }
  });

  it('a change of configuration made through one process is what the other offers on its next request', async () => {
    const eventType = EVENT_TYPES.other;
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const weekday = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date(`${day}T00:00:00Z`).getUTCDay()]!;
    const slotsOn = async (server: ServerProcess) => {
      const res = await api(server.url, `/v1/slots?event_type_id=${eventType.id}&start=${day}T00:00:00Z&end=${day}T23:59:00Z`, {
        token: SECRETS.owner,
      });
      return (expectData(res).slots as { start: string; end: string }[]).map((s) => `${s.start.slice(11, 16)}-${s.end.slice(11, 16)}`);
    };
    const write = (server: ServerProcess, method: string, path: string, json: unknown, ifMatch?: string) =>
      api(server.url, path, {
        method,
        token: SECRETS.owner,
        json,
        headers: { 'idempotency-key': randomUUID(), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
      });

    // The event type's duration, changed through one, read through the other.
    const read = await api(one.url, `/v1/event-types/${eventType.id}`, { token: SECRETS.owner });
    expectData(await write(one, 'PATCH', `/v1/event-types/${eventType.id}`, { duration_minutes: 45 }, read.headers.get('etag')!));
    expect((await slotsOn(two))[0]).toBe('00:00-00:45');

    // Working hours, replaced through the other, read through the first.
    const hours = await api(two.url, `/v1/people/${USER_IDS.other}/availability`, { token: SECRETS.owner });
    const replaced = { timezone: 'UTC', weekly: { [weekday]: [['10:00', '12:00']] }, overrides: [] };
    expectData(await write(two, 'PUT', `/v1/people/${USER_IDS.other}/availability`, replaced, hours.headers.get('etag')!));
    // The interval stays the 30 minutes it was stored with; the slots are 45 minutes long.
    expect(await slotsOn(one)).toEqual(['10:00-10:45', '10:30-11:15', '11:00-11:45']);

    // Time off, added through the first, read through the other.
    expectData(
      await write(one, 'POST', `/v1/people/${USER_IDS.other}/time-off`, { start: `${day}T10:00:00Z`, end: `${day}T10:30:00Z` }),
      201,
    );
    expect(await slotsOn(two)).toEqual(['10:30-11:15', '11:00-11:45']);
  });
});
