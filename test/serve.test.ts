import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sortedByStart, uids } from './support/booking-view.js';
import { api, expectData, expectPage } from './support/http.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { openSocket, parseResponse, readUntil, requestHead } from './support/raw-http.js';
import { runServeToExit, type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';
import { buildWorkspace, SECRETS } from './support/workspace.js';

// docs/workspace.md "Loading": `schedule serve --workspace FILE [--db URL] --port 0`.

const fx = buildWorkspace();
const workspaceFile = writeWorkspace(fx.workspace);
const schemas: TestSchema[] = [];
const running: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  for (const schema of schemas) await schema.drop();
});

function tempDbPath(): string {
  return join(tempDir('schedule-db-'), 'schedule.db');
}

function newSchema(): TestSchema {
  const schema = testSchema();
  schemas.push(schema);
  return schema;
}

async function start(args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServer(args, env);
  running.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<number | null> {
  running.splice(running.indexOf(server), 1);
  return server.stop();
}

/** Every booking the owner sees, by uid. */
async function ownerBookings(server: ServerProcess): Promise<Map<string, any>> {
  const page = expectPage(await api(server.url, '/v1/bookings?limit=100', { token: SECRETS.owner }));
  expect(page.hasMore).toBe(false);
  return new Map(page.items.map((item) => [item.uid, item]));
}

describe('serving each kind of --db', () => {
  it.each([
    ['`:memory:`', () => ':memory:'],
    ['a SQLite file path', () => tempDbPath()],
    ['a postgres:// URL with ?schema=', () => newSchema().dbUrl],
  ])('%s serves the imported bookings, and SIGTERM exits 0', async (_, db) => {
    const dbArg = db();
    const server = await start(['--workspace', workspaceFile, '--db', dbArg]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.output().stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);

    const page = expectPage(await api(server.url, '/v1/bookings?limit=100', { token: SECRETS.owner }));
    expect(uids(page.items)).toEqual(uids(sortedByStart(fx.allBookings, 'desc')));
    const one = await api(server.url, `/v1/bookings/${fx.bookings.ownerSoon.uid}`, { token: SECRETS.owner });
    expect(expectData(one).responses).toEqual({ topic: 'Pricing' });

    expect(await stop(server)).toBe(0);
    if (!dbArg.startsWith('postgres') && dbArg !== ':memory:') expect(existsSync(dbArg)).toBe(true);
  });

  it('two deployments in two schemas of one PostgreSQL database both start and keep their data apart', async () => {
    const first = await start(['--workspace', workspaceFile, '--db', newSchema().dbUrl]);
    const other = buildWorkspace();
    // The second deployment holds only the owner's first booking.
    const onlyOne = { ...other.workspace, bookings: (other.workspace.bookings as unknown[]).slice(0, 1) };
    const second = await start(['--workspace', writeWorkspace(onlyOne), '--db', newSchema().dbUrl]);
    expect([...(await ownerBookings(second)).keys()]).toEqual([fx.bookings.ownerSoon.uid]);
    expect((await ownerBookings(first)).size).toBe(fx.allBookings.length);
    expect(await stop(second)).toBe(0);
    expect(await stop(first)).toBe(0);
  });
});

describe('SIGTERM with a request in flight', () => {
  /** Resolves once a new connection to `port` is refused: the server has stopped accepting. */
  async function refusedConnection(port: number): Promise<void> {
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const refused = await new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1');
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
      });
      if (refused) return;
    }
    throw new Error('the server kept accepting connections after SIGTERM');
  }

  it('stops accepting, finishes the request, commits it, exits 0', async () => {
    const dbPath = tempDbPath();
    const server = await start(['--workspace', workspaceFile, '--db', dbPath]);
    const port = Number(new URL(server.url).port);
    const uid = fx.bookings.scratch1.uid;
    const body = JSON.stringify({ metadata: { finished: 'after SIGTERM' } });

    const socket = await openSocket(server.url);
    // `Expect: 100-continue`: the server answers 100 once it has the headers and
    // is handling the request, and then waits for the body.
    socket.write(
      requestHead('PATCH', `/v1/bookings/${uid}`, {
        Host: `127.0.0.1:${port}`,
        Authorization: `Bearer ${SECRETS.owner}`,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'Idempotency-Key': randomUUID(),
        'If-Match': '"1"',
        Expect: '100-continue',
        Connection: 'close',
      }),
    );
    const interim = await readUntil(socket, (text) => text.includes('\r\n\r\n'));
    expect(interim).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);

    running.splice(running.indexOf(server), 1);
    const exited = server.stop();
    await refusedConnection(port);

    const responseText = readUntil(socket, () => false);
    socket.write(body);
    const response = parseResponse(await responseText);
    expect(expectData(response)).toMatchObject({ uid, version: 2, metadata: { finished: 'after SIGTERM' } });
    expect(await exited).toBe(0);

    // The change was committed before the process exited.
    const again = await start(['--workspace', workspaceFile, '--db', dbPath]);
    const data = expectData(await api(again.url, `/v1/bookings/${uid}`, { token: SECRETS.owner }));
    expect(data).toMatchObject({ version: 2, metadata: { finished: 'after SIGTERM' } });
    expect(await stop(again)).toBe(0);
  });
});

describe('an invalid workspace file', () => {
  const users = fx.workspace.users as Record<string, unknown>[];
  const eventTypes = fx.workspace.event_types as Record<string, unknown>[];
  const tokens = fx.workspace.tokens as Record<string, unknown>[];
  const bookings = fx.workspace.bookings as Record<string, unknown>[];

  it.concurrent.each([
    ['a bad email', { ...fx.workspace, users: users.map((u, i) => (i === 1 ? { ...u, email: 'not-an-email' } : u)) }, 'users[1].email'],
    [
      'an unknown event type owner',
      { ...fx.workspace, event_types: eventTypes.map((e, i) => (i === 2 ? { ...e, owner: 'ghost' } : e)) },
      'event_types[2].owner',
    ],
    ['an unknown token user', { ...fx.workspace, tokens: tokens.map((t, i) => (i === 3 ? { ...t, user: 'ghost' } : t)) }, 'tokens[3].user'],
    [
      'a token secret under 16 characters',
      { ...fx.workspace, tokens: tokens.map((t, i) => (i === 0 ? { ...t, secret: 'short' } : t)) },
      'tokens[0].secret',
    ],
    [
      'a booking of an unknown event type',
      { ...fx.workspace, bookings: bookings.map((x, i) => (i === 4 ? { ...x, event_type: 'nope' } : x)) },
      'bookings[4].event_type',
    ],
    [
      'a booking with a bad start',
      { ...fx.workspace, bookings: bookings.map((x, i) => (i === 0 ? { ...x, start: 'tomorrow' } : x)) },
      'bookings[0].start',
    ],
  ])('%s: exit 2, stderr names the JSON path, nothing listens', async (_, workspace, path) => {
    const run = await runServeToExit(['--workspace', writeWorkspace(workspace), '--db', ':memory:']);
    expect(run.listened).toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(path);
    expect(run.stdout).not.toContain('listening on');
  });

  it('a file that is not JSON: exit 2', async () => {
    const dir = tempDir('schedule-test-');
    const file = join(dir, 'workspace.json');
    writeFileSync(file, '{ "users": [');
    const run = await runServeToExit(['--workspace', file, '--db', ':memory:']);
    expect(run).toMatchObject({ code: 2, listened: false });
    expect(run.stderr).toContain('(root)');
  });
});

describe('loading a workspace into the same SQLite file again', () => {
  it('the same file changes nothing: versions and updated_at stay, API changes survive', async () => {
    const dbPath = tempDbPath();
    const first = await start(['--workspace', workspaceFile, '--db', dbPath]);
    const patched = expectData(
      await api(first.url, `/v1/bookings/${fx.bookings.scratch2.uid}`, {
        method: 'PATCH',
        token: SECRETS.owner,
        json: { metadata: { changed: 'by api' } },
        headers: { 'idempotency-key': randomUUID(), 'if-match': '"1"' },
      }),
    );
    const before = await ownerBookings(first);
    expect(await stop(first)).toBe(0);

    const second = await start(['--workspace', workspaceFile, '--db', dbPath]);
    const after = await ownerBookings(second);
    expect(after).toEqual(before);
    // The list shows `responses` null; everything else as the PATCH answered it.
    expect(after.get(fx.bookings.scratch2.uid)).toEqual({ ...patched, responses: null });
    expect(after.get(fx.bookings.ownerLater.uid)).toMatchObject({ version: 1 });
    expect(await stop(second)).toBe(0);
  });

  it('a changed entry updates what it names; a bad file writes nothing', async () => {
    const dbPath = tempDbPath();
    const first = await start(['--workspace', workspaceFile, '--db', dbPath]);
    const before = await ownerBookings(first);
    expect(await stop(first)).toBe(0);

    const bookings = fx.workspace.bookings as Record<string, any>[];
    const target = fx.bookings.ownerLater;
    const renamed = bookings.map((x) => (x.uid === target.uid ? { ...x, attendee: { ...x.attendee, name: 'Erin Renamed' } } : x));

    // The rename together with a broken reference: refused whole.
    const broken = {
      ...fx.workspace,
      bookings: renamed,
      tokens: [...(fx.workspace.tokens as unknown[]), { name: 'x', user: 'ghost', secret: 'ghost-secret-0000000', scopes: [] }],
    };
    const run = await runServeToExit(['--workspace', writeWorkspace(broken), '--db', dbPath]);
    expect(run).toMatchObject({ code: 2, listened: false });
    expect(run.stderr).toContain(`tokens[${(fx.workspace.tokens as unknown[]).length}].user`);

    const unchanged = await start(['--workspace', workspaceFile, '--db', dbPath]);
    expect(await ownerBookings(unchanged)).toEqual(before);
    expect(await stop(unchanged)).toBe(0);

    const changed = await start(['--workspace', writeWorkspace({ ...fx.workspace, bookings: renamed }), '--db', dbPath]);
    const after = await ownerBookings(changed);
    expect(after.get(target.uid).attendees).toEqual([{ email: target.attendeeEmail, name: 'Erin Renamed', timezone: 'Europe/London' }]);
    expect(after.get(target.uid).version).toBeGreaterThan(1);
    expect(after.get(target.uid).updated_at > before.get(target.uid).updated_at).toBe(true);
    for (const [uid, booking] of before) if (uid !== target.uid) expect(after.get(uid)).toEqual(booking);
    expect(await stop(changed)).toBe(0);
  });
});
