import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, jsonOf, objectLines, runCli, success, tsv } from './support/cli-run.js';
import { HAS_SCRIPT, runCliOnTty } from './support/cli-tty.js';
import { startInProcess } from './support/in-process.js';
import { authorizeAsHost, setUserPassword, TestBrowser } from './support/oauth-browser.js';
import { type TestServer, tempDir } from './support/serve.js';

// Issue 15: `schedule oauth-clients create|list|revoke` on the server's
// database, and the workspace file's `oauth_clients[]`. A confidential
// client's secret is printed once, at creation; list never shows it. The
// clients people authorized through the real sign-in and consent pages are
// listed with who authorized them, and revoked for one person or everyone.

const ALICE = 'd1000000-0000-4000-8000-000000000001';
const BOB = 'd1000000-0000-4000-8000-000000000002';
const PASSWORD = 'juniper-kettle-77';
const DESKTOP = { client_id: 'desktop-app', client_name: 'Desktop app', redirect_uris: ['http://127.0.0.1/callback'] };
/** `client_id_issued_at` is in seconds, so a creation time has no milliseconds. */
const ISSUED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/;

const workspace = (clients: readonly object[]) => ({
  // This suite opens the pages and signs in more often in a minute than anyone unknown may.
  limits: { sign_in_per_minute: 1000, oauth_authorize_per_minute: 1000, anonymous_per_minute: 1000, oauth_pages_per_minute: 1000 },
  users: [
    { id: ALICE, username: 'alice', email: 'alice@clients.test' },
    { id: BOB, username: 'bob', email: 'bob@clients.test' },
  ],
  oauth_clients: clients,
});

let dir = '';
let db = '';
let workspaceFile = '';
let server: TestServer;

/** `schedule <args> --db <the suite's file>`. */
const local = (args: readonly string[]) => runCli([...args, '--db', db]);

function writeWorkspaceFile(clients: readonly object[]): void {
  writeFileSync(workspaceFile, JSON.stringify(workspace(clients)));
}

/** A host allows `clientId` access on the real pages (PKCE, as every client must): afterwards the client has their grant. */
async function authorize(username: string, clientId: string, redirectUri: string): Promise<void> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL('/v1/oauth/authorize', server.url);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'bookings:read slots:read',
    state: 'st',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const { redirectedTo } = await authorizeAsHost(new TestBrowser(server.url), url.toString(), { username, password: PASSWORD });
  expect(redirectedTo.searchParams.get('code')).toEqual(expect.any(String));
}

beforeAll(async () => {
  dir = tempDir('schedule-cli-oauth-clients-');
  db = join(dir, 'schedule.db');
  workspaceFile = join(dir, 'workspace.json');
  writeWorkspaceFile([DESKTOP]);
  expect(await runCli(['oauth-clients', 'list', '--workspace', workspaceFile, '--db', db, '--json'])).toMatchObject({ code: 0 });
  await setUserPassword(db, 'alice', PASSWORD);
  await setUserPassword(db, 'bob', PASSWORD);
  server = await startInProcess({ db });
});

afterAll(async () => {
  await server?.stop();
});

describe('oauth-clients with the workspace file', () => {
  it("lists the file's client as a public one an operator registered, with nobody having authorized it yet", async () => {
    const listed = jsonOf(await local(['oauth-clients', 'list', '--json']));
    expect(listed).toEqual([
      {
        client_id: 'desktop-app',
        client_name: 'Desktop app',
        redirect_uris: ['http://127.0.0.1/callback'],
        kind: 'public',
        registered: 'operator',
        created_at: expect.stringMatching(ISSUED_AT),
        grants: [],
      },
    ]);
    expect(await local(['oauth-clients', 'list'])).toEqual(success(tsv([['desktop-app', 'Desktop app', 'public', 'operator', '']])));
  });

  it('a changed entry, loaded again, updates the client in place', async () => {
    const before = jsonOf(await local(['oauth-clients', 'list', '--json']))[0];
    writeWorkspaceFile([{ ...DESKTOP, client_name: 'Desktop app 2' }]);
    const after = jsonOf(await local(['oauth-clients', 'list', '--json', '--workspace', workspaceFile]));
    expect(after).toEqual([{ ...before, client_name: 'Desktop app 2' }]);
    writeWorkspaceFile([DESKTOP]);
    expect(jsonOf(await local(['oauth-clients', 'list', '--json', '--workspace', workspaceFile]))).toEqual([before]);
  });

  it("a bad entry is refused with the loader's lines (exit 2), and nothing of the file is loaded", async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        users: [{ username: 'carol', email: 'carol@clients.test' }],
        oauth_clients: [{ client_id: 'has space', client_name: 'X', redirect_uris: ['https://x.example/cb'] }, DESKTOP, DESKTOP],
      }),
    );
    expect(await local(['oauth-clients', 'list', '--workspace', bad])).toEqual(
      failure(2, 'usage', 'invalid workspace:\n  oauth_clients[0].client_id: must be 1 to 100 letters, digits, dot, dash or underscore'),
    );
    writeFileSync(bad, JSON.stringify({ users: [{ username: 'carol', email: 'carol@clients.test' }], oauth_clients: [DESKTOP, DESKTOP] }));
    expect(await local(['oauth-clients', 'list', '--workspace', bad])).toEqual(
      failure(2, 'usage', 'invalid workspace:\n  oauth_clients[1].client_id: "desktop-app" appears twice'),
    );
    expect(await local(['passwords', 'clear', '--user', 'carol'])).toEqual(failure(3, 'not_found', 'No user "carol".'));
  });
});

describe('oauth-clients create, list and revoke', () => {
  let publicId = '';
  let confidentialId = '';
  let secret = '';

  it('create registers a public client and prints it as key<TAB>value lines, without a secret', async () => {
    const run = await local(['oauth-clients', 'create', '--name', 'Phone app', '--redirect-uri', 'com.example.phone:/oauth']);
    publicId = /^client_id\t(app_[\w-]+)$/m.exec(run.stdout)?.[1] ?? '';
    const createdAt = /^created_at\t(.*)$/m.exec(run.stdout)?.[1] ?? '';
    expect(publicId).toMatch(/^app_[A-Za-z0-9_-]{16}$/);
    expect(createdAt).toMatch(ISSUED_AT);
    expect(run).toEqual(
      success(
        objectLines({
          client_id: publicId,
          client_name: 'Phone app',
          redirect_uris: ['com.example.phone:/oauth'],
          kind: 'public',
          registered: 'operator',
          created_at: createdAt,
        }),
      ),
    );
  });

  it('create --confidential --json prints the client and its secret once; every --redirect-uri is kept, commas and all', async () => {
    const printed = jsonOf(
      await local([
        'oauth-clients',
        'create',
        '--name',
        'CRM',
        '--redirect-uri',
        'https://crm.example/callback',
        '--redirect-uri',
        'https://crm.example/cb?a=1,2',
        '--confidential',
        '--json',
      ]),
    );
    expect(printed).toEqual({
      client_id: expect.stringMatching(/^app_[A-Za-z0-9_-]{16}$/),
      client_name: 'CRM',
      redirect_uris: ['https://crm.example/callback', 'https://crm.example/cb?a=1,2'],
      kind: 'confidential',
      registered: 'operator',
      created_at: expect.stringMatching(ISSUED_AT),
      client_secret: expect.stringMatching(/^sec_[A-Za-z0-9_-]{43}$/),
    });
    confidentialId = printed.client_id;
    secret = printed.client_secret;
  });

  it('list shows every client (never a secret), and who authorized each once hosts have', async () => {
    await authorize('alice', 'desktop-app', 'http://127.0.0.1/callback');
    await authorize('bob', 'desktop-app', 'http://127.0.0.1/callback');
    await authorize('alice', confidentialId, 'https://crm.example/callback');

    const tsvRun = await local(['oauth-clients', 'list']);
    const jsonRun = await local(['oauth-clients', 'list', '--json']);
    const all = jsonOf(jsonRun) as { client_id: string; client_name: string; kind: string; registered: string }[];
    // Listed by client id.
    expect(all.map((c) => c.client_id)).toEqual(['desktop-app', confidentialId, publicId].sort());
    const authorizedBy: Record<string, string> = { 'desktop-app': 'alice,bob', [confidentialId]: 'alice', [publicId]: '' };
    expect(tsvRun).toEqual(success(tsv(all.map((c) => [c.client_id, c.client_name, c.kind, c.registered, authorizedBy[c.client_id]]))));
    const desktop = all.find((c) => c.client_id === 'desktop-app') as unknown as { grants: unknown[] };
    const grant = (userId: string, username: string) => ({
      grant_id: expect.any(String),
      client_id: 'desktop-app',
      user: { user_id: userId, username },
      resources: { [server.url]: ['bookings:read', 'slots:read'] },
      created_at: expect.stringMatching(ISSUED_AT),
    });
    expect(desktop.grants).toEqual(expect.arrayContaining([grant(ALICE, 'alice'), grant(BOB, 'bob')]));
    expect(desktop.grants).toHaveLength(2);
    for (const text of [tsvRun.stdout, jsonRun.stdout]) expect(text).not.toContain(secret);
  });

  it('list --user shows only the clients that user authorized, with only their grants', async () => {
    const mine = jsonOf(await local(['oauth-clients', 'list', '--user', 'bob', '--json']));
    expect(mine).toEqual([
      expect.objectContaining({ client_id: 'desktop-app', grants: [expect.objectContaining({ user: { user_id: BOB, username: 'bob' } })] }),
    ]);
    expect(await local(['oauth-clients', 'list', '--user', BOB])).toEqual(
      success(tsv([['desktop-app', 'Desktop app', 'public', 'operator', 'bob']])),
    );
    expect(await local(['oauth-clients', 'list', '--user', 'nobody'])).toEqual(failure(3, 'not_found', 'No user "nobody".'));
  });

  it("revoke --user ends only that user's grants: the client stays, and the other user's grant too", async () => {
    expect(await local(['oauth-clients', 'revoke', 'desktop-app', '--user', 'alice'])).toEqual(
      success(objectLines({ client_id: 'desktop-app', username: 'alice', grants_revoked: 1, client_removed: false })),
    );
    const desktop = jsonOf(await local(['oauth-clients', 'list', '--json'])).find(
      (c: { client_id: string }) => c.client_id === 'desktop-app',
    );
    expect(desktop.grants.map((g: { user: { username: string } }) => g.user.username)).toEqual(['bob']);
    expect(jsonOf(await local(['oauth-clients', 'revoke', 'desktop-app', '--user', 'alice', '--json']))).toEqual({
      client_id: 'desktop-app',
      username: 'alice',
      grants_revoked: 0,
      client_removed: false,
    });
  });

  it('revoke without --user ends every grant and removes the client', async () => {
    expect(jsonOf(await local(['oauth-clients', 'revoke', confidentialId, '--json']))).toEqual({
      client_id: confidentialId,
      username: null,
      grants_revoked: 1,
      client_removed: true,
    });
    const left = jsonOf(await local(['oauth-clients', 'list', '--json'])).map((c: { client_id: string }) => c.client_id);
    expect(left).toEqual(['desktop-app', publicId].sort());
  });

  it('revoke of an unknown client (or one already removed) exits 3 naming it; an unknown --user exits 3 naming them', async () => {
    expect(await local(['oauth-clients', 'revoke', 'nope'])).toEqual(failure(3, 'not_found', 'No OAuth client "nope".'));
    expect(await local(['oauth-clients', 'revoke', confidentialId])).toEqual(
      failure(3, 'not_found', `No OAuth client "${confidentialId}".`),
    );
    expect(await local(['oauth-clients', 'revoke', 'desktop-app', '--user', 'nobody'])).toEqual(
      failure(3, 'not_found', 'No user "nobody".'),
    );
  });
});

describe('oauth-clients refusals', () => {
  it('create refuses a redirect URI that is not a URL and an empty name, naming the flags (exit 2); nothing is registered', async () => {
    const before = await local(['oauth-clients', 'list']);
    expect(await local(['oauth-clients', 'create', '--name', '', '--redirect-uri', 'not a url'])).toEqual(
      failure(2, 'validation_error', '--name: Too small: expected string to have >=1 characters; --redirect-uri: Invalid URL'),
    );
    expect(await local(['oauth-clients', 'create', '--name', 'X'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error usage: required option '--redirect-uri <uri>' not specified\n(run with --help for usage)\n",
    });
    expect(await local(['oauth-clients', 'list'])).toEqual(before);
  });

  it('with --api-url every oauth-clients command exits 2: clients live in the server database', async () => {
    const usage = failure(2, 'usage', "OAuth clients are kept on the server's database: use --db (or $DATABASE_URL), not --api-url.");
    const runs = await Promise.all(
      [['create', '--name', 'X', '--redirect-uri', 'https://x.example/cb'], ['list'], ['revoke', 'desktop-app']].map((args) =>
        runCli(['oauth-clients', ...args, '--api-url', server.url]),
      ),
    );
    for (const run of runs) expect(run).toEqual(usage);
  });
});

describe.skipIf(!HAS_SCRIPT)('oauth-clients on a terminal', () => {
  it('create says what it registered in one line, the secret in it and a note that it is shown once; revoke says what ended', async () => {
    const created = await runCliOnTty([
      'oauth-clients',
      'create',
      '--name',
      'Ledger',
      '--redirect-uri',
      'https://l.example/cb',
      '--confidential',
      '--db',
      db,
    ]);
    expect(created.code).toBe(0);
    expect(created.screen).toMatch(
      /^✓ Registered confidential app Ledger · client_id (app_[\w-]{16}) · client_secret sec_[\w-]{43}\nThe secret is shown this once: oauth-clients list never shows it\. Give it to the app now\.\n$/,
    );
    const clientId = /client_id (app_[\w-]{16})/.exec(created.screen)![1]!;
    const revoked = await runCliOnTty(['oauth-clients', 'revoke', clientId, '--db', db]);
    expect(revoked).toMatchObject({ code: 0, screen: `✓ Revoked ${clientId} for everyone: 0 grants ended, and the client removed\n` });
    const forOne = await runCliOnTty(['oauth-clients', 'revoke', 'desktop-app', '--user', 'bob', '--db', db]);
    expect(forOne).toMatchObject({ code: 0, screen: '✓ Revoked desktop-app for bob: 1 grant ended\n' });
  });

  it('list is a table with a heading; nobody having authorized a client shows as -', async () => {
    const run = await runCliOnTty(['oauth-clients', 'list', '--user', 'bob', '--db', db]);
    expect(run).toMatchObject({ code: 0, screen: 'nothing to show\n' });
    const all = await runCliOnTty(['oauth-clients', 'list', '--db', db]);
    const lines = all.screen.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CLIENT_ID +NAME +KIND +REGISTERED +AUTHORIZED BY$/);
    expect(lines).toContainEqual(expect.stringMatching(/^desktop-app +Desktop app +public +operator +-$/));
    // Aligned: every column starts where its heading does.
    const at = (line: string, text: string) => line.indexOf(text);
    const row = lines.find((l) => l.startsWith('desktop-app'))!;
    expect([at(row, 'Desktop app'), at(row, 'public'), at(row, 'operator')]).toEqual([
      at(lines[0]!, 'NAME'),
      at(lines[0]!, 'KIND'),
      at(lines[0]!, 'REGISTERED'),
    ]);
  });
});
