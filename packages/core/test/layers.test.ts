import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Core's folders stand in layers: a folder may import only from folders below
// it, so each layer can be read, tested and changed knowing only what lies
// underneath. The order, top first (folders on one line do not import each other):
const LAYERS: readonly (readonly string[])[] = [
  ['operations'],
  ['calendar-sync', 'calendar-accounts'],
  ['workspace', 'notifications'],
  ['series', 'health', 'people', 'times'],
  ['bookings', 'slots', 'directory'],
  ['availability', 'teams'],
  ['caldav', 'manage-links'],
  ['event-types', 'rate-limit', 'oauth', 'webhooks', 'time-off', 'holds'],
  ['reminders'],
  ['auth', 'idempotency', 'outbox', 'pagination'],
  ['validation'],
  ['storage'],
  ['.'], // the basics: clock, errors, time, ids, …
];

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const rank = new Map(LAYERS.flatMap((folders, i) => folders.map((folder) => [folder, LAYERS.length - i] as const)));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top folder of a file under src, `.` for a file directly in it. */
function folderOf(file: string): string {
  const parts = relative(src, file).split('/');
  return parts.length === 1 ? '.' : (parts[0] ?? '.');
}

/** Every relative import and re-export, type-only ones included, as `from → to` between folders. */
export function crossings(files: readonly string[], read: (file: string) => string): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (relative(src, file) === 'index.ts') continue; // the public face re-exports every layer
    const from = folderOf(file);
    for (const match of read(file).matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const to = folderOf(resolve(dirname(file), match[1] ?? ''));
      if (to === from) continue;
      const [above, below] = [rank.get(from), rank.get(to)];
      if (above === undefined || below === undefined || below >= above) found.push(`${relative(src, file)} → ${to}`);
    }
  }
  return found;
}

describe("core's import graph", () => {
  const files = sources(src);

  it('names every folder of src in a layer', () => {
    const folders = [...new Set(files.map(folderOf))].sort();
    expect(folders.filter((folder) => !rank.has(folder))).toEqual([]);
  });

  it('has no import from a folder to one beside or above it', () => {
    expect(crossings(files, (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('finds a planted upward import', () => {
    const planted = join(src, 'storage', 'planted.ts');
    const read = (file: string) => (file === planted ? "import type { CoreDeps } from '../operations/operation.js';" : '');
    expect(crossings([planted], read)).toEqual(['storage/planted.ts → operations']);
  });
});

// The packages that reach outside the process (network, disk, other servers)
// are loaded only by adapters, which the rest of core reaches through
// interfaces and lazy loaders (optional-driver.ts): a domain rule can then be
// tested, and run, without them. Adapters live in a folder named `adapters`
// or in storage's two drivers. A type-only import loads nothing, so it may
// stand anywhere (caldav-connector.ts names tsdav's calendar type).
const WORLD_PACKAGES = ['undici', 'nodemailer', 'ioredis', 'tsdav', 'pg', 'better-sqlite3'];
const ADAPTER_FOLDER = /(^|\/)(adapters|storage\/postgres|storage\/sqlite)\//;

/** Every file outside an adapter folder that loads a world package, as `file → package`. */
export function worldImports(files: readonly string[], read: (file: string) => string): string[] {
  const found: string[] = [];
  for (const file of files) {
    const path = relative(src, file);
    if (ADAPTER_FOLDER.test(path)) continue;
    const text = read(file);
    const loads = [
      ...[...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s*'([^.'][^']*)'/gm)].map((m) => m[1]),
      ...[...text.matchAll(/\bimport\(\s*'([^.'][^']*)'/g)].map((m) => m[1]),
    ];
    for (const name of loads) if (name !== undefined && WORLD_PACKAGES.includes(name)) found.push(`${path} → ${name}`);
  }
  return found;
}

describe("core's outside world", () => {
  it('is loaded only by adapters', () => {
    expect(worldImports(sources(src), (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('finds a planted driver import or dynamic import outside an adapter, and none inside one or type-only', () => {
    const outside = join(src, 'webhooks', 'delivery', 'planted.ts');
    const lazy = join(src, 'caldav', 'planted.ts');
    const typeOnly = join(src, 'caldav', 'typed.ts');
    const inside = join(src, 'webhooks', 'adapters', 'planted.ts');
    const read = (file: string) =>
      file === lazy
        ? "const m = await import('tsdav');"
        : file === typeOnly
          ? "import type { DAVCalendar } from 'tsdav';"
          : "import { request } from 'undici';";
    expect(worldImports([outside, lazy, typeOnly, inside], read)).toEqual([
      'webhooks/delivery/planted.ts → undici',
      'caldav/planted.ts → tsdav',
    ]);
  });
});
