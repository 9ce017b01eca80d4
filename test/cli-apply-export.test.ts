import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, jsonOf, runCli } from './support/cli-run.js';
import { HAS_SCRIPT, runCliOnTty } from './support/cli-tty.js';
import { tempDir } from './support/serve.js';

// Issue 32: `schedule apply -f FILE` shows the plan of a workspace file
// (create, change, not in file) and writes exactly that; `schedule plan`
// (apply --dry-run) only shows it and exits 10 when it has changes;
// `schedule export` prints a file that applies back with no changes.

const ANN = 'a1000000-0000-4000-8000-000000000001';

function baseFile() {
  return {
    organization: { name: 'Acme' },
    users: [
      {
        id: ANN,
        username: 'ann',
        email: 'ann@acme.test',
        timezone: 'Europe/Berlin',
        schedule: { weekly: { mon: [['09:00', '17:00']] }, overrides: [{ date: '2026-12-24', intervals: [] }] },
        calendars: [{ kind: 'static', busy: [{ start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z' }] }],
      },
      { username: 'bo', email: 'bo@acme.test' },
    ],
    event_types: [
      { owner: 'ann', slug: 'intro', name: 'Intro', duration_minutes: 30, questions: [{ id: 'why', label: 'Why?' }] },
      { owner: 'ann', slug: 'sales', name: 'Sales', duration_minutes: 30 },
      { owner: 'bo', slug: 'old', name: 'Old', duration_minutes: 20 },
    ],
    tokens: [{ name: 'ci', user: 'ann', secret: 'pat_cli_apply_ann_0001', scopes: ['bookings:read'] }],
    oauth_clients: [{ client_id: 'acme-desktop', client_name: 'Acme desktop', redirect_uris: ['http://127.0.0.1/callback'] }],
  };
}

let dir = '';
let db = '';

/** `schedule <args> --db <this test's database>`, piped. */
const local = (args: readonly string[], input?: string) => runCli([...args, '--db', db], input === undefined ? {} : { input });

function fileWith(content: object, name = 'workspace.json'): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const exported = async () => jsonOf(await local(['export']));

/** The changed file of these tests: one field of one event type, one event type dropped. */
function changedFile() {
  const file = baseFile();
  file.event_types[1]!.duration_minutes = 45;
  file.event_types.splice(2, 1);
  return file;
}

beforeEach(async () => {
  dir = tempDir('schedule-cli-apply-');
  db = join(dir, 'schedule.db');
  expect(await local(['apply', '-f', fileWith(baseFile())])).toMatchObject({ code: 0, stderr: '' });
});

describe('schedule export | schedule apply -f -', () => {
  it('plans no changes and exits 0, on a dry run and on a real one', async () => {
    const text = (await local(['export'])).stdout;
    const dry = await local(['apply', '-f', '-', '--dry-run'], text);
    expect(dry).toEqual<CliRun>({ code: 0, stdout: '= 7 unchanged\nNo changes.\n', stderr: '' });
    expect(await local(['apply', '-f', '-'], text)).toEqual<CliRun>({ code: 0, stdout: '= 7 unchanged\nNo changes.\n', stderr: '' });
  });

  it('exports users with their hours and calendars, event types and OAuth clients, but no tokens or bookings', async () => {
    const file = await exported();
    expect(Object.keys(file).sort()).toEqual(['attendee_mail', 'event_types', 'limits', 'oauth_clients', 'organization', 'users']);
    expect(file.users[0]).toMatchObject({
      id: ANN,
      username: 'ann',
      schedule: baseFile().users[0]!.schedule,
      calendars: [{ kind: 'static', writable: true, busy: [{ start: '2026-12-01T10:00:00.000Z', end: '2026-12-01T11:00:00.000Z' }] }],
    });
    expect(file.event_types.map((e: { owner: string; slug: string }) => `${e.owner}/${e.slug}`)).toEqual([
      'ann/intro',
      'ann/sales',
      'bo/old',
    ]);
  });
});

describe('schedule apply of a changed file', () => {
  it('plan lists exactly the change and what the file no longer names, writes nothing, and exits 10', async () => {
    const before = await exported();
    const plan = await local(['plan', '-f', fileWith(changedFile())]);
    expect(plan).toEqual<CliRun>({
      code: 10,
      stdout: [
        '~ event_type ann/sales: duration_minutes 30 → 45, slot_interval_minutes 30 → 45',
        '- event_type bo/old (not in file; --prune archives it)',
        '= 6 unchanged',
        'Plan: 0 to create, 1 to change, 0 to prune.',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(await exported()).toEqual(before);
  });

  it('apply prints the plan, changes exactly that, and a second apply has nothing to do', async () => {
    const before = await exported();
    const path = fileWith(changedFile());
    const run = await local(['apply', '-f', path, '--prune']);
    expect(run).toEqual<CliRun>({
      code: 0,
      stdout: [
        '~ event_type ann/sales: duration_minutes 30 → 45, slot_interval_minutes 30 → 45',
        '- event_type bo/old (not in file; archived by --prune)',
        '= 6 unchanged',
        'Plan: 0 to create, 1 to change, 1 to prune.',
        'Applied: 0 created, 1 changed, 1 pruned.',
        '',
      ].join('\n'),
      stderr: '',
    });
    const expected = structuredClone(before);
    Object.assign(expected.event_types[1], { duration_minutes: 45, slot_interval_minutes: 45 });
    // Archived, as DELETE /v1/event-types/:id does: no longer exported, and nothing left to prune.
    expected.event_types.splice(2, 1);
    expect(await exported()).toEqual(expected);
    expect(await local(['apply', '-f', path, '--prune'])).toMatchObject({ code: 0, stdout: '= 7 unchanged\nNo changes.\n' });
  });

  it('--json gives the plan as data, with each field change from and to', async () => {
    const plan = JSON.parse((await local(['plan', '-f', fileWith(changedFile()), '--json'])).stdout);
    expect(plan.changes).toBe(true);
    expect(plan.applied).toBe(false);
    expect(plan.summary).toEqual({ create: 0, change: 1, unchanged: 6, not_in_file: 1, prune: 0 });
    expect(plan.items.filter((i: { action: string }) => i.action !== 'unchanged')).toEqual([
      {
        kind: 'event_type',
        key: expect.any(String),
        label: 'ann/sales',
        action: 'change',
        changes: [
          { field: 'duration_minutes', from: 30, to: 45 },
          { field: 'slot_interval_minutes', from: 30, to: 45 },
        ],
      },
      { kind: 'event_type', key: expect.any(String), label: 'bo/old', action: 'not_in_file', prune: 'archive', pruning: false },
    ]);
  });

  it('refuses a file with a bad reference, naming it, and writes none of its good changes (exit 2)', async () => {
    const before = await exported();
    const file = changedFile();
    file.tokens.push({ name: 'ghost', user: 'nobody', secret: 'pat_cli_apply_ghost_01', scopes: ['bookings:read'] });
    const run = await local(['apply', '-f', fileWith(file)]);
    expect(run).toEqual<CliRun>({ code: 2, stdout: '', stderr: 'error usage: invalid workspace:\n  tokens[1].user: no user "nobody"\n' });
    expect(await exported()).toEqual(before);
  });

  it('a file with only event types manages only event types: --prune leaves users and tokens alone', async () => {
    const run = await local(['apply', '-f', fileWith({ event_types: baseFile().event_types.slice(0, 1) }), '--prune']);
    expect(run.stdout).toBe(
      [
        '- event_type ann/sales (not in file; archived by --prune)',
        '- event_type bo/old (not in file; archived by --prune)',
        '= 1 unchanged',
        'Plan: 0 to create, 0 to change, 2 to prune.',
        'Applied: 0 created, 0 changed, 2 pruned.',
        '',
      ].join('\n'),
    );
    const tokens = jsonOf(await local(['tokens', 'list', '--json']));
    expect(tokens.map((t: { name: string; revoked_at: string | null }) => [t.name, t.revoked_at])).toEqual([['ci', null]]);
  });
});

describe.skipIf(!HAS_SCRIPT)('schedule apply on a terminal', () => {
  it('asks before writing: n applies nothing (exit 1), y applies the plan shown', async () => {
    const before = await exported();
    const path = fileWith(changedFile());
    const no = await runCliOnTty(['apply', '-f', path, '--db', db], { answers: [{ after: 'Apply these changes?', keys: 'n' }] });
    expect(no.code).toBe(1);
    expect(no.screen).toContain('~ event_type ann/sales: duration_minutes 30 → 45');
    expect(no.screen).toContain('error canceled: Nothing was applied.');
    expect(await exported()).toEqual(before);

    const yes = await runCliOnTty(['apply', '-f', path, '--db', db], { answers: [{ after: 'Apply these changes?', keys: 'y' }] });
    expect(yes.code).toBe(0);
    expect(yes.screen).toContain('Applied: 0 created, 1 changed, 0 pruned.');
    expect((await exported()).event_types[1].duration_minutes).toBe(45);
  }, 30_000);

  it('--yes applies without asking', async () => {
    const run = await runCliOnTty(['apply', '-f', fileWith(changedFile()), '--db', db, '--yes']);
    expect(run.code).toBe(0);
    expect(run.screen).not.toContain('Apply these changes?');
    expect(run.screen).toContain('Applied: 0 created, 1 changed, 0 pruned.');
  }, 30_000);
});
