import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's version, from its package.json: found upward, as the bundle and the compiled files sit at different depths. */
export function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@schedule/cli' && pkg.version) return pkg.version;
    } catch {
      // no package.json here; look further up
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}
