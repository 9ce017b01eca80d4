import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runOnTty, runPiped, tempDir } from './support/cli-process.js';

// Issue 29, item 11: `schedule agenda` on a terminal acts on a meeting, as a
// person drives it key by key: choose it, cancel it (a reason, then y), or
// reschedule it (a free time on the week grid, then y). Its own database,
// so that what it cancels and moves is nobody else's test data.

const TOKEN = 'pat_agenda_actions_alice_0123456789';
const HAS_SCRIPT = spawnSync('script', ['-V']).status === 0;
const DAY = 86_400_000;
const UIDS = { kim: '22222222-2222-4222-8222-222222222201', lee: '22222222-2222-4222-8222-222222222202' };

/** A start `days` from now at `hour`:00 UTC. */
function startIn(days: number, hour: number): string {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
}

let db: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const dir = tempDir('schedule-agenda-actions-');
  db = join(dir, 'schedule.db');
  const workspace = join(dir, 'workspace.json');
  const every = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['08:00', '18:00']]]));
  const booking = (uid: string, start: string, email: string) => ({
    uid,
    event_type: 'intro',
    host: 'alice',
    start,
    attendee: { email, name: email.split('@')[0] },
  });
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
          schedule: { timezone: 'UTC', weekly: every },
        },
      ],
      event_types: [{ owner: 'alice', slug: 'intro', name: 'Intro call', duration_minutes: 30, minimum_notice_minutes: 0 }],
      tokens: [
        {
          name: 'all',
          user: 'alice',
          secret: TOKEN,
          scopes: ['bookings:read', 'bookings:cancel', 'bookings:reschedule', 'slots:read'],
        },
      ],
      bookings: [booking(UIDS.kim, startIn(1, 9), 'kim@example.com'), booking(UIDS.lee, startIn(2, 14), 'lee@example.com')],
    }),
  );
  env = cleanEnv({ SCHEDULE_TOKEN: TOKEN });
  const loaded = await runPiped(['whoami', '--workspace', workspace, '--db', db], env);
  expect(loaded.code, loaded.stderr).toBe(0);
});

async function bookingOf(uid: string): Promise<{ status: string; start_at: string; cancellation_reason: string | null; version: number }> {
  const run = await runPiped(['bookings', 'get', uid, '--db', db, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe.skipIf(!HAS_SCRIPT)('schedule agenda on a terminal', () => {
  it('r on the first meeting, enter on the grid’s first free time, y: it moves there, and the agenda says so', {
    timeout: 30_000,
  }, async () => {
    const before = await bookingOf(UIDS.kim);
    const tty = runOnTty(['agenda', '--db', db, '--tz', 'UTC'], env);
    await tty.waitFor('q quit');
    expect(tty.screen()).toMatch(/› 09:00–09:30 {2}Intro call between Alice Host and kim/);
    tty.type('r');
    await tty.waitFor('Selected:');
    const picked = /Selected: (.+)\n/.exec(tty.screen().slice(tty.screen().lastIndexOf('Selected:')))![1]!;
    tty.type('\r');
    await tty.waitFor('[Y/n]');
    tty.type('y');
    await tty.waitFor('✓ Moved');
    tty.type('q');
    const { code, screen } = await tty.exit;
    expect(code, screen).toBe(0);
    // The terminal is 100 columns wide: the line wraps before its uid.
    expect(screen.replace(/\n/g, '')).toContain(`✓ Moved Intro call between Alice Host and kim to ${picked} (UTC) · uid ${UIDS.kim}`);
    const after = await bookingOf(UIDS.kim);
    expect(after).toMatchObject({ status: 'confirmed', version: before.version + 1 });
    expect(after.start_at).not.toBe(before.start_at);
  });

  it('↓ c, a reason, then y cancels the chosen meeting with that reason; q leaves the agenda drawn without it', {
    timeout: 30_000,
  }, async () => {
    const tty = runOnTty(['agenda', '--db', db, '--tz', 'UTC', '--days', '30'], env);
    await tty.waitFor('q quit');
    tty.type('\u001b[B');
    await tty.waitFor('› 14:00–14:30');
    tty.type('c');
    await tty.waitFor('Reason (optional, sent to the attendee):');
    tty.type('Out sick');
    await tty.waitFor('Out sick');
    tty.type('\r');
    await tty.waitFor('[y/N]');
    tty.type('y');
    await tty.waitFor('✓ Canceled');
    tty.type('q');
    const { code, screen } = await tty.exit;
    expect(code, screen).toBe(0);
    expect(screen).toContain(`✓ Canceled Intro call between Alice Host and lee on `);
    expect(await bookingOf(UIDS.lee)).toMatchObject({ status: 'canceled', cancellation_reason: 'Out sick' });
    // The last frame is the agenda as it prints: without the canceled meeting, nothing marked.
    const last = screen.slice(screen.lastIndexOf('Agenda, next 30 days (UTC)'));
    expect(last).not.toContain('lee@example.com');
    expect(last).not.toContain('›');
  });

  it('enter at the confirmation of a cancel says no: nothing changes', { timeout: 30_000 }, async () => {
    const tty = runOnTty(['agenda', '--db', db, '--tz', 'UTC'], env);
    await tty.waitFor('q quit');
    tty.type('c');
    await tty.waitFor('Reason (optional, sent to the attendee):');
    tty.type('\r');
    await tty.waitFor('[y/N]');
    tty.type('\r');
    await tty.waitFor('q quit');
    tty.type('q');
    expect((await tty.exit).code).toBe(0);
    expect(await bookingOf(UIDS.kim)).toMatchObject({ status: 'confirmed', cancellation_reason: null });
  });
});

describe('schedule agenda without a keyboard', () => {
  it('piped, it prints the lines and waits for no key', async () => {
    const run = await runPiped(['agenda', '--db', db, '--tz', 'UTC', '--days', '30'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(UIDS.kim);
  });
});
