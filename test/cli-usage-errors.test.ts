import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, failure, jsonOf, runCli } from './support/cli-run.js';
import { SERIES_SECRETS, seriesWorkspace } from './support/series-workspace.js';
import { tempDir, writeWorkspace } from './support/serve.js';

// Issue 11, item 9: what a person can get wrong on the command line exits 2
// with one clear `error usage: …` line, never a stack or exit 1: an unknown
// --tz (piped too), a --workspace file that is not there (serve, mcp and the
// data commands), a port already taken (serve, mcp --http). A second token
// of a name exits 5 (the state of things refuses it, like a taken slot), and
// the tokens commands list only the flags they take.

const ORA = SERIES_SECRETS.ora;
let db: string;
let taken: Server;
let takenPort: number;

beforeAll(async () => {
  db = join(tempDir('schedule-cli-usage-'), 'usage.db');
  const loaded = await runCli(['whoami', '--workspace', writeWorkspace(seriesWorkspace()), '--db', db], { env: { SCHEDULE_TOKEN: ORA } });
  expect(loaded.code, loaded.stderr).toBe(0);
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => taken?.close(resolve));
});

const usage = (message: string): CliRun => failure(2, 'usage', message);

describe('--tz', () => {
  const unknownZone = usage('--tz Mars/Base is not a time zone; give an IANA name such as Europe/Berlin, or UTC.');

  it('an unknown zone exits 2 also when piped (times typed are read in it), with --json, and for the agenda', async () => {
    const runs = await Promise.all(
      [['bookings', 'list'], ['bookings', 'list', '--json'], ['agenda']].map((args) =>
        runCli([...args, '--tz', 'Mars/Base', '--db', db], { env: { SCHEDULE_TOKEN: ORA } }),
      ),
    );
    for (const run of runs) expect(run).toEqual(unknownZone);
  });

  it('is checked before anything opens: no token needed to be told', async () => {
    expect(await runCli(['whoami', '--tz', 'Mars/Base', '--db', db])).toEqual(unknownZone);
  });
});

describe('--workspace naming no file', () => {
  const missing = join(tempDir('schedule-cli-usage-ws-'), 'nope.json');
  const noFile = usage(`--workspace ${missing}: no such file.`);

  it('exits 2 for a data command, schedule serve, schedule mcp and schedule mcp --http', async () => {
    const runs = await Promise.all([
      runCli(['whoami', '--workspace', missing, '--db', join(tempDir(), 'a.db')], { env: { SCHEDULE_TOKEN: ORA } }),
      runCli(['serve', '--workspace', missing, '--db', ':memory:', '--port', '0']),
      runCli(['mcp', '--workspace', missing, '--db', ':memory:'], { env: { SCHEDULE_TOKEN: ORA } }),
      runCli(['mcp', '--http', '--workspace', missing, '--db', ':memory:', '--port', '0']),
    ]);
    for (const run of runs) expect(run).toEqual(noFile);
  });

  it('a directory exits 2 too', async () => {
    const dir = tempDir();
    expect(await runCli(['serve', '--workspace', dir, '--db', ':memory:', '--port', '0'])).toEqual(
      usage(`--workspace ${dir}: a directory, not a file.`),
    );
  });
});

describe('--port', () => {
  it('a port already in use exits 2 for serve and mcp --http, naming the address', async () => {
    const inUse = usage(`127.0.0.1:${takenPort} is already in use; stop what listens there, or pick another --port (0 picks a free one).`);
    const [serve, mcp] = await Promise.all([
      runCli(['serve', '--db', ':memory:', '--port', String(takenPort)]),
      runCli(['mcp', '--http', '--db', ':memory:', '--port', String(takenPort)]),
    ]);
    expect(serve).toEqual(inUse);
    expect(mcp).toEqual(inUse);
  });

  it('one that is not a port exits 2 before the database opens', async () => {
    const never = join(tempDir(), 'never.db');
    expect(await runCli(['serve', '--db', never, '--port', 'http'])).toEqual(
      usage('--port http is not a port; give a whole number from 1 to 65535, or 0 for a free one.'),
    );
  });
});

describe('tokens', () => {
  const local = (args: readonly string[]) => runCli([...args, '--db', db]);

  it('tokens create with the name of a token that exists (revoked or not) exits 5: error token_name_taken, and makes none', async () => {
    const made = await local(['tokens', 'create', '--user', 'hal', '--name', 'laptop', '--scope', 'slots:read']);
    expect(made.code, made.stderr).toBe(0);
    const again = await local(['tokens', 'create', '--user', 'gil', '--name', 'laptop', '--scope', 'slots:read']);
    expect(again).toEqual(failure(5, 'token_name_taken', 'A token named "laptop" exists already (perhaps revoked); give another --name.'));
    expect((await local(['tokens', 'revoke', 'laptop'])).code).toBe(0);
    const afterRevoke = await local(['tokens', 'create', '--user', 'gil', '--name', 'laptop', '--scope', 'slots:read']);
    expect(afterRevoke.code).toBe(5);
    // A workspace token's name counts as well.
    expect((await local(['tokens', 'create', '--user', 'hal', '--name', 'ora', '--scope', 'slots:read'])).code).toBe(5);
    const names = jsonOf(await local(['tokens', 'list', '--json'])).map((t: { name: string }) => t.name);
    expect(names.filter((n: string) => n === 'laptop')).toHaveLength(1);
  });

  it('the help of the tokens commands lists only the flags they take: no --api-url, no --token', async () => {
    const runs = await Promise.all(['create', 'list', 'revoke'].map((c) => runCli(['tokens', c, '--help'])));
    for (const run of runs) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain('  --db <url>');
      expect(run.stdout).not.toContain('--api-url');
      expect(run.stdout).not.toContain('--token');
    }
    const group = await runCli(['tokens', '--help']);
    expect(group.stdout).not.toContain('--api-url');
  });
});
