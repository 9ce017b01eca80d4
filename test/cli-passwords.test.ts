import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, runCli, success } from './support/cli-run.js';
import { HAS_SCRIPT, runCliOnTty } from './support/cli-tty.js';
import { startInProcess } from './support/in-process.js';
import { TestBrowser } from './support/oauth-browser.js';
import { type TestServer, tempDir, writeWorkspace } from './support/serve.js';

// Issue 15: `schedule passwords set|clear` on the server's database. The
// password a host signs in with on the authorization pages reaches the CLI
// on stdin (--password-stdin) or typed twice at a terminal without echo,
// never as an argument; it never appears in the CLI's output. A cleared
// password no longer signs in, and the sign-ins open with it end.

const ALICE = 'c1000000-0000-4000-8000-000000000001';
const PASSWORD = 'plum-tree-ladder-41';
const OTHER = 'quiet harbour lantern';
const WORKSPACE = {
  // This suite opens the pages and signs in more often in a minute than anyone unknown may.
  limits: { sign_in_per_minute: 1000, oauth_authorize_per_minute: 1000, anonymous_per_minute: 1000, oauth_pages_per_minute: 1000 },
  users: [
    { id: ALICE, username: 'alice', email: 'alice@passwords.test' },
    { username: 'bob', email: 'bob@passwords.test' },
  ],
};

let db = '';
let server: TestServer;

/** `schedule <args> --db <the suite's file>`, with `input` on stdin. */
const local = (args: readonly string[], input?: string) => runCli([...args, '--db', db], input === undefined ? {} : { input });

/** Whether the sign-in page accepts the password: it sends a host to their connected apps, a wrong one gets the form again (401). */
async function signsIn(username: string, password: string, browser = new TestBrowser(server.url)): Promise<boolean> {
  const form = await browser.open('/oauth/sign-in');
  const page = await browser.submit(form, { username, password });
  if (page.status === 401) return false;
  expect(page).toMatchObject({ status: 200, url: `${server.url}/oauth/apps` });
  return true;
}

beforeAll(async () => {
  db = join(tempDir('schedule-cli-passwords-'), 'schedule.db');
  // The CLI loads the workspace, then a server on the same file serves the sign-in page.
  expect(await runCli(['oauth-clients', 'list', '--workspace', writeWorkspace(WORKSPACE), '--db', db])).toEqual(success(''));
  server = await startInProcess({ db });
});

afterAll(async () => {
  await server?.stop();
});

describe('passwords set --password-stdin', () => {
  it('sets the password from the first line of stdin and prints whose it is; the password then signs in, another does not', async () => {
    const run = await local(['passwords', 'set', '--user', 'alice', '--password-stdin'], `${PASSWORD}\n`);
    expect(run).toEqual(success('username\talice\n'));
    expect(await signsIn('alice', PASSWORD)).toBe(true);
    expect(await signsIn('alice', OTHER)).toBe(false);
  });

  it('--json prints {"username"}; a user named by id; a line ending in CRLF, and what follows the first line, are not part of it', async () => {
    const run = await local(['passwords', 'set', '--user', ALICE, '--password-stdin', '--json'], `${OTHER}\r\nignored second line\n`);
    expect(run).toEqual(success(`${JSON.stringify({ username: 'alice' }, null, 2)}\n`));
    expect(await signsIn('alice', OTHER)).toBe(true);
    expect(await signsIn('alice', PASSWORD)).toBe(false);
  });

  it('reads only the first line: a pipe left open after it does not keep the command waiting', async () => {
    const run = await runCli(['passwords', 'set', '--user', 'bob', '--password-stdin', '--db', db], {
      input: `${PASSWORD}\n`,
      stdinOpen: true,
    });
    expect(run).toEqual(success('username\tbob\n'));
    expect(await signsIn('bob', PASSWORD)).toBe(true);
  });

  it('refuses a password shorter than 10 or longer than 256 characters: exit 2, validation_error, and the old one still signs in', async () => {
    const refusal = failure(2, 'validation_error', 'A password must be 10 to 256 characters long.');
    expect(await local(['passwords', 'set', '--user', 'bob', '--password-stdin'], 'nine-char\n')).toEqual(refusal);
    expect(await local(['passwords', 'set', '--user', 'bob', '--password-stdin'], `${'x'.repeat(257)}\n`)).toEqual(refusal);
    expect(await signsIn('bob', PASSWORD)).toBe(true);
  });

  it('an unknown user exits 3 with not_found', async () => {
    expect(await local(['passwords', 'set', '--user', 'nobody', '--password-stdin'], `${PASSWORD}\n`)).toEqual(
      failure(3, 'not_found', 'No user "nobody".'),
    );
  });

  it('an empty stdin exits 2 naming the flag', async () => {
    expect(await local(['passwords', 'set', '--user', 'bob', '--password-stdin'], '')).toEqual(
      failure(2, 'usage', '--password-stdin read nothing: pipe the password in, on one line.'),
    );
  });

  it('never prints the password, on stdout or stderr, whatever the outcome', async () => {
    const runs = await Promise.all([
      local(['passwords', 'set', '--user', 'bob', '--password-stdin'], `${PASSWORD}\n`),
      local(['passwords', 'set', '--user', 'bob', '--password-stdin', '--json', '--verbose'], `${PASSWORD}\n`),
      local(['passwords', 'set', '--user', 'nobody', '--password-stdin', '--verbose'], `${PASSWORD}\n`),
      local(['passwords', 'set', '--user', 'bob', '--password-stdin', '--verbose'], `${PASSWORD.slice(0, 9)}\n`),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 3, 2]);
    for (const run of runs) {
      expect(run.stdout).not.toContain(PASSWORD.slice(0, 9));
      expect(run.stderr).not.toContain(PASSWORD.slice(0, 9));
    }
  });
});

describe('passwords set refusals', () => {
  it('piped without --password-stdin exits 2: it never prompts there, and never takes the password as an argument', async () => {
    expect(await local(['passwords', 'set', '--user', 'bob'], `${PASSWORD}\n`)).toEqual(
      failure(
        2,
        'usage',
        'Give the password on stdin with --password-stdin, or run this at a terminal to be asked for it; it is never an argument.',
      ),
    );
    const asArgument = await local(['passwords', 'set', '--user', 'bob', '--password', OTHER]);
    expect(asArgument).toEqual(
      failure(
        2,
        'usage',
        'A password is never an argument (shell history and ps would keep it): pipe it in with --password-stdin, or leave both out to be asked.',
      ),
    );
    expect(await signsIn('bob', OTHER)).toBe(false);
  });

  it('with --api-url set and clear exit 2: passwords live in the server database', async () => {
    const usage = failure(2, 'usage', "Passwords are set on the server's database: use --db (or $DATABASE_URL), not --api-url.");
    const runs = await Promise.all([
      runCli(['passwords', 'set', '--user', 'bob', '--password-stdin', '--api-url', server.url], { input: `${PASSWORD}\n` }),
      runCli(['passwords', 'clear', '--user', 'bob', '--api-url', server.url]),
    ]);
    for (const run of runs) expect(run).toEqual(usage);
  });
});

describe.skipIf(!HAS_SCRIPT)('passwords set at a terminal', () => {
  const ask = (first: string, again?: string) => [
    { after: 'New password for bob: ', keys: `${first}\r` },
    ...(again === undefined ? [] : [{ after: 'Type it again: ', keys: `${again}\r` }]),
  ];

  it('asks twice without echo and sets the password; nothing typed is shown', async () => {
    const run = await runCliOnTty(['passwords', 'set', '--user', 'bob', '--db', db], { answers: ask(OTHER, OTHER) });
    expect(run.code).toBe(0);
    expect(run.screen).toBe('New password for bob: \nType it again: \n✓ Set the sign-in password of bob\n');
    expect(await signsIn('bob', OTHER)).toBe(true);
  });

  it('two answers that differ exit 2 and change nothing', async () => {
    const run = await runCliOnTty(['passwords', 'set', '--user', 'bob', '--db', db], { answers: ask(PASSWORD, `${PASSWORD}x`) });
    expect(run.code).toBe(2);
    expect(run.screen).toBe('New password for bob: \nType it again: \nerror usage: The two passwords differ; nothing was changed.\n');
    expect(await signsIn('bob', OTHER)).toBe(true);
  });

  it('a password of the wrong length is refused after the first answer, without asking again', async () => {
    const run = await runCliOnTty(['passwords', 'set', '--user', 'bob', '--db', db], { answers: ask('short') });
    expect(run.code).toBe(2);
    expect(run.screen).toBe('New password for bob: \nerror validation_error: A password must be 10 to 256 characters long.\n');
  });

  it('backspace erases the last character typed, and Ctrl-C cancels (exit 1, canceled)', async () => {
    const erased = await runCliOnTty(['passwords', 'set', '--user', 'bob', '--db', db], {
      answers: ask(`${PASSWORD}zz\u007f\u007f`, PASSWORD),
    });
    expect(erased.code).toBe(0);
    expect(await signsIn('bob', PASSWORD)).toBe(true);
    const canceled = await runCliOnTty(['passwords', 'set', '--user', 'bob', '--db', db], {
      answers: [{ after: 'New password for bob: ', keys: 'abc\u0003' }],
    });
    expect(canceled.code).toBe(1);
    expect(canceled.screen).toBe('New password for bob: \nerror canceled: Canceled; nothing was changed.\n');
  });
});

describe('passwords clear', () => {
  it('clears the password: it no longer signs in, and a browser signed in with it is signed out', async () => {
    const browser = new TestBrowser(server.url);
    await local(['passwords', 'set', '--user', 'alice', '--password-stdin'], `${PASSWORD}\n`);
    expect(await signsIn('alice', PASSWORD, browser)).toBe(true);

    expect(await local(['passwords', 'clear', '--user', 'alice'])).toEqual(success('username\talice\n'));

    const apps = await browser.request('/oauth/apps');
    expect({ status: apps.status, location: apps.headers.get('location') }).toEqual({ status: 303, location: '/oauth/sign-in' });
    expect(await signsIn('alice', PASSWORD)).toBe(false);
  });

  it('--json prints {"username"}; clearing again is fine; an unknown user exits 3', async () => {
    expect(await local(['passwords', 'clear', '--user', ALICE, '--json'])).toEqual(
      success(`${JSON.stringify({ username: 'alice' }, null, 2)}\n`),
    );
    expect(await local(['passwords', 'clear', '--user', 'nobody'])).toEqual(failure(3, 'not_found', 'No user "nobody".'));
  });
});
