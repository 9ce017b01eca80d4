import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { jsonOf } from './support/cli-run.js';
import { SERIES_SECRETS, SERIES_USERS, seriesWorkspace, tokyoAt } from './support/series-workspace.js';

// Issue 35 through the real binary, embedded (`--db`) and remote
// (`--api-url`): ora (the owner) makes a round-robin type of hal and gil with
// --scheduling and --hosts, books it (the rule's host, or the one asked for
// with --team-host), and a bad --hosts is refused naming the flag.

let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), SERIES_SECRETS.ora);
});

afterAll(async () => {
  await modes?.stop();
});

describe('round-robin types from the CLI', () => {
  const made: Record<string, string> = {};

  it('event-types create --scheduling round_robin --hosts sets the pool, as GET shows it', async () => {
    const runs = await modes.both([
      'event-types',
      'create',
      '--slug',
      'team',
      '--name',
      'Team call',
      '--duration',
      '30',
      '--notice',
      '0',
      '--scheduling',
      'round_robin',
      '--hosts',
      `hal,${SERIES_USERS.gil}:2:1`,
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      const created = jsonOf(runs[name]) as { id: string; scheduling: string; hosts: unknown };
      made[name] = created.id;
      expect(created).toMatchObject({
        scheduling: 'round_robin',
        hosts: [
          { user_id: SERIES_USERS.hal, weight: 1, priority: 0 },
          { user_id: SERIES_USERS.gil, weight: 2, priority: 1 },
        ],
      });
      expect(await modes[name].get(`/v1/event-types/${created.id}`)).toEqual(created);
    }
  });

  it('bookings create goes to the rule’s host, or the one --team-host names', async () => {
    const book = (id: string, start: string, extra: string[] = []) => [
      'bookings',
      'create',
      '--event-type',
      id,
      '--start',
      start,
      '--attendee-email',
      'kim@example.com',
      ...extra,
      '--json',
    ];
    // gil weighs 2: (0 + 1) / 2 is the least share, so gil first.
    const first = await modes.both((m) => book(made[m.name]!, tokyoAt(1, '10:00')));
    const asked = await modes.both((m) => book(made[m.name]!, tokyoAt(1, '10:00'), ['--team-host', SERIES_USERS.hal]));
    for (const name of MODE_NAMES) {
      expect((jsonOf(first[name]) as { host: { username: string } }).host.username).toBe('gil');
      expect((jsonOf(asked[name]) as { host: { username: string } }).host.username).toBe('hal');
    }
  });

  it('bookings reassign hands a booking to the other free host, keeping its uid', async () => {
    const made2 = await modes.both((m) => [
      'bookings',
      'create',
      '--event-type',
      made[m.name]!,
      '--start',
      tokyoAt(1, '11:00'),
      '--attendee-email',
      'lee@example.com',
      '--json',
    ]);
    const runs = await modes.both((m) => [
      'bookings',
      'reassign',
      (jsonOf(made2[m.name]) as { uid: string }).uid,
      '--reason',
      'Out',
      '--json',
    ]);
    for (const name of MODE_NAMES) {
      const before = jsonOf(made2[name]) as { uid: string; host: { username: string } };
      const after = jsonOf(runs[name]) as { uid: string; host: { username: string } };
      expect([before.host.username, after.uid, after.host.username]).toEqual(['gil', before.uid, 'hal']);
      expect(await modes[name].get(`/v1/bookings/${before.uid}`)).toEqual(after);
    }
  });

  it('--scheduling collective books every host together; :fixed marks a host who meets every booking', async () => {
    const create = (slug: string, scheduling: string, hosts: string) => [
      'event-types',
      'create',
      '--slug',
      slug,
      '--name',
      slug,
      '--duration',
      '30',
      '--notice',
      '0',
      '--scheduling',
      scheduling,
      '--hosts',
      hosts,
      '--json',
    ];
    const together = await modes.both(create('together', 'collective', 'hal,gil'));
    const mixed = await modes.both(create('mixed', 'round_robin', 'hal,gil:fixed'));
    const book = (id: string) => [
      'bookings',
      'create',
      '--event-type',
      id,
      '--start',
      tokyoAt(2, '10:00'),
      '--attendee-email',
      'kim@example.com',
      '--json',
    ];
    for (const name of MODE_NAMES) {
      const type = jsonOf(mixed[name]) as { hosts: { fixed: boolean }[] };
      expect(type.hosts.map((h) => h.fixed)).toEqual([false, true]);
    }
    const both = await modes.both((m) => book((jsonOf(together[m.name]) as { id: string }).id));
    // gil is taken at that start now: the mixed type, which needs gil, has no one to book.
    const refused = await modes.both((m) => book((jsonOf(mixed[m.name]) as { id: string }).id));
    for (const name of MODE_NAMES) {
      const booking = jsonOf(both[name]) as { hosts: { username: string }[] };
      expect(booking.hosts.map((h) => h.username)).toEqual(['hal', 'gil']);
      expect(refused[name].stderr).toMatch(/^error slot_unavailable: /);
    }
  });

  it('a weight that is not a positive integer is refused naming --hosts', async () => {
    const runs = await modes.both((m) => ['event-types', 'update', made[m.name]!, '--hosts', 'hal:0']);
    for (const name of MODE_NAMES) {
      expect(runs[name].code).toBe(2);
      expect(runs[name].stderr).toMatch(/^error validation_error: --hosts: /);
    }
    expectSameInBothModes(modes, runs);
  });
});
