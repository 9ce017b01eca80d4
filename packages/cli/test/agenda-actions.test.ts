import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { aliceBooking, aliceDatabase, startIn } from './support/alice-database.js';
import { runOnTty, runPiped } from './support/cli-process.js';

// Issue 29, item 11: `schedule agenda` on a terminal acts on a meeting, as a
// person drives it key by key: choose it, cancel it (a reason, then y), or
// reschedule it (a free time on the week grid, then y). Its own database,
// so that what it cancels and moves is nobody else's test data.

const TOKEN = 'pat_agenda_actions_alice_0123456789';
const HAS_SCRIPT = spawnSync('script', ['-V']).status === 0;
const UIDS = { kim: '22222222-2222-4222-8222-222222222201', lee: '22222222-2222-4222-8222-222222222202' };

let db: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ db, env } = await aliceDatabase(
    'schedule-agenda-actions-',
    { secret: TOKEN, scopes: ['bookings:read', 'bookings:cancel', 'bookings:reschedule', 'slots:read'] },
    [aliceBooking(UIDS.kim, startIn(1, 9), 'kim@example.com'), aliceBooking(UIDS.lee, startIn(2, 14), 'lee@example.com')],
  ));
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
    await tty.answer('[Y/n]', 'y');
    await tty.answer('✓ Moved', 'q');
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
    await tty.answer('q quit', '\u001b[B');
    await tty.answer('› 14:00–14:30', 'c');
    await tty.answer('Reason (optional, sent to the attendee):', 'Out sick');
    await tty.answer('Out sick', '\r');
    await tty.answer('[y/N]', 'y');
    await tty.answer('✓ Canceled', 'q');
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
    await tty.answer('q quit', 'c');
    await tty.answer('Reason (optional, sent to the attendee):', '\r');
    await tty.answer('[y/N]', '\r');
    await tty.answer('q quit', 'q');
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
