import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir } from './support/serve.js';

// Issue 11, "The CLI installs": the README's install step puts `schedule` on
// the PATH, the command packs into a tarball that installs on its own
// outside the checkout, and the core library installs and runs the README's
// embedding example. Issue 14: the typed client installs from its tarball and
// runs the README's example against `schedule serve` on the demo workspace.
// Installs go to temporary prefixes, never the machine's.

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')).version as string;
const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];
/** The machine's own Node when it is older than 22 (Debian's, where CI runs a newer one from .nvmrc). */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find(
  (path) => existsSync(path) && Number(execFileSync(path, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' })) < 22,
);

/** Packs a workspace package with `npm pack` and installs the tarball in a fresh app folder; returns the folder. */
async function installPacked(workspace: string, installFlags: string[] = []): Promise<string> {
  const out = tempDir('schedule-pack-');
  const { stdout } = await run('npm', ['pack', '-w', workspace, '--pack-destination', out, '--json', '--loglevel=error'], { cwd: ROOT });
  const tarball = join(out, JSON.parse(stdout)[0].filename);
  const app = tempDir('schedule-app-');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await run('npm', ['install', ...installFlags, tarball, ...NPM_QUIET], { cwd: app });
  return app;
}

/** Writes the README's js block marked `<!-- marker ... -->` to `app/example.mjs`. */
function writeReadmeExample(app: string, marker: string): void {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = new RegExp(`<!-- ${marker}[^>]*-->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  expect(example, `README.md has a js block marked ${marker}`).toBeDefined();
  writeFileSync(join(app, 'example.mjs'), example!);
}

const schedule = (prefix: string, args: string[], cwd = prefix) =>
  run(join(prefix, 'bin', 'schedule'), args, { cwd, env: { ...process.env, XDG_DATA_HOME: join(prefix, 'data') } });

describe('installing the schedule command', () => {
  it("the README's install step (npm install -g ./packages/cli) puts a working schedule on the PATH", async () => {
    const prefix = tempDir('schedule-global-');
    await run('npm', ['install', '-g', '--prefix', prefix, join(ROOT, 'packages/cli'), ...NPM_QUIET], { cwd: ROOT });
    const { stdout } = await schedule(prefix, ['--version']);
    expect(stdout.trim()).toBe(VERSION);
  });

  // Issue 29 item 10: better-sqlite3 13 crashes a Node older than 22, so the command refuses to start there.
  it.skipIf(!OLD_NODE)('on a Node older than 22 it says what it needs and exits 2, before loading anything', async () => {
    const refused = await run(OLD_NODE!, [join(ROOT, 'packages/cli/dist/bin.js'), '--version']).catch((error) => error);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^schedule needs Node\.js 22 or later \(24 LTS recommended\); this is v\d+\.\d+\.\d+\.\n$/);
  });

  it('npm run pack makes a tarball that installs globally outside the checkout and runs', async () => {
    const out = tempDir('schedule-pack-');
    const { stdout: packed } = await run('node', [join(ROOT, 'packages/cli/scripts/pack.mjs'), out]);
    const tarball = packed.trim();
    expect(tarball).toBe(join(out, `schedule-cli-${VERSION}.tgz`));
    const manifest = JSON.parse((await run('tar', ['-xOzf', tarball, 'package/package.json'])).stdout);
    expect(manifest.engines).toEqual(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines);
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['better-sqlite3', 'ioredis', 'pg', 'swagger-ui-dist', 'undici']);

    const prefix = tempDir('schedule-installed-');
    // A plain install, as a user runs it: better-sqlite3 13 carries its Node-API binaries in the package, so nothing compiles.
    await run('npm', ['install', '-g', '--prefix', prefix, tarball, ...NPM_QUIET], { cwd: prefix });
    expect((await schedule(prefix, ['--version'])).stdout.trim()).toBe(VERSION);
    // GET /docs reads the renderer's files from disk: they install beside the bundle.
    expect(existsSync(join(prefix, 'lib/node_modules/@schedule/cli/node_modules/swagger-ui-dist/swagger-ui-bundle.js'))).toBe(true);

    // A real command on SQLite: a starter workspace, and its token read back.
    const init = await schedule(prefix, ['init', '--file', 'ws.json', '--username', 'kim', '--timezone', 'UTC']);
    const token = /^token: (\S+)$/m.exec(init.stdout)?.[1] ?? '';
    const whoami = await run(join(prefix, 'bin', 'schedule'), ['whoami', '--workspace', 'ws.json', '--db', 'own.db', '--json'], {
      cwd: prefix,
      env: { ...process.env, SCHEDULE_TOKEN: token },
    });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ username: 'kim', role: 'owner' });
  }, 120_000);
});

describe('embedding @schedule/core', () => {
  // Issue 13: the drivers of PostgreSQL, Redis and calendar feeds are optional peers of core; issue 16 adds SMTP's.
  const DRIVERS = ['ical.js', 'ioredis', 'nodemailer', 'pg', 'undici'];
  let app: string;

  beforeAll(async () => {
    app = await installPacked('@schedule/core');
  }, 120_000);

  it("installs from its tarball and runs the README's embedding example", async () => {
    writeReadmeExample(app, 'embedding-example');
    const ran = await run('node', ['example.mjs'], { cwd: app });
    expect(ran.stdout).toMatch(/^201 confirmed \d{4}-\d{2}-\d{2}T10:00:00\.000Z\n$/);
  });

  it('installs none of the optional drivers, and its types name none of them', () => {
    expect(DRIVERS.filter((name) => existsSync(join(app, 'node_modules', name)))).toEqual([]);
    // A type check with skipLibCheck off reads every declaration the entry point reaches.
    const core = join(app, 'node_modules/@schedule/core/dist');
    const named = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
        if (target!.startsWith('.')) visit(join(dirname(file), target!.replace(/\.js$/, '.d.ts')));
        else named.add(target!);
      }
    };
    visit(join(core, 'index.d.ts'));
    expect([...named].filter((name) => DRIVERS.includes(name))).toEqual([]);
  });

  it('asking for PostgreSQL, Redis, a calendar feed or SMTP without its driver says what to install', async () => {
    writeFileSync(
      join(app, 'drivers.mjs'),
      `import { icsFeedReader, openStore, redisRateLimitStore, smtpMailer, smtpSettings, systemClock } from '@schedule/core';
const attempts = [
  () => openStore('postgres://127.0.0.1:1/none'),
  () => redisRateLimitStore('redis://127.0.0.1:1').ready(100),
  () => icsFeedReader({ clock: systemClock })('http://127.0.0.1:1/busy.ics', { startMs: 0, endMs: 1 }),
  () => smtpMailer(smtpSettings('smtp://127.0.0.1:1', 'a@b.example')).send({ id: 'n', to: 'c@d.example', subject: 's', text: 't', html: 'h' }),
];
for (const attempt of attempts) console.log(await attempt().then(() => 'no error', (error) => error.message));
`,
    );
    const ran = await run('node', ['drivers.mjs'], { cwd: app });
    expect(ran.stdout.split('\n')).toEqual([
      'install pg to use a postgres:// database (npm install pg)',
      'install ioredis to share rate limits through Redis (npm install ioredis)',
      // ical.js is missing too; undici is the first the reader imports.
      'install undici to read iCalendar feeds (npm install undici)',
      'install nodemailer to send mail over SMTP (npm install nodemailer)',
      '',
    ]);
  });
});

describe('calling the API with @schedule/client', () => {
  it("installs from its tarball and runs the README's client example against schedule serve", async () => {
    const app = await installPacked('@schedule/client');
    writeReadmeExample(app, 'client-example');

    const server = await startServer(['--demo', '--workspace', join(ROOT, 'demo/workspace.json')]);
    try {
      const ran = await run('node', ['example.mjs'], {
        cwd: app,
        env: { ...process.env, SCHEDULE_URL: server.url, SCHEDULE_TOKEN: 'pat_demo_alice_0123456789' },
      });
      expect(ran.stdout).toBe('201 confirmed\nLee Park 2\ntrue true\ncanceled\n404 booking_not_found\n');
    } finally {
      await server.stop();
    }
  }, 120_000);
});
