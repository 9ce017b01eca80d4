import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Real CalDAV servers from Debian's packages (`radicale`, `xandikos`; .ci/run
// installs both), started per test file on a free loopback port with a
// throwaway folder. Two servers, so the tests show we speak CalDAV rather
// than one server's dialect.

export type CalDavServerKind = 'radicale' | 'xandikos';

export interface CalDavServer {
  readonly kind: CalDavServerKind;
  /** The server's root, e.g. http://127.0.0.1:PORT/: what a user gives, discovery finds the rest. */
  readonly url: string;
  readonly port: number;
  /** The account every test uses. Xandikos checks no passwords (it has no authentication of its own). */
  readonly username: string;
  readonly password: string;
  /** A calendar of the account by its last path segment, created on first use: its URL. */
  calendar(name: string): Promise<string>;
  /** Radicale only: from now on the account's password is this one (the server reads its users file at each login). */
  changePassword(password: string): void;
  /** Stops the server (its data stays) so a test can see it down; `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const USER = 'alice';
const PASSWORD = 'correct horse battery staple';

/** A port free right now on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers at all; the servers take a moment to bind. */
async function untilAnswering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`CalDAV server exited with ${child.exitCode}: ${output()}`);
    try {
      await fetch(url, { method: 'OPTIONS', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`CalDAV server did not answer at ${url}: ${output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Starts a Radicale or Xandikos server with one user and an empty store. */
export async function startCalDavServer(kind: CalDavServerKind): Promise<CalDavServer> {
  const dir = mkdtempSync(join(tmpdir(), `schedule-${kind}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  let command: [string, string[]];
  if (kind === 'radicale') {
    writeFileSync(join(dir, 'users'), `${USER}:${PASSWORD}\n`);
    writeFileSync(
      join(dir, 'config'),
      [
        '[server]',
        `hosts = 127.0.0.1:${port}`,
        '[auth]',
        'type = htpasswd',
        `htpasswd_filename = ${join(dir, 'users')}`,
        'htpasswd_encryption = plain',
        // No delay after a wrong password: the tests try one on purpose.
        'delay = 0',
        '[storage]',
        `filesystem_folder = ${join(dir, 'store')}`,
        '[logging]',
        'level = warning',
      ].join('\n'),
    );
    command = ['radicale', ['--config', join(dir, 'config')]];
  } else {
    command = [
      'xandikos',
      ['-d', join(dir, 'store'), '-l', '127.0.0.1', '-p', String(port), '--autocreate', '--current-user-principal', `/${USER}/`],
    ];
  }

  let child: ChildProcess | undefined;
  let log = '';
  async function start(): Promise<void> {
    const started = spawn(command[0], command[1], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    started.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    await untilAnswering(url, started, () => log);
  }
  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await exited;
  }
  await start();

  const authorization = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  const created = new Map<string, Promise<string>>();
  const home = kind === 'radicale' ? `${url}${USER}/` : `${url}${USER}/calendars/`;
  if (kind === 'xandikos') {
    // Xandikos needs the principal and calendar home as collections, with the principal's properties.
    await fetch(`${url}${USER}/`, { method: 'MKCOL', headers: { authorization } });
    await fetch(home, { method: 'MKCOL', headers: { authorization } });
  }

  return {
    kind,
    url,
    port,
    username: USER,
    password: PASSWORD,
    calendar(name) {
      let made = created.get(name);
      if (!made) {
        made = (async () => {
          const target = `${home}${name}/`;
          const body = `<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>${name}</D:displayname></D:prop></D:set></C:mkcalendar>`;
          const response = await fetch(target, {
            method: 'MKCALENDAR',
            headers: { authorization, 'content-type': 'application/xml' },
            body,
          });
          if (response.status !== 201) throw new Error(`MKCALENDAR ${target}: ${response.status} ${await response.text()}`);
          return target;
        })();
        created.set(name, made);
      }
      return made;
    },
    changePassword(password) {
      if (kind !== 'radicale') throw new Error('only Radicale checks passwords');
      writeFileSync(join(dir, 'users'), `${USER}:${password}\n`);
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
