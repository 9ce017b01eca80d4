import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { isUuid, randomIds, sequentialIds } from '../src/ids.js';
import { DEFAULT_LIMITS } from '../src/rate-limit/limits.js';
import { loadLimits } from '../src/rate-limit/load-limits.js';
import type { Database } from '../src/storage/schema.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace, WorkspaceError } from '../src/workspace/parse-workspace.js';

import { storeFixtures } from './support/stores.js';

/** The problems a workspace is refused with; fails the test when it is not a WorkspaceError. */
async function problemsOf(work: () => unknown): Promise<readonly string[]> {
  try {
    await work();
  } catch (error) {
    if (error instanceof WorkspaceError) return error.problems;
    throw error;
  }
  throw new Error('expected a WorkspaceError, but the workspace was accepted');
}

const T0 = '2026-02-01T08:00:00.000Z';

/** A workspace that omits every optional id and exercises each kind of entry. */
function sampleWorkspace() {
  return {
    organization: { name: 'Acme' },
    users: [
      {
        username: 'alice',
        email: 'alice@acme.test',
        name: 'Alice Host',
        timezone: 'Europe/Berlin',
        role: 'owner',
        calendars: [{ kind: 'static', busy: [{ start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' }] }],
      },
      { username: 'bob', email: 'bob@acme.test', role: 'manager', manages: ['carol'] },
      { username: 'carol', email: 'carol@acme.test' },
    ],
    event_types: [
      { owner: 'alice', slug: 'intro', name: 'Intro call', duration_minutes: 30 },
      { owner: 'carol', slug: 'intro', name: 'Carol intro', duration_minutes: 45 },
    ],
    tokens: [
      { name: 'alice-ci', user: 'alice', secret: 'pat_secret_alice_ci', scopes: ['bookings:read'] },
      { name: 'carol-old', user: 'carol', secret: 'pat_secret_carol_old', scopes: ['bookings:read'], revoked: true },
    ],
    bookings: [
      {
        event_type: 'intro',
        host: 'alice',
        start: '2026-03-02T09:00:00Z',
        attendee: { email: 'dan@example.com', first_name: 'Dan', last_name: 'Dee' },
      },
      {
        event_type: 'intro',
        host: 'carol',
        start: '2026-03-03T10:00:00Z',
        attendee: { email: 'erin@example.com', name: 'Erin', timezone: 'America/New_York' },
        status: 'canceled',
        cancellation_reason: 'moved away',
      },
      {
        uid: '30000000-0000-4000-8000-00000000000c',
        event_type: 'intro',
        host: 'alice',
        start: '2026-03-04T11:00:00Z',
        attendee: { email: 'fay@example.com', name: 'Fay' },
        metadata: { source: 'import' },
      },
    ],
  };
}

const TABLES = ['organization', 'users', 'event_types', 'tokens', 'bookings'] as const;
type Table = (typeof TABLES)[number];

const ORDER_BY: Record<Table, string> = { organization: 'id', users: 'id', event_types: 'id', tokens: 'id', bookings: 'uid' };

async function dumpTable(store: Store, table: Table): Promise<unknown[]> {
  return store.db
    .selectFrom(table)
    .selectAll()
    .orderBy(ORDER_BY[table] as keyof Database[Table] & string)
    .execute();
}

async function load(store: Store, clock = manualClock(T0), workspace: object = sampleWorkspace()) {
  return loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
}

describe('parseWorkspace', () => {
  it('refuses text that is not JSON, with the parser message at (root)', async () => {
    const text = '{"users": [';
    let message = '';
    try {
      JSON.parse(text);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(await problemsOf(() => parseWorkspace(text))).toEqual([`(root): not valid JSON: ${message}`]);
  });

  it('names the JSON path of a bad email', async () => {
    const text = JSON.stringify({ users: [{ username: 'alice', email: 'not-an-email' }] });
    expect(await problemsOf(() => parseWorkspace(text))).toEqual(['users[0].email: Invalid email address']);
  });

  it('names every problem of a file, each by its path', async () => {
    const text = JSON.stringify({
      users: [{ username: 'a b', email: 'a@acme.test', timezone: 'Mars/Olympus_Mons' }],
      event_types: [{ owner: 'a', slug: 'Intro', name: 'Intro', duration_minutes: 0 }],
      tokens: [{ name: 't', user: 'a', secret: 'short', scopes: ['bookings:read'] }],
    });
    expect(await problemsOf(() => parseWorkspace(text))).toEqual([
      'users[0].username: must be letters, digits, dot, dash or underscore',
      'users[0].timezone: must be an IANA time zone name',
      'event_types[0].slug: must be lowercase letters, digits and dashes',
      'event_types[0].duration_minutes: Too small: expected number to be >=1',
      'tokens[0].secret: must be at least 16 characters',
    ]);
  });

  it('names a nested schedule interval by index', async () => {
    const text = JSON.stringify({
      users: [
        {
          username: 'alice',
          email: 'alice@acme.test',
          schedule: {
            weekly: {
              mon: [
                ['09:00', '12:00'],
                ['14:00', '13:00'],
              ],
            },
          },
        },
      ],
    });
    expect(await problemsOf(() => parseWorkspace(text))).toEqual(['users[0].schedule.weekly.mon[1]: an interval must end after it starts']);
  });

  it('names bad booking fields by path', async () => {
    const text = JSON.stringify({ bookings: [{ event_type: 'intro', start: 'soon', attendee: { email: 'x' } }] });
    expect(await problemsOf(() => parseWorkspace(text))).toEqual([
      'bookings[0].start: must be an ISO 8601 timestamp',
      'bookings[0].attendee.email: Invalid email address',
    ]);
  });

  it('lists the problems in the error message, one a line', () => {
    const text = JSON.stringify({
      users: [{ username: 'alice', email: 'nope' }],
      tokens: [{ name: 't', user: 'alice', secret: 'x', scopes: [] }],
    });
    expect(() => parseWorkspace(text)).toThrow(
      'invalid workspace:\n  users[0].email: Invalid email address\n  tokens[0].secret: must be at least 16 characters',
    );
  });

  it('fills the defaults of an empty file', () => {
    expect(parseWorkspace('{}')).toEqual({
      demo: false,
      organization: { name: 'Workspace' },
      attendee_mail: true,
      users: [],
      event_types: [],
      tokens: [],
      bookings: [],
      oauth_clients: [],
    });
  });
});

describe.each(storeFixtures())('loadWorkspace on $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it.each([
    [
      'an event type owner',
      { event_types: [{ owner: 'nobody', slug: 'x', name: 'X', duration_minutes: 30 }] },
      'event_types[0].owner: no user "nobody"',
    ],
    [
      'a token user',
      { tokens: [{ name: 't', user: 'nobody', secret: 'pat_0123456789abcdef', scopes: [] }] },
      'tokens[0].user: no user "nobody"',
    ],
    [
      'a managed user',
      {
        users: [
          { username: 'm', email: 'm@acme.test', role: 'manager', manages: ['carol', 'nobody'] },
          { username: 'carol', email: 'c@acme.test' },
        ],
      },
      'users[0].manages[1]: no user "nobody"',
    ],
    [
      'a booking event type',
      { bookings: [{ event_type: 'nope', start: '2026-03-02T09:00:00Z', attendee: { email: 'd@example.com' } }] },
      'bookings[0].event_type: no event type "nope"',
    ],
    [
      'a booking host',
      { bookings: [{ event_type: 'intro', host: 'nobody', start: '2026-03-02T09:00:00Z', attendee: { email: 'd@example.com' } }] },
      'bookings[0].host: no user "nobody"',
    ],
  ])('refuses a dangling reference to %s and writes nothing', async (_, extra, problem) => {
    const store = await fixture.open();
    const workspace = { users: [{ username: 'alice', email: 'alice@acme.test' }], ...extra };
    expect(await problemsOf(() => load(store, manualClock(T0), workspace))).toEqual([problem]);
    for (const table of TABLES) expect(await dumpTable(store, table)).toEqual([]);
  });

  it('refuses a booking whose slug two hosts share when it names no host', async () => {
    const store = await fixture.open();
    const workspace = sampleWorkspace();
    workspace.bookings = [{ event_type: 'intro', start: '2026-03-02T09:00:00Z', attendee: { email: 'd@example.com' } }] as never;
    expect(await problemsOf(() => load(store, manualClock(T0), workspace))).toEqual([
      'bookings[0].event_type: more than one event type (name the host) "intro"',
    ]);
  });

  it('refuses a username that appears twice', async () => {
    const store = await fixture.open();
    const workspace = {
      users: [
        { username: 'alice', email: 'alice@acme.test' },
        { username: 'alice', email: 'other@acme.test' },
      ],
    };
    expect(await problemsOf(() => load(store, manualClock(T0), workspace))).toEqual(['users[1].username: "alice" appears twice']);
  });

  it('reports what the first load wrote', async () => {
    const store = await fixture.open();
    expect(await load(store)).toEqual({ users: 3, eventTypes: 2, tokens: 2, bookingsWritten: 3, bookingsUnchanged: 0, oauthClients: 0 });
  });

  it('imports a booking with its uid, its length from the event type and its title from both names', async () => {
    const store = await fixture.open();
    await load(store);
    const row = await store.db
      .selectFrom('bookings')
      .selectAll()
      .where('uid', '=', '30000000-0000-4000-8000-00000000000c')
      .executeTakeFirst();
    expect(row).toMatchObject({
      version: 1,
      title: 'Intro call between Alice Host and Fay',
      status: 'confirmed',
      start_at: '2026-03-04T11:00:00.000Z',
      end_at: '2026-03-04T11:30:00.000Z',
      timezone: 'UTC',
      attendee_email: 'fay@example.com',
      attendees_json: JSON.stringify([{ email: 'fay@example.com', name: 'Fay', timezone: 'UTC' }]),
      metadata_json: '{"source":"import"}',
      responses_json: null,
      calendar_sync_status: 'synced',
      cancelled_at: null,
      created_at: T0,
      updated_at: T0,
    });
  });

  it('imports a canceled booking with its reason, the start as its cancel time, and no calendar when the host has none', async () => {
    const store = await fixture.open();
    await load(store);
    const row = await store.db
      .selectFrom('bookings')
      .selectAll()
      .where('attendee_email', '=', 'erin@example.com')
      .executeTakeFirstOrThrow();
    expect({
      title: row.title,
      status: row.status,
      end_at: row.end_at,
      timezone: row.timezone,
      cancelled_at: row.cancelled_at,
      cancellation_reason: row.cancellation_reason,
      calendar_sync_status: row.calendar_sync_status,
    }).toEqual({
      title: 'Carol intro between carol and Erin',
      status: 'canceled',
      end_at: '2026-03-03T10:45:00.000Z',
      timezone: 'America/New_York',
      cancelled_at: '2026-03-03T10:00:00.000Z',
      cancellation_reason: 'moved away',
      calendar_sync_status: 'not_applicable',
    });
  });

  it.each(TABLES)('leaves the %s table exactly as it was when the same file is loaded again later', async (table) => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await load(store, clock);
    const before = await dumpTable(store, table);
    clock.advance(60 * 60_000);
    await load(store, clock);
    expect(await dumpTable(store, table)).toEqual(before);
  });

  it('reports every booking unchanged on a second load of the same file', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await load(store, clock);
    clock.advance(60 * 60_000);
    expect(await load(store, clock)).toEqual({
      users: 3,
      eventTypes: 2,
      tokens: 2,
      bookingsWritten: 0,
      bookingsUnchanged: 3,
      oauthClients: 0,
    });
  });

  it('updates a changed booking entry, bumping its version, and leaves the others untouched', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await load(store, clock);
    const before = (await dumpTable(store, 'bookings')) as Database['bookings'][];
    const changed = sampleWorkspace();
    changed.bookings[2]!.attendee.name = 'Fay Renamed';
    clock.advance(60 * 60_000);

    expect(await load(store, clock, changed)).toEqual({
      users: 3,
      eventTypes: 2,
      tokens: 2,
      bookingsWritten: 1,
      bookingsUnchanged: 2,
      oauthClients: 0,
    });

    const after = (await dumpTable(store, 'bookings')) as Database['bookings'][];
    const uid = '30000000-0000-4000-8000-00000000000c';
    const old = before.find((b) => b.uid === uid)!;
    const now = after.find((b) => b.uid === uid)!;
    expect(now).toEqual({
      ...old,
      version: 2,
      title: 'Intro call between Alice Host and Fay Renamed',
      attendees_json: JSON.stringify([{ email: 'fay@example.com', name: 'Fay Renamed', timezone: 'UTC' }]),
      import_hash: now.import_hash,
      updated_at: '2026-02-01T09:00:00.000Z',
    });
    expect(now.import_hash).not.toBe(old.import_hash);
    expect(after.filter((b) => b.uid !== uid)).toEqual(before.filter((b) => b.uid !== uid));
  });

  it('stores token secrets only as SHA-256 hashes', async () => {
    const store = await fixture.open();
    await load(store);
    const rows = await dumpTable(store, 'tokens');
    const text = JSON.stringify(rows);
    expect(text).not.toContain('pat_secret_alice_ci');
    expect(text).not.toContain('pat_secret_carol_old');
    const hashes = (rows as { name: string; secret_hash: string }[]).map((r) => [r.name, r.secret_hash]).sort();
    const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
    expect(hashes).toEqual([
      ['alice-ci', sha256('pat_secret_alice_ci')],
      ['carol-old', sha256('pat_secret_carol_old')],
    ]);
  });

  it('keeps the time of a revocation when the file is loaded again, and clears it when the file un-revokes', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await load(store, clock);
    clock.advance(60 * 60_000);
    await load(store, clock);
    const revokedAt = () => store.db.selectFrom('tokens').select('revoked_at').where('name', '=', 'carol-old').executeTakeFirstOrThrow();
    expect(await revokedAt()).toEqual({ revoked_at: T0 });

    const unrevoked = sampleWorkspace();
    unrevoked.tokens[1]!.revoked = false;
    await load(store, clock, unrevoked);
    expect(await revokedAt()).toEqual({ revoked_at: null });
  });

  it('revokes a token that an earlier file loaded un-revoked', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    const unrevoked = sampleWorkspace();
    unrevoked.tokens[1]!.revoked = false;
    await load(store, clock, unrevoked);
    clock.advance(60 * 60_000);
    await load(store, clock);
    const row = await store.db.selectFrom('tokens').select('revoked_at').where('name', '=', 'carol-old').executeTakeFirstOrThrow();
    expect(row).toEqual({ revoked_at: '2026-02-01T09:00:00.000Z' });
  });

  it('derives the same ids for entries without one, on every load and in every database', async () => {
    const first = await fixture.open();
    const second = await fixture.open();
    const clock = manualClock(T0);
    const ids = async (store: Store) => ({
      users: (await store.db.selectFrom('users').select(['username', 'id']).orderBy('username').execute()).map((r) => [r.username, r.id]),
      eventTypes: (await store.db.selectFrom('event_types').select(['slug', 'name', 'id']).orderBy('name').execute()).map((r) => [
        r.name,
        r.id,
      ]),
      bookings: (await store.db.selectFrom('bookings').select(['attendee_email', 'uid']).orderBy('attendee_email').execute()).map((r) => [
        r.attendee_email,
        r.uid,
      ]),
    });
    await load(first, clock);
    const once = await ids(first);
    clock.advance(60_000);
    await load(first, clock);
    await loadWorkspace({ store: second, clock, ids: sequentialIds() }, parseWorkspace(JSON.stringify(sampleWorkspace())));

    expect(await ids(first)).toEqual(once);
    expect(await ids(second)).toEqual(once);
    const all = [...once.users, ...once.eventTypes, ...once.bookings].map(([, id]) => id as string);
    expect(all.every(isUuid)).toBe(true);
    expect(new Set(all).size).toBe(all.length);
    expect(once.bookings[2]).toEqual(['fay@example.com', '30000000-0000-4000-8000-00000000000c']);
  });

  it('stores attendee_mail for the workspace and each event type: on unless a file turns it off, and back on when a later file drops it', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    const switches = async () => ({
      workspace: (await store.db.selectFrom('organization').select('attendee_mail').executeTakeFirstOrThrow()).attendee_mail,
      eventTypes: (await store.db.selectFrom('event_types').select(['name', 'attendee_mail']).orderBy('name').execute()).map(
        (e) => `${e.name}: ${e.attendee_mail}`,
      ),
    });
    await load(store, clock);
    expect(await switches()).toEqual({ workspace: 1, eventTypes: ['Carol intro: 1', 'Intro call: 1'] });

    const quiet = sampleWorkspace();
    await load(store, clock, {
      ...quiet,
      attendee_mail: false,
      event_types: [quiet.event_types[0], { ...quiet.event_types[1], attendee_mail: false }],
    });
    expect(await switches()).toEqual({ workspace: 0, eventTypes: ['Carol intro: 0', 'Intro call: 1'] });

    await load(store, clock);
    expect(await switches()).toEqual({ workspace: 1, eventTypes: ['Carol intro: 1', 'Intro call: 1'] });
  });

  it('refuses an attendee_mail that is not a boolean, by its path', () => {
    expect(() => parseWorkspace(JSON.stringify({ attendee_mail: 'no' }))).toThrow(
      'attendee_mail: Invalid input: expected boolean, received string',
    );
  });

  it('reads the default limits from an empty store', async () => {
    const store = await fixture.open();
    expect(await loadLimits(store)).toEqual(DEFAULT_LIMITS);
  });

  it('stores the default limits when the file sets none', async () => {
    const store = await fixture.open();
    await load(store);
    expect(await loadLimits(store)).toEqual(DEFAULT_LIMITS);
  });

  it('stores the limits a file sets, filling the ones it omits, and keeps them when a later file sets none', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await load(store, clock, { ...sampleWorkspace(), limits: { pat_per_minute: 10, anonymous_per_minute: 3 } });
    expect(await loadLimits(store)).toEqual({ ...DEFAULT_LIMITS, pat_per_minute: 10, anonymous_per_minute: 3 });
    await load(store, clock);
    expect(await loadLimits(store)).toEqual({ ...DEFAULT_LIMITS, pat_per_minute: 10, anonymous_per_minute: 3 });
  });
});

describe('booking-form questions in a workspace', () => {
  const withQuestions = (questions: unknown[]) =>
    JSON.stringify({
      users: [{ username: 'ann', email: 'ann@example.test' }],
      event_types: [{ owner: 'ann', slug: 'x', name: 'X', duration_minutes: 30, questions }],
    });

  it('a question is a text question unless it says otherwise, and not required', () => {
    expect(parseWorkspace(withQuestions([{ id: 'topic', label: 'Topic' }])).event_types[0]?.questions).toEqual([
      { id: 'topic', label: 'Topic', type: 'text', required: false },
    ]);
  });

  it('options come exactly with select and multi_select questions', () => {
    expect(() => parseWorkspace(withQuestions([{ id: 'size', label: 'Size', type: 'select' }]))).toThrow(
      'event_types[0].questions[0].options: options are given exactly for select and multi_select questions',
    );
    expect(() => parseWorkspace(withQuestions([{ id: 'topic', label: 'Topic', options: ['a'] }]))).toThrow(
      'event_types[0].questions[0].options: options are given exactly for select and multi_select questions',
    );
    expect(
      parseWorkspace(withQuestions([{ id: 'size', label: 'Size', type: 'select', options: ['S', 'M'], required: true }])).event_types[0]
        ?.questions,
    ).toEqual([{ id: 'size', label: 'Size', type: 'select', options: ['S', 'M'], required: true }]);
  });
});
