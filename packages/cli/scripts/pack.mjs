// Packs the `schedule` binary as an installable npm tarball:
//   node scripts/pack.mjs [destination]     (default: the package folder)
// Why not plain `npm pack`: the binary is one esbuild bundle (see
// bundle.mjs) that already holds @schedule/core, http and mcp and every pure
// JavaScript dependency, while the workspace's package.json names the
// @schedule/* packages, which no registry has. The tarball's package.json
// names only what the bundle leaves outside: the native SQLite driver (at the
// version core declares), the drivers loaded on demand (at the versions the
// command declares: core leaves them to whoever embeds it), and the static
// files of the /docs reference page (swagger-ui-dist, read from disk at run
// time), at the version http declares.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const here = resolve(import.meta.dirname, '..');
const destination = resolve(process.argv[2] ?? here);
const cli = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const core = JSON.parse(readFileSync(join(here, '../core/package.json'), 'utf8'));
const http = JSON.parse(readFileSync(join(here, '../http/package.json'), 'utf8'));
const root = JSON.parse(readFileSync(join(here, '../../package.json'), 'utf8'));
const EXTERNAL = ['better-sqlite3', 'pg', 'ioredis', 'undici'];
const STATIC = ['swagger-ui-dist'];

const stage = mkdtempSync(join(tmpdir(), 'schedule-cli-pack-'));
try {
  cpSync(join(here, 'dist/bin.js'), join(stage, 'dist/bin.js'));
  cpSync(join(here, 'dist/chunks'), join(stage, 'dist/chunks'), { recursive: true });
  cpSync(join(here, '../../README.md'), join(stage, 'README.md'));
  const manifest = {
    name: cli.name,
    version: cli.version,
    description: 'schedule: an open, self-hostable scheduling service. The `schedule` command: serve, mcp, and every API operation.',
    type: 'module',
    bin: cli.bin,
    files: ['dist'],
    engines: root.engines,
    dependencies: Object.fromEntries([
      ...EXTERNAL.map((name) => [name, cli.dependencies[name] ?? core.dependencies[name]]),
      ...STATIC.map((name) => [name, http.dependencies[name]]),
    ]),
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: stage, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(output);
  process.stdout.write(`${join(destination, filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
