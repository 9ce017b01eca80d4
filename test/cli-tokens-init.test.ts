import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMESTAMP } from './support/booking-view.js';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { failure, jsonOf, objectLines, runCli, success, tsv } from './support/cli-run.js';
import { SERIES_SECRETS, SERIES_USERS, seriesWorkspace } from './support/series-workspace.js';
import { tempDir } from './support/serve.js';
import { ALL_SCOPES } from './support/workspace.js';

// Issue 6: `schedule tokens create|list|revoke` work on the local database
// only (embedded); a token they make works at once as SCHEDULE_TOKEN, in
// embedded mode and over HTTP from a server on that database, and stops
// working when revoked. `schedule init` writes a starter workspace whose
// printed token the CLI accepts.

const SORTED_SCOPES = [...ALL_SCOPES].sort().join(',');

let modes: CliModes;
/** `schedule <args> --db <the embedded file>`, with no SCHEDULE_TOKEN: the token commands need the database, not a token. */
const local = (args: readonly string[]) => modes.embedded.run(args, { token: null });

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), SERIES_SECRETS.ora);
});

afterAll(async () => {
  await modes?.stop();
});

describe('tokens (embedded only)', () => {
  let secret = '';
  let laptopId = '';

  it('tokens create prints the token as key<TAB>value lines with its secret last (once), exit 0; no SCHEDULE_TOKEN needed', async () => {
    const run = await local(['tokens', 'create', '--user', 'hal', '--name', 'laptop', '--scope', 'bookings:read', '--scope', 'slots:read']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const fields = Object.fromEntries(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')),
    );
    expect(Object.keys(fields)).toEqual(['id', 'name', 'user', 'scopes', 'kind', 'created_at', 'expires_at', 'revoked_at', 'secret']);
    secret = fields.secret;
    laptopId = fields.id;
    expect(secret.length).toBeGreaterThanOrEqual(16);
    const listed = jsonOf(await local(['tokens', 'list', '--json'])).find((t: { id: string }) => t.id === laptopId);
    expect(listed).toEqual({
      id: laptopId,
      name: 'laptop',
      user: { user_id: SERIES_USERS.hal, username: 'hal' },
      scopes: ['bookings:read', 'slots:read'],
      kind: 'pat',
      created_at: expect.stringMatching(TIMESTAMP),
      expires_at: null,
      revoked_at: null,
    });
    expect(run.stdout).toBe(objectLines({ ...listed, secret }));
  });

  it('the new secret works as SCHEDULE_TOKEN: whoami embedded, and remote against a server on the same database', async () => {
    const runs = {
      embedded: await modes.embedded.run(['whoami'], { token: secret }),
      remote: await runCli(['whoami', '--api-url', modes.embedded.api], { env: { SCHEDULE_TOKEN: secret } }),
    };
    const expected = success(
      tsv([
        ['user_id', SERIES_USERS.hal],
        ['username', 'hal'],
        ['name', 'Hal Host'],
        ['email', 'hal@series.test'],
        ['timezone', 'Asia/Tokyo'],
        ['role', 'user'],
        ['credential', 'pat'],
        ['scopes', 'bookings:read,slots:read'],
        ['acts_for', SERIES_USERS.hal],
      ]),
    );
    expectSameInBothModes(modes, runs, () => expected);
  });

  it('the new token has only its scopes: series list exits 4 with error insufficient_scope', async () => {
    const run = await modes.embedded.run(['series', 'list'], { token: secret });
    expect(run).toEqual(failure(4, 'insufficient_scope', 'This token lacks the scope series:read.'));
  });

  it('tokens create --json prints the token and its secret as one object', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const run = await local([
      'tokens',
      'create',
      '--user',
      SERIES_USERS.ora,
      '--name',
      'ci',
      '--scope',
      'series:read,series:write',
      '--expires-at',
      expiresAt,
      '--json',
    ]);
    const printed = jsonOf(run);
    expect(printed).toEqual({
      id: expect.any(String),
      name: 'ci',
      user: { user_id: SERIES_USERS.ora, username: 'ora' },
      scopes: ['series:read', 'series:write'],
      kind: 'pat',
      created_at: expect.stringMatching(TIMESTAMP),
      expires_at: expiresAt,
      revoked_at: null,
      secret: expect.any(String),
    });
    expect(run.stderr).toBe('');
  });

  it('tokens list prints one line per token (id, name, user, scopes, state, created), oldest first, and never a secret', async () => {
    const tsvRun = await local(['tokens', 'list']);
    const jsonRun = await local(['tokens', 'list', '--json']);
    const all = jsonOf(jsonRun) as { id: string; name: string; user: { username: string }; scopes: string[]; created_at: string }[];
    // Oldest first; the workspace's three were loaded at one instant, so their id breaks the tie.
    expect(all.map((t) => t.name).slice(3)).toEqual(['laptop', 'ci']);
    expect(
      all
        .map((t) => t.name)
        .slice(0, 3)
        .sort(),
    ).toEqual(['hal', 'ora', 'ora-read']);
    expect(all).toEqual([...all].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)));
    expect(tsvRun).toEqual(success(tsv(all.map((t) => [t.id, t.name, t.user.username, t.scopes.join(','), 'active', t.created_at]))));
    for (const text of [tsvRun.stdout, jsonRun.stdout]) {
      expect(text).not.toContain(secret);
      for (const workspaceSecret of Object.values(SERIES_SECRETS)) expect(text).not.toContain(workspaceSecret);
    }
  });

  it('tokens revoke prints the revoked token; the secret then exits 4 with error unauthorized, embedded and remote', async () => {
    const run = await local(['tokens', 'revoke', 'laptop']);
    const revoked = jsonOf(await local(['tokens', 'list', '--json'])).find((t: { id: string }) => t.id === laptopId);
    expect(revoked.revoked_at).toMatch(TIMESTAMP);
    expect(run).toEqual(success(objectLines(revoked)));
    const again = await local(['tokens', 'revoke', laptopId]);
    expect(again).toEqual(run);
    const runs = {
      embedded: await modes.embedded.run(['whoami'], { token: secret }),
      remote: await runCli(['whoami', '--api-url', modes.embedded.api], { env: { SCHEDULE_TOKEN: secret } }),
    };
    for (const name of MODE_NAMES) {
      expect(runs[name]).toMatchObject({ code: 4, stdout: '' });
      expect(runs[name].stderr).toMatch(/^error unauthorized: [^\n]+\n$/);
    }
    const listed = await local(['tokens', 'list']);
    expect(
      listed.stdout
        .split('\n')
        .find((line) => line.startsWith(laptopId))
        ?.split('\t')[4],
    ).toBe('revoked');
  });

  it('with --api-url every tokens command exits 2: error usage (tokens are made on the local database)', async () => {
    const usage = failure(2, 'usage', "Tokens are made on the server's database: use --db (or $DATABASE_URL), not --api-url.");
    const runs = await Promise.all(
      [['create', '--user', 'hal', '--name', 'x', '--scope', 'slots:read'], ['list'], ['revoke', 'ora']].map((args) =>
        runCli(['tokens', ...args, '--api-url', modes.remote.api]),
      ),
    );
    for (const run of runs) expect(run).toEqual(usage);
  });

  it('an unknown user exits 3 (not_found), an unknown scope exits 2 (validation_error), a missing --scope exits 2 naming it', async () => {
    const [user, scope, missing, unknownToken] = await Promise.all([
      local(['tokens', 'create', '--user', 'nobody', '--name', 'x', '--scope', 'slots:read']),
      local(['tokens', 'create', '--user', 'hal', '--name', 'x', '--scope', 'slots:write']),
      local(['tokens', 'create', '--user', 'hal', '--name', 'x']),
      local(['tokens', 'revoke', 'nope']),
    ]);
    expect(user).toEqual(failure(3, 'not_found', 'No user "nobody".'));
    expect(scope).toEqual(failure(2, 'validation_error', `--scope: scopes must be some of: ${ALL_SCOPES.join(', ')}.`));
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: "error usage: required option '--scope <scopes>' not specified\n(run with --help for usage)\n",
    });
    expect(unknownToken).toEqual(failure(3, 'not_found', 'No token "nope".'));
  });
});

describe('init', () => {
  const dir = tempDir('schedule-cli-init-');
  const file = join(dir, 'starter.json');
  let token = '';

  const printed = (path: string, secret: string) =>
    [
      `wrote ${path}`,
      `token: ${secret}`,
      '',
      'Next:',
      `  schedule serve --workspace ${path}`,
      `  SCHEDULE_TOKEN=${secret} schedule whoami --workspace ${path}`,
      '',
    ].join('\n');

  it('writes a starter workspace and prints its token; schedule whoami --workspace <it> --db <new file> accepts that token', async () => {
    const run = await runCli(['init', '--file', file, '--username', 'kim', '--timezone', 'Asia/Tokyo']);
    token = /^token: (\S+)$/m.exec(run.stdout)?.[1] ?? '';
    expect(run).toEqual(success(printed(file, token)));
    expect(readFileSync(file, 'utf8')).toContain(token);
    const whoami = await runCli(['whoami', '--workspace', file, '--db', join(dir, 'init.db')], { env: { SCHEDULE_TOKEN: token } });
    expect(whoami.stdout.split('\n')[0]).toMatch(/^user_id\t[0-9a-f-]{36}$/);
    expect(whoami).toEqual(
      success(
        whoami.stdout.split('\n')[0] +
          '\n' +
          tsv([
            ['username', 'kim'],
            ['name', 'kim'],
            ['email', 'kim@example.com'],
            ['timezone', 'Asia/Tokyo'],
            ['role', 'owner'],
            ['credential', 'pat'],
            ['scopes', SORTED_SCOPES],
            ['acts_for', 'organization'],
          ]),
      ),
    );
  });

  it('a second init without --force exits 2 (error usage) and leaves the file as it was; --force overwrites it with a new token', async () => {
    const before = readFileSync(file, 'utf8');
    const refused = await runCli(['init', '--file', file, '--username', 'other']);
    expect(refused).toEqual(failure(2, 'usage', `${file} exists; pass --force to overwrite it.`));
    expect(readFileSync(file, 'utf8')).toBe(before);
    const forced = await runCli(['init', '--file', file, '--username', 'kim', '--timezone', 'Asia/Tokyo', '--force']);
    const fresh = /^token: (\S+)$/m.exec(forced.stdout)?.[1] ?? '';
    expect(forced).toEqual(success(printed(file, fresh)));
    expect(fresh).not.toBe(token);
    expect(readFileSync(file, 'utf8')).toContain(fresh);
    expect(readFileSync(file, 'utf8')).not.toContain(token);
  });

  it('writes the file readable by its owner only (0600), also when --force overwrites a wider one', async () => {
    const wide = join(dir, 'wide.json');
    writeFileSync(wide, '{}', { mode: 0o644 });
    chmodSync(wide, 0o644);
    await runCli(['init', '--file', wide, '--force']);
    expect(statSync(wide).mode & 0o777).toBe(0o600);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('with no flags writes workspace.json in the current directory, for $USER in the machine zone ($TZ)', async () => {
    const cwd = tempDir('schedule-cli-init-cwd-');
    const run = await runCli(['init'], { cwd, env: { USER: 'robin', TZ: 'Europe/Paris' } });
    const secret = /^token: (\S+)$/m.exec(run.stdout)?.[1] ?? '';
    expect(run).toEqual(success(printed('workspace.json', secret)));
    const written = JSON.parse(readFileSync(join(cwd, 'workspace.json'), 'utf8'));
    expect(written.users.map((u: { username: string; timezone: string }) => [u.username, u.timezone])).toEqual([['robin', 'Europe/Paris']]);
  });
});
