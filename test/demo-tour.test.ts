import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, tempDir, whenListening } from './support/serve.js';

// Issue 29 item 1: the demo and the README's tour used fixed December 2026
// dates, so from 2026-12-08 on the tour's booking answered 409 and its slot
// query came back empty. The demo now moves its dates to the week it starts
// in, and the tour takes its dates from the clock. This test starts the demo
// as `npm start` does and runs the tour's very block, both under faketime a
// year from now.

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..');
const FAKETIME = '/usr/bin/faketime';
const A_YEAR_ON = '+365d';
/**
 * The server runs with libfaketime preloaded rather than under the faketime
 * command, which forks: a signal to it would leave the server running.
 */
const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1'].find(
  (path) => existsSync(path),
);
const DAY = 86_400_000;

/** The command `npm start` runs (package.json), listening on a free port. */
function startCommand(): string[] {
  const start = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  return [...start.split(' '), '--port', '0'];
}

/** The README's tour block. */
function tourBlock(): string {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  const block = /<!-- tour:[^>]*-->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no ```sh block marked <!-- tour: ... -->');
  return block;
}

interface Step {
  readonly command: string;
  readonly output: string;
}

/**
 * Runs the tour as a person pastes it into bash, against `url`, and returns
 * what each command printed. A marker line goes before every command (a
 * line that is no comment and continues no other), so outputs are told apart.
 */
async function runTour(url: string): Promise<Step[]> {
  const lines = tourBlock().replace('API=http://127.0.0.1:3000', `API=${url}`).split('\n');
  const commands: string[] = [];
  const script: string[] = ['set -euo pipefail'];
  let continuing = false;
  for (const line of lines) {
    const isCommand = !continuing && line.trim() !== '' && !line.trimStart().startsWith('#');
    if (isCommand) {
      script.push(`printf '\\n@@step ${commands.length}\\n'`);
      commands.push(line);
    } else if (continuing) {
      commands[commands.length - 1] += `\n${line}`;
    }
    script.push(line);
    continuing = line.endsWith('\\');
  }
  const child = spawn(FAKETIME, ['-f', A_YEAR_ON, 'bash', '-c', script.join('\n')], { cwd: tempDir('schedule-tour-') });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((done) => child.once('close', done));
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const outputs = stdout.split(/\n@@step \d+\n/).slice(1);
  expect(outputs).toHaveLength(commands.length);
  return commands.map((command, i) => ({ command, output: outputs[i]! }));
}

let server: ServerProcess;
let steps: Step[];
let fakeNow: number;

beforeAll(async () => {
  if (!existsSync(FAKETIME) || !LIBFAKETIME) throw new Error('faketime is missing: apt-get install -y --no-install-recommends faketime');
  const [node, ...args] = startCommand();
  expect(node).toBe('node');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', XDG_DATA_HOME: tempDir('schedule-tour-home-'), LD_PRELOAD: LIBFAKETIME, FAKETIME: A_YEAR_ON },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = await whenListening(child, 'npm start');
  fakeNow = Date.now() + 365 * DAY;
  steps = await runTour(server.url);
}, 120_000);

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

/** The output of the one step whose command matches. */
function step(pattern: RegExp, nth = 0): string {
  const found = steps.filter((s) => pattern.test(s.command));
  if (found.length <= nth) throw new Error(`no tour step ${nth} matches ${pattern}: ${steps.map((s) => s.command).join('\n')}`);
  return found[nth]!.output;
}
const json = (text: string) => JSON.parse(text);
/** `curl -si`: the status line and the JSON body. */
function withHeaders(text: string): { status: number; headers: string; body: any } {
  const [head, body] = text.split(/\r?\n\r?\n/, 2) as [string, string];
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head)?.[1]), headers: head, body: JSON.parse(body) };
}

describe('the README tour, on the demo, a year from now', () => {
  it('the demo started in the fake year: its upcoming bookings lie after that now, soonest first, two a page, and the next page follows', () => {
    const first = json(step(/limit=2"$/)).data;
    const next = json(step(/cursor=\$CURSOR/)).data;
    expect(first).toHaveLength(2);
    expect(next).toHaveLength(2);
    const starts = [...first, ...next].map((b: { start_at: string }) => Date.parse(b.start_at));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts[0]).toBeGreaterThan(fakeNow);
    expect(starts.at(-1)).toBeLessThan(fakeNow + 30 * DAY);
    for (const b of [...first, ...next]) expect(b.status).toBe('confirmed');
  });

  it('the booking shown has its form answers and version 1; the patch answers 200 with the new name', () => {
    const shown = withHeaders(step(/^curl -si -H "\$T" \$API\/v1\/bookings\/3d6f/));
    expect(shown.status).toBe(200);
    expect(shown.headers).toMatch(/etag: "1"/i);
    expect(shown.body.data.responses).toEqual({ topic: 'Moving our team calendars over' });
    const patched = withHeaders(step(/-X PATCH .*If-Match: "1"/));
    expect([patched.status, patched.body.data.attendees[0].name, patched.body.data.version]).toEqual([200, 'Erin P.', 2]);
  });

  it('the catch-up sweep since yesterday lists the whole demo, oldest change first', () => {
    const swept = json(step(/updated_since=\$YESTERDAY/)).data;
    expect(swept.length).toBeGreaterThanOrEqual(6);
    const updated = swept.map((b: { updated_at: string }) => b.updated_at);
    expect(updated).toEqual([...updated].sort());
  });

  it('finds free slots from tomorrow, books the first (201), and the check then says it is taken', () => {
    const slots = json(step(/^curl -s -H "\$T" "\$API\/v1\/slots\?/)).data.slots;
    expect(slots.length).toBeGreaterThan(0);
    expect(Date.parse(slots[0].start)).toBeGreaterThan(fakeNow);
    const booked = withHeaders(step(/Idempotency-Key: tour-2/));
    expect([booked.status, booked.body.data.start_at]).toEqual([201, new Date(slots[0].start).toISOString()]);
    expect(json(step(/slots\/check/)).data).toMatchObject({ available: false, reason: 'slot_busy' });
  });

  it('previews the series, creates exactly the previewed dates, replays the create, then pauses, resumes, moves and ends it', () => {
    const preview = json(step(/series\/preview$/)).data;
    expect(preview.occurrences.length).toBeGreaterThan(0);
    expect(preview.occurrences.length + preview.skipped.length).toBe(6);
    const created = json(step(/tour-3' .*\/v1\/series$/)).data;
    expect(created.occurrences.map((o: { start_at: string }) => o.start_at)).toEqual(
      preview.occurrences.map((o: { start_at: string }) => o.start_at),
    );
    expect(created.skipped).toEqual(preview.skipped);
    const occurrences = json(step(/series_id=\$S/)).data;
    expect(occurrences.map((b: { uid: string }) => b.uid)).toEqual(created.occurrences.map((o: { uid: string }) => o.uid));
    const booked = created.occurrences.length;
    expect(json(step(/\/pause/)).data).toEqual({ held: booked, superseded: false });
    expect(json(step(/\/resume/)).data).toEqual({ created: booked, skipped: [], owed: 0, superseded: false });
    const moved = withHeaders(step(/"time":"11:00"/));
    expect([moved.status, moved.body.data.series.time]).toEqual([200, '11:00']);
    expect(json(step(/\/end/)).data.canceled).toBeGreaterThan(0);
  });

  it('takes a whole day off through the API (201), and the intro call then lists no slot that day', () => {
    const off = json(step(/tour-6/)).data;
    expect(off).toMatchObject({ reason: 'Offsite', version: 1 });
    expect(Date.parse(off.end_at) - Date.parse(off.start_at)).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect(json(step(/^curl -s -H "\$T" "\$API\/v1\/slots\?/, 1)).data.slots).toEqual([]);
  });

  it("Carol's read-only token lists only her own bookings", () => {
    const carol = json(step(/pat_demo_carol/)).data;
    expect(carol.length).toBeGreaterThan(0);
    for (const b of carol) expect(b.host.username).toBe('carol');
  });
});
