import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { api, expectError } from './support/http.js';
import { TestBrowser } from './support/oauth-browser.js';
import { runServeToExit, type ServerProcess, startServer, tempDir } from './support/serve.js';

// Issue 11, "Safety first": the demo's tokens are printed in the README, so
// anyone can use them. `npm start` must serve the demo from a database of its
// own, fresh on every start, and no server on the user's own database may
// ever accept a demo token.

const here = dirname(fileURLToPath(import.meta.url));
const DEMO_WORKSPACE = resolve(here, '../demo/workspace.json');
const ALICE = 'pat_demo_alice_0123456789';
/** What the demo's hint prints (packages/cli/src/demo-tokens.ts). */
const PUBLIC_DEMO_PASSWORD = 'demo-password';
const INTRO = '0b7d2a4e-3c1f-4e8a-9d2b-7a1c5e9f3b10';

/** The user's machine: its own data directory, where the default database lives. */
function machine() {
  const dataHome = tempDir('schedule-demo-home-');
  return { XDG_DATA_HOME: dataHome, defaultDb: join(dataHome, 'schedule', 'schedule.db') };
}

const running: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});
async function serve(args: string[], env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(args, env);
  running.push(server);
  return server;
}

/** The tour's booking: the first free intro call from tomorrow on, with the tour's key (the demo's dates follow today). */
async function bookOnce(url: string) {
  const from = new Date(Date.now() + 86_400_000);
  const to = new Date(from.getTime() + 7 * 86_400_000);
  const slots = await api(url, `/v1/slots?event_type_id=${INTRO}&start=${from.toISOString()}&end=${to.toISOString()}`, { token: ALICE });
  const start = slots.body.data.slots[0].start;
  const booking = { event_type_id: INTRO, start, attendee: { email: 'kim@example.com', name: 'Kim' } };
  return api(url, '/v1/bookings', { method: 'POST', token: ALICE, headers: { 'idempotency-key': 'tour-2' }, json: booking });
}

describe('the demo (npm start)', () => {
  it('the demo workspace file says it is a demo, and which week its dates were written for (a Monday)', () => {
    const { demo } = JSON.parse(readFileSync(DEMO_WORKSPACE, 'utf8'));
    expect(demo).toEqual({ week_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(new Date(`${demo.week_of}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it('serves the demo with its tokens, fresh on every start, and leaves the default database without them', async () => {
    const { defaultDb: _, ...env } = machine();
    const first = await serve(['--demo', '--workspace', DEMO_WORKSPACE], env);
    await expect.poll(() => first.output().stdout).toContain('in-memory database');
    const booked = await bookOnce(first.url);
    expect(booked.status, booked.text).toBe(201);
    expect(booked.headers.get('idempotent-replayed')).toBeNull();
    await first.stop();
    running.length = 0;

    // The tour runs again: the second start has none of the first one's bookings or keys.
    const second = await serve(['--demo', '--workspace', DEMO_WORKSPACE], env);
    const again = await bookOnce(second.url);
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    await second.stop();
    running.length = 0;

    // The user's own server, on the default database, does not know the demo token.
    const own = await serve([], env);
    expectError(await api(own.url, '/v1/bookings', { token: ALICE }), 401, 'unauthorized');
  });

  it('lets a first-time user sign in on the OAuth pages with the printed demo password', async () => {
    const { defaultDb: _, ...env } = machine();
    const server = await serve(['--demo', '--workspace', DEMO_WORKSPACE], env);
    await expect.poll(() => server.output().stdout).toContain(`it signs you in through the browser (OAuth)`);
    expect(server.output().stdout).toContain(`with the password ${PUBLIC_DEMO_PASSWORD};`);
    const browser = new TestBrowser(server.url);
    const signInPage = await browser.open('/oauth/sign-in');
    const apps = await browser.submit(signInPage, { username: 'alice', password: PUBLIC_DEMO_PASSWORD });
    expect(apps.status).toBe(200);
    expect(apps.body).toContain('Signed in as <strong>alice</strong>.');
  });

  it('a demo workspace without --demo is refused before any database is touched (exit 2)', async () => {
    const { defaultDb, ...env } = machine();
    const run = await runServeToExit(['--workspace', DEMO_WORKSPACE], env);
    expect(run.listened).toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a demo workspace: its tokens are public. Run it with --demo');
    expect(() => readFileSync(defaultDb)).toThrow();
  });

  it('a database that holds the demo tokens from before (loaded without the demo flag) has them revoked on start', async () => {
    const { defaultDb: _, ...env } = machine();
    const { demo: __, ...copy } = JSON.parse(readFileSync(DEMO_WORKSPACE, 'utf8'));
    const file = join(tempDir('schedule-demo-copy-'), 'old-demo.json');
    writeFileSync(file, JSON.stringify(copy));
    const server = await serve(['--workspace', file], env);
    expectError(await api(server.url, '/v1/bookings', { token: ALICE }), 401, 'unauthorized');
  });
});
