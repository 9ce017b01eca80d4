import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { aliceBooking, aliceDatabase, startIn } from './support/alice-database.js';
import { cleanEnv, loadedReact, loadsOf, readLoads, runOnTty, runPiped, tempDir } from './support/cli-process.js';

// The interactive commands as a script sees them (pipes: never a prompt,
// never a colour code) and, where util-linux `script` can lend a
// pseudo-terminal, as a person sees them.

const ESC = '\u001b';
const TOKEN = 'pat_interactive_alice_0123456789';
const HAS_SCRIPT = spawnSync('script', ['-V']).status === 0;
const DAY = 86_400_000;

const UIDS = {
  tomorrow: '11111111-1111-4111-8111-111111111101',
  later: '11111111-1111-4111-8111-111111111102',
  canceled: '11111111-1111-4111-8111-111111111103',
  farOff: '11111111-1111-4111-8111-111111111104',
  past: '11111111-1111-4111-8111-111111111105',
};

let db: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ db, env } = await aliceDatabase(
    'schedule-interactive-',
    { secret: TOKEN, scopes: ['bookings:read', 'bookings:create', 'slots:read', 'series:read', 'series:write'] },
    [
      aliceBooking(UIDS.tomorrow, startIn(1, 9), 'kim@example.com'),
      aliceBooking(UIDS.later, startIn(3, 14), 'lee@example.com'),
      aliceBooking(UIDS.canceled, startIn(2, 9), 'max@example.com', 'canceled'),
      aliceBooking(UIDS.farOff, startIn(20, 9), 'ana@example.com'),
      aliceBooking(UIDS.past, startIn(-2, 9), 'old@example.com'),
    ],
  ));
});

const BOOK_IS_INTERACTIVE =
  'error usage: schedule book is interactive; use `schedule bookings create --event-type ... --start ...` in scripts\n';

describe('piped: never a prompt, never a colour', () => {
  it('schedule book with stdin not a terminal exits 2 with a message naming the scriptable command', async () => {
    expect(await runPiped(['book', '--db', db], env)).toEqual({ code: 2, stdout: '', stderr: BOOK_IS_INTERACTIVE });
    // Whatever the options, and before any backend is opened (this URL is never called).
    expect(await runPiped(['book', '--api-url', 'http://127.0.0.1:9'], env)).toEqual({ code: 2, stdout: '', stderr: BOOK_IS_INTERACTIVE });
  });

  it('schedule series create with no flags keeps the missing required option error', async () => {
    expect(await runPiped(['series', 'create', '--db', db], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: "error usage: required option '--host <username-or-id>' not specified\n(run with --help for usage)\n",
    });
  });

  it('schedule agenda prints confirmed bookings from now on, one tab-separated line each, without colour even when forced', async () => {
    const json = await runPiped(['agenda', '--db', db, '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const items = JSON.parse(json.stdout) as { uid: string; start_at: string; end_at: string; title: string; status: string }[];
    // The next 7 days: not the canceled one, not the past one, not the one 20 days off; soonest first.
    expect(items.map((b) => b.uid)).toEqual([UIDS.tomorrow, UIDS.later]);
    expect(items.every((b) => b.status === 'confirmed')).toBe(true);

    const piped = await runPiped(['agenda', '--db', db, '--tz', 'UTC'], { ...env, FORCE_COLOR: '3' });
    const line = (b: (typeof items)[number], attendee: string) =>
      `${b.start_at.slice(0, 10)}\t${b.start_at}\t${b.end_at}\t${b.uid}\talice\t${attendee}\t${b.title}\n`;
    expect(piped).toEqual({ code: 0, stdout: line(items[0]!, 'kim@example.com') + line(items[1]!, 'lee@example.com'), stderr: '' });
    expect(piped.stdout).not.toContain(ESC);

    const month = await runPiped(['agenda', '--db', db, '--days', '30', '--json'], env);
    expect((JSON.parse(month.stdout) as { uid: string }[]).map((b) => b.uid)).toEqual([UIDS.tomorrow, UIDS.later, UIDS.farOff]);
  });

  it('schedule agenda --days out of range is a usage error', async () => {
    expect(await runPiped(['agenda', '--db', db, '--days', '0'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error usage: --days must be a whole number from 1 to 366.\n',
    });
  });
});

describe('fast start: ink and React load only for the terminal UI', () => {
  it('schedule --version loads neither', async () => {
    const { run, loaded } = await loadsOf(['--version']);
    expect(run).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    expect(loaded.length).toBeGreaterThan(0);
    expect(loadedReact(loaded)).toEqual([]);
  });

  it('nor bookings list --json, the agenda when piped, or book refusing a pipe', async () => {
    for (const args of [['bookings', 'list', '--json', '--db', db], ['agenda', '--db', db], ['book']]) {
      const { run, loaded } = await loadsOf(args, env);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).not.toBe(null);
      expect(loadedReact(loaded), args.join(' ')).toEqual([]);
    }
  });

  it.skipIf(!HAS_SCRIPT)('while the agenda on a terminal does (the check above can see them)', async () => {
    const log = join(tempDir('schedule-loads-'), 'loads.txt');
    writeFileSync(log, '');
    const tty = runOnTty(['agenda', '--db', db, '--tz', 'UTC'], env, { recordLoads: log });
    await tty.waitFor('q quit');
    tty.type('q');
    const { code } = await tty.exit;
    expect(code).toBe(0);
    expect(loadedReact(readLoads(log)).length).toBeGreaterThan(0);
  });
});

describe.skipIf(!HAS_SCRIPT)('on a terminal', () => {
  it('schedule agenda draws days with headings, in colour; q leaves them drawn', async () => {
    const agenda = async (...more: string[]) => {
      const tty = runOnTty(['agenda', '--db', db, '--tz', 'UTC', ...more], env);
      await tty.waitFor('q quit');
      tty.type('q');
      return tty.exit;
    };
    const { code, screen, raw } = await agenda();
    expect(code).toBe(0);
    expect(screen).toContain('Agenda, next 7 days (UTC)');
    expect(screen).toMatch(/· tomorrow\n {2}09:00–09:30 {2}Intro call between Alice Host and kim/);
    expect(raw).toContain(`${ESC}[1m`);
    const plain = await agenda('--no-color');
    expect(plain.raw).not.toContain(`${ESC}[1m`);
  });

  it('schedule book: event type, slot, attendee email and name, confirm, and the booking is made', { timeout: 30_000 }, async () => {
    const tty = runOnTty(['book', '--db', db, '--tz', 'UTC'], env);
    await tty.waitFor('Book which event type?');
    tty.type('\r');
    await tty.waitFor('Selected:');
    // Next week, whose first day is whole whatever the time now (late in the day, this week's first
    // day may have one free time left, and one slot down would not move), then one slot down: its second free time.
    tty.type('n');
    await tty.waitFor('Selected:');
    tty.type('\u001b[B');
    await tty.waitFor('Selected:');
    const picked = /Selected: (.+)\n/.exec(tty.screen().slice(tty.screen().lastIndexOf('Selected:') - 10))![1]!;
    tty.type('\r');
    await tty.waitFor('Attendee email:');
    tty.type('pat@example.com');
    await tty.waitFor('pat@example.com');
    tty.type('\r');
    await tty.waitFor('Attendee name (optional):');
    tty.type('Pat Doe');
    await tty.waitFor('Pat Doe');
    tty.type('\r');
    await tty.waitFor('[Y/n]');
    tty.type('y');
    const { code, screen } = await tty.exit;
    expect(code, screen).toBe(0);
    const uid = /Booked ([0-9a-f-]{36})/.exec(screen)![1]!;
    expect(screen).toContain(`${picked} (UTC)`);

    const agenda = await runPiped(['agenda', '--db', db, '--days', '30', '--json'], env);
    const made = (JSON.parse(agenda.stdout) as { uid: string; attendees: { email: string; name: string }[] }[]).find((b) => b.uid === uid);
    expect(made?.attendees[0]).toMatchObject({ email: 'pat@example.com', name: 'Pat Doe' });
  });

  it('in CI, even on a terminal, schedule book refuses and the wizard stays closed', async () => {
    const ci = { ...env, CI: 'true' };
    const book = await runOnTty(['book', '--db', db], ci).exit;
    expect(book).toMatchObject({ code: 2, screen: BOOK_IS_INTERACTIVE });
    const wizard = await runOnTty(['series', 'create', '--db', db], ci).exit;
    expect(wizard).toMatchObject({
      code: 2,
      screen: "error usage: required option '--host <username-or-id>' not specified\n(run with --help for usage)\n",
    });
  });

  it('esc ends schedule book with nothing booked', async () => {
    const tty = runOnTty(['book', '--db', db], env);
    await tty.waitFor('Book which event type?');
    tty.type('\u001b');
    const { code, screen } = await tty.exit;
    expect(code).toBe(1);
    expect(screen).toContain('error canceled: Nothing was booked.');
  });

  it('schedule series create with no flags: the wizard previews a busy date as skipped, then creates', {
    timeout: 30_000,
  }, async () => {
    // Weekly on tomorrow's weekday at 09:00 UTC, twice: tomorrow's 09:00 is taken (Kim), next week's is free.
    // Each answer is typed the moment its prompt shows, and several keys at once: this test found keys lost
    // before a new prompt subscribed to input, and key runs read as one string (key-router.ts).
    const tomorrow = (new Date(Date.now() + DAY).getUTCDay() + 6) % 7; // Monday first, as the picker lists days
    const tty = runOnTty(['series', 'create', '--db', db, '--tz', 'UTC'], env);
    await tty.answer('Which event type?', '\r');
    await tty.answer('Whose calendar?', '\r');
    await tty.answer('Attendee email:', 'sam@example.com');
    await tty.answer('sam@example.com', '\r');
    await tty.answer('How often?', '\r');
    await tty.answer('On which days?', ` ${'\u001b[C'.repeat(tomorrow)} \r`);
    await tty.answer('At what time (UTC)?', `${'\u007f'.repeat(5)}09:00\r`);
    await tty.answer('Starting on (YYYY-MM-DD)?', '\r');
    await tty.answer('How many meetings (1–42)?', '\u007f2\r');
    await tty.waitFor('Create this series?');
    const preview = tty.screen().slice(tty.screen().lastIndexOf('Dates (UTC)'));
    expect(preview).toMatch(
      / {2}✗ \w{3} \d+ \w{3} \d{4} 09:00 {2}skipped: busy \(a booking or calendar event\)\n {2}✓ \w{3} \d+ \w{3} \d{4} 09:00\n1 of 2 will be booked/,
    );
    tty.type('y');
    const { code, screen } = await tty.exit;
    expect(code, screen).toBe(0);
    const uid = /Created series ([0-9a-f-]{36})/.exec(screen)![1]!;
    expect(screen).toContain('1 booked, 1 skipped (UTC)');

    const listed = await runPiped(['series', 'get', uid, '--db', db, '--json'], env);
    expect(JSON.parse(listed.stdout)).toMatchObject({
      uid,
      frequency: 'weekly',
      time: '09:00',
      timezone: 'UTC',
      count: 2,
      attendee: { email: 'sam@example.com' },
    });
  });

  // Issue 29 item 2: the wizard's 10:00 is off the 45-minute grid of the event type `schedule init` writes (09:00,
  // 09:45, 10:30, ...). Its preview asked the slot check, which holds a start to the grid, and said every date would
  // be skipped; the create, which does not, then booked them all. The preview is now the create's own dry run.
  it("on `schedule init`'s workspace, the wizard's default 10:00 on the 45-minute One-on-one: previewed booked, and booked", {
    timeout: 30_000,
  }, async () => {
    const dir = tempDir('schedule-init-wizard-');
    const initEnv = cleanEnv({ XDG_DATA_HOME: join(dir, 'data') });
    const init = await runPiped(['init', '--file', join(dir, 'ws.json'), '--username', 'kim', '--timezone', 'UTC'], initEnv);
    expect(init.code, init.stderr).toBe(0);
    const token = /^token: (\S+)$/m.exec(init.stdout)![1]!;
    const own = { ...initEnv, SCHEDULE_TOKEN: token };
    const initDb = join(dir, 'own.db');
    expect((await runPiped(['whoami', '--workspace', join(dir, 'ws.json'), '--db', initDb], own)).code).toBe(0);

    const tty = runOnTty(['series', 'create', '--db', initDb, '--tz', 'UTC'], own);
    await tty.waitFor('Which event type?');
    tty.type('\u001b[B'); // down to One-on-one
    await tty.waitFor('› One-on-one');
    tty.type('\r');
    for (const [prompt, keys] of [
      ['Whose calendar?', '\r'],
      ['Attendee email:', 'sam@example.com'],
      ['sam@example.com', '\r'],
      ['How often?', '\r'],
      ['On which days?', '\r'], // Monday, preselected
      ['At what time (UTC)? 10:00', '\r'],
      ['Starting on (YYYY-MM-DD)?', '\r'],
      ['How many meetings (1–42)? 6', '\r'],
    ] as const) {
      await tty.waitFor(prompt);
      tty.type(keys);
    }
    await tty.waitFor('Create this series?');
    const preview = tty.screen().slice(tty.screen().lastIndexOf('Dates (UTC)'));
    expect(preview.match(/ {2}✓ Mon \d+ \w{3} \d{4} 10:00\n/g)).toHaveLength(6);
    expect(preview).not.toContain('✗');
    expect(preview).toContain('6 of 6 will be booked');
    tty.type('y');
    const { code, screen } = await tty.exit;
    expect(code, screen).toBe(0);
    expect(screen).toContain('6 booked, 0 skipped (UTC)');
  });

  it('schedule series create with no flags opens the wizard; with some flags the missing ones are still required', async () => {
    const tty = runOnTty(['series', 'create', '--db', db], env);
    await tty.waitFor('Which event type? (those that allow series)');
    tty.type('\u001b');
    expect((await tty.exit).code).toBe(1);

    const partial = await runOnTty(['series', 'create', '--db', db, '--host', 'x'], env).exit;
    expect(partial.code).toBe(2);
    expect(partial.screen).toBe("error usage: required option '--attendee-email <email>' not specified\n(run with --help for usage)\n");
  });
});
