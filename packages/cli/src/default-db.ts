import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';

/**
 * The embedded default database: a SQLite file in the user's data directory
 * (XDG_DATA_HOME on Linux, Application Support on macOS, AppData on Windows).
 */
export function defaultDatabasePath(): string {
  const dir = envPaths('schedule', { suffix: '' }).data;
  mkdirSync(dir, { recursive: true });
  return join(dir, 'schedule.db');
}

/** `--db`, else DATABASE_URL, else the embedded default. */
export function resolveDatabase(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? env.DATABASE_URL ?? defaultDatabasePath();
}
