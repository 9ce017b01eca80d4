import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cleanEnv, runPiped, tempDir } from './cli-process.js';

// The database the interactive suites drive the binary on: one owner,
// alice, in UTC and free 08:00-18:00 every day, with an intro call of 30
// minutes (no notice) and her token, plus the bookings a suite imports.

const DAY = 86_400_000;

/** A start `days` from now at `hour`:00 UTC. */
export function startIn(days: number, hour: number): string {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
}

/** A booking of alice's intro call, for the workspace's `bookings`. */
export function aliceBooking(uid: string, start: string, email: string, status = 'confirmed') {
  return { uid, event_type: 'intro', host: 'alice', start, attendee: { email, name: email.split('@')[0] }, status };
}

/** Loads the workspace into a new SQLite file; its path, and the environment that runs as alice's token. */
export async function aliceDatabase(
  prefix: string,
  token: { secret: string; scopes: readonly string[] },
  bookings: readonly ReturnType<typeof aliceBooking>[],
): Promise<{ db: string; env: NodeJS.ProcessEnv }> {
  const dir = tempDir(prefix);
  const db = join(dir, 'schedule.db');
  const workspace = join(dir, 'workspace.json');
  const weekly = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['08:00', '18:00']]]));
  writeFileSync(
    workspace,
    JSON.stringify({
      users: [
        {
          username: 'alice',
          email: 'alice@acme.test',
          name: 'Alice Host',
          role: 'owner',
          timezone: 'UTC',
          schedule: { timezone: 'UTC', weekly },
        },
      ],
      event_types: [
        { owner: 'alice', slug: 'intro', name: 'Intro call', duration_minutes: 30, minimum_notice_minutes: 0, recurring: 'on' },
      ],
      tokens: [{ name: 'all', user: 'alice', secret: token.secret, scopes: token.scopes }],
      bookings,
    }),
  );
  const env = cleanEnv({ SCHEDULE_TOKEN: token.secret });
  const loaded = await runPiped(['whoami', '--workspace', workspace, '--db', db], env);
  expect(loaded.code, loaded.stderr).toBe(0);
  return { db, env };
}
