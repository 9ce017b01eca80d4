import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, MODE_NAMES, type PerMode, startCliModes } from './support/cli-modes.js';
import { type CliRun, failure, jsonOf, objectLines, success } from './support/cli-run.js';

// `schedule event-types get|create|update|delete` as the real binary,
// embedded (`--db`) and remote (`--api-url`), against what the HTTP API
// answers on the same database; both modes print the same but for ids and times.

const USERS = { ann: 'c8000000-0000-4000-8000-000000000001', ben: 'c8000000-0000-4000-8000-000000000002' } as const;
const TOKENS = { ann: 'cli-event-types-ann-rw', ben: 'cli-event-types-ben-rw' } as const;
const INTRO = 'c8100000-0000-4000-8000-000000000001';

const workspace = {
  organization: { name: 'CLI Types' },
  limits: { pat_per_minute: 10_000 },
  users: [
    { id: USERS.ann, username: 'ann', email: 'ann@cli-types.test', name: 'Ann' },
    { id: USERS.ben, username: 'ben', email: 'ben@cli-types.test', name: 'Ben' },
  ],
  event_types: [{ id: INTRO, owner: 'ann', slug: 'intro', name: 'Intro call', duration_minutes: 30 }],
  tokens: [
    { name: 'ann', user: 'ann', secret: TOKENS.ann, scopes: ['event_types:write'] },
    { name: 'ben', user: 'ben', secret: TOKENS.ben, scopes: ['event_types:write'] },
  ],
};

let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(workspace, TOKENS.ann);
});
afterAll(() => modes?.stop());

function expectAlike(runs: PerMode<CliRun>): void {
  const shown = (name: 'embedded' | 'remote') => ({
    code: runs[name].code,
    stdout: modes[name].normalize(runs[name].stdout),
    stderr: modes[name].normalize(runs[name].stderr),
  });
  expect(shown('embedded')).toEqual(shown('remote'));
}

describe('schedule event-types', { timeout: 30_000 }, () => {
  const made: PerMode<Record<string, any>> = { embedded: {}, remote: {} };

  it('create --json prints the whole type, as GET answers it', async () => {
    const questions = JSON.stringify([{ id: 'size', label: 'Team size', type: 'select', options: ['1-5', '6+'] }]);
    const runs = await modes.both([
      'event-types',
      'create',
      '--slug',
      'deep-dive',
      '--name',
      'Deep dive',
      '--duration',
      '60',
      '--interval',
      '30',
      '--buffer-after',
      '10',
      '--description',
      'Long talk',
      '--location',
      '{"type":"link","url":"https://meet.example.com/ann"}',
      '--questions',
      questions,
      '--allow-reschedule',
      'false',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      const data = jsonOf(runs[name]);
      expect(runs[name].stderr).toBe('');
      expect(await modes[name].get(`/v1/event-types/${data.id}`)).toEqual(data);
      expect(data).toMatchObject({
        slug: 'deep-dive',
        name: 'Deep dive',
        description: 'Long talk',
        owner: { user_id: USERS.ann, username: 'ann' },
        duration_minutes: 60,
        slot_interval_minutes: 30,
        buffer_after_minutes: 10,
        allow_reschedule: false,
        location: { type: 'link', url: 'https://meet.example.com/ann' },
        questions: [{ id: 'size', label: 'Team size', type: 'select', required: false, options: ['1-5', '6+'] }],
        version: 1,
        archived_at: null,
      });
      made[name] = data;
    }
    expectAlike(runs);
  });

  it('get prints key<TAB>value lines piped; the list still lists the types', async () => {
    const runs = await modes.both(['event-types', 'get', INTRO]);
    for (const name of MODE_NAMES) {
      expect(runs[name]).toEqual(success(objectLines(await modes[name].get(`/v1/event-types/${INTRO}`))));
      const list = jsonOf(await modes[name].run(['event-types', 'list', '--json']));
      expect(list.map((t: { slug: string }) => t.slug)).toEqual(['deep-dive', 'intro']);
    }
    expectAlike(runs);
  });

  it('update changes only the flags given, reading the version itself; a stale --if-match exits 5 version_conflict', async () => {
    const runs = await modes.both((mode) => [
      'event-types',
      'update',
      made[mode.name].id,
      '--duration',
      '45',
      '--no-description',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      const data = jsonOf(runs[name]);
      expect(data).toMatchObject({ duration_minutes: 45, slot_interval_minutes: 30, description: null, name: 'Deep dive', version: 2 });
    }
    expectAlike(runs);
    const stale = await modes.both((mode) => ['event-types', 'update', made[mode.name].id, '--name', 'X', '--if-match', '1']);
    for (const name of MODE_NAMES) expect(stale[name]).toEqual(failure(5, 'version_conflict', 'The event type is at version 2.'));
  });

  it('update --reminders sets the rules as JSON, none clears them, and a bad rule names its field (exit 2)', async () => {
    const rules = JSON.stringify([
      { minutes: 90, to: 'both', text: 'Bring the draft.' },
      { minutes: 30, relative_to: 'end' },
    ]);
    const set = await modes.both((mode) => ['event-types', 'update', made[mode.name].id, '--reminders', rules, '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(set[name]).reminders).toEqual([
        { minutes: 90, relative_to: 'start', to: 'both', via: 'email', text: 'Bring the draft.' },
        { minutes: 30, relative_to: 'end', to: 'attendee', via: 'email', text: null },
      ]);
    }
    const none = await modes.both((mode) => ['event-types', 'update', made[mode.name].id, '--reminders', 'none', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(none[name]).reminders).toEqual([]);
    const bad = await modes.both((mode) => ['event-types', 'update', made[mode.name].id, '--reminders', '[{"minutes":-5}]']);
    for (const name of MODE_NAMES) {
      expect([bad[name].code, bad[name].stdout]).toEqual([2, '']);
      expect(bad[name].stderr).toMatch(
        /^error validation_error: --reminders\.0\.minutes: |^error validation_error: reminders\.0\.minutes: /,
      );
    }
    expectAlike(bad);
  });

  it('refuses bad values naming the field (exit 2) and a slug in use (exit 5 slug_taken)', async () => {
    const bad = await modes.both(['event-types', 'create', '--slug', 'x', '--name', 'X', '--duration', '0']);
    for (const name of MODE_NAMES) {
      expect([bad[name].code, bad[name].stdout]).toEqual([2, '']);
      expect(bad[name].stderr).toMatch(/^error validation_error: --duration: /);
    }
    const taken = await modes.both(['event-types', 'create', '--slug', 'intro', '--name', 'Again', '--duration', '30']);
    for (const name of MODE_NAMES) {
      expect(taken[name]).toEqual(failure(5, 'slug_taken', 'The owner already has an event type with the slug "intro".'));
    }
    expectAlike(taken);
  });

  it('create --file takes the fields from a JSON file, flags beside it winning', async () => {
    const file = join(tmpdir(), `event-type-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ slug: 'from-file', name: 'From file', duration_minutes: 20, status: 'off' }));
    const runs = await modes.both(['event-types', 'create', '--file', file, '--name', 'Flag wins', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(runs[name])).toMatchObject({ slug: 'from-file', name: 'Flag wins', duration_minutes: 20, status: 'off' });
    }
  });

  it('--max-per-day, --max-per-week and --seats set limits and seats, none clears one, a bad one names its flag (exit 2)', async () => {
    const runs = await modes.both((mode) => [
      'event-types',
      'update',
      made[mode.name].id,
      '--max-per-day',
      '3',
      '--max-per-week',
      '10',
      '--seats',
      '4',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      expect(jsonOf(runs[name])).toMatchObject({ max_bookings_per_day: 3, max_bookings_per_week: 10, seats: 4 });
    }
    expectAlike(runs);
    const cleared = await modes.both((mode) => [
      'event-types',
      'update',
      made[mode.name].id,
      '--max-per-week',
      'none',
      '--seats',
      'none',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      expect(jsonOf(cleared[name])).toMatchObject({ max_bookings_per_day: 3, max_bookings_per_week: null, seats: null });
    }
    const bad = await modes.both((mode) => ['event-types', 'update', made[mode.name].id, '--seats', '1']);
    for (const name of MODE_NAMES) {
      expect([bad[name].code, bad[name].stdout]).toEqual([2, '']);
      expect(bad[name].stderr).toMatch(/^error validation_error: --seats: /);
    }
  });

  it('delete archives: get then shows it with archived_at and the slug is free again', async () => {
    const runs = await modes.both((mode) => ['event-types', 'delete', made[mode.name].id, '--json']);
    for (const name of MODE_NAMES) {
      const data = jsonOf(runs[name]);
      expect(data.archived_at).not.toBeNull();
      expect(await modes[name].get(`/v1/event-types/${made[name].id}`)).toEqual(data);
      const again = jsonOf(
        await modes[name].run(['event-types', 'create', '--slug', 'deep-dive', '--name', 'Again', '--duration', '30', '--json']),
      );
      expect(again.id).not.toBe(made[name].id);
    }
  });

  it('an event type of someone the caller may not act for is not found (exit 3)', async () => {
    const runs = await modes.both(['event-types', 'get', INTRO], { token: TOKENS.ben });
    for (const name of MODE_NAMES) expect(runs[name]).toEqual(failure(3, 'event_type_not_found', 'No such event type.'));
  });
});
