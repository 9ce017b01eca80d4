import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { isScheduleError } from '../src/errors.js';
import { randomIds } from '../src/ids.js';
import type { Store } from '../src/storage/store.js';
import { applyWorkspace } from '../src/workspace/apply-plan.js';
import { exportWorkspace } from '../src/workspace/export-workspace.js';
import { parseDeclaredWorkspace, WorkspaceError } from '../src/workspace/parse-workspace.js';
import { type PlanItem, planWorkspace, type WorkspacePlan } from '../src/workspace/plan-workspace.js';
import { storeFixtures } from './support/stores.js';

// Issue 32, "The workspace file becomes declarative": a file is compared
// with the database as a plan (create, change, unchanged, not in file)
// before anything is written; apply writes exactly what the plan lists;
// export writes the database as a file that plans empty.

const T0 = '2026-11-02T08:00:00.000Z';

/** A file as `schedule apply -f` reads it: validated, with the sections it has. */
const declared = (file: object) => parseDeclaredWorkspace(JSON.stringify(file));

/** Every kind a file declares: schedules, three kinds of calendar, questions, OAuth clients, limits. */
function richFile() {
  return {
    organization: { name: 'Northwind' },
    attendee_mail: false,
    limits: { pat_per_minute: 90 },
    users: [
      {
        username: 'rosa',
        email: 'rosa@northwind.test',
        name: 'Rosa Diaz',
        timezone: 'America/Chicago',
        role: 'manager',
        manages: ['tomas'],
        schedule: {
          weekly: {
            mon: [
              ['08:30', '12:00'],
              ['13:00', '17:00'],
            ],
            fri: [['10:00', '16:00']],
          },
          overrides: [{ date: '2026-12-25', intervals: [] }],
        },
        calendars: [
          { kind: 'ics', url: 'https://calendar.example/rosa.ics' },
          { kind: 'static', busy: [{ start: '2026-12-02T15:00:00Z', end: '2026-12-02T16:30' }] },
          {
            kind: 'caldav',
            url: 'https://dav.example/',
            username: 'rosa',
            password_env: 'ROSA_DAV',
            busy_calendars: ['Work'],
            book_into: null,
          },
        ],
      },
      { username: 'tomas', email: 'tomas@northwind.test', timezone: 'Europe/Madrid' },
    ],
    event_types: [
      {
        owner: 'rosa',
        slug: 'demo-call',
        name: 'Product demo',
        duration_minutes: 45,
        slot_interval_minutes: 15,
        minimum_notice_minutes: 240,
        cancel_notice_minutes: 1440,
        reschedule_notice_minutes: 120,
        future_limit_days: 30,
        buffer_after_minutes: 15,
        recurring: 'off',
        allow_reschedule: false,
        attendee_mail: false,
        visibility: 'hidden',
        questions: [
          { id: 'company', label: 'Company', required: true },
          { id: 'seats', label: 'How many seats?', type: 'number' },
          { id: 'plan', label: 'Plan', type: 'select', options: ['team', 'enterprise'] },
        ],
      },
      { owner: 'tomas', slug: 'intro', name: 'Intro', duration_minutes: 30, status: 'off' },
      { owner: 'tomas', slug: 'sales', name: 'Sales', duration_minutes: 30 },
    ],
    tokens: [{ name: 'crm', user: 'rosa', secret: 'pat_secret_rosa_crm_0001', scopes: ['bookings:read'] }],
    bookings: [{ event_type: 'demo-call', start: '2026-11-30T16:00:00Z', attendee: { email: 'lee@customer.test', name: 'Lee' } }],
    oauth_clients: [{ client_id: 'northwind-desktop', client_name: 'Northwind desktop', redirect_uris: ['http://127.0.0.1/callback'] }],
  };
}

/** The file the database exports, without the tokens and bookings export leaves out. */
type File = ReturnType<typeof richFile>;

const byAction = (plan: WorkspacePlan, action: PlanItem['action']) => plan.items.filter((item) => item.action === action);
/** The plan without unchanged lines, as `kind label` → what it says. */
const changed = (plan: WorkspacePlan) =>
  plan.items
    .filter((item) => item.action !== 'unchanged')
    .map((item) => {
      const { kind, label, action } = item;
      if (action === 'change') return { kind, label, action, changes: item.changes };
      if (action === 'not_in_file') return { kind, label, action, prune: item.prune, pruning: item.pruning };
      return { kind, label, action };
    });

async function refusal(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal, but it was accepted');
}

describe.each(storeFixtures())('workspace plan, apply and export on $name (issue 32)', (fixture) => {
  afterAll(() => fixture.cleanup());

  async function opened(file: object = richFile()) {
    const store: Store = await fixture.open();
    const deps = { store, clock: manualClock(T0), ids: randomIds };
    await applyWorkspace(deps, declared(file));
    return { store, deps };
  }

  it('plans a rich workspace as all creates on an empty database, then all unchanged once applied', async () => {
    const store = await fixture.open();
    const deps = { store, clock: manualClock(T0), ids: randomIds };
    const first = await planWorkspace(deps, declared(richFile()));
    // A database without an organization row has the defaults, so the organization is changed, not created.
    expect(first.summary).toEqual({ create: 8, change: 1, unchanged: 0, not_in_file: 0, prune: 0 });
    expect(first.items[0]).toEqual({
      kind: 'organization',
      key: 'organization',
      label: 'organization',
      action: 'change',
      changes: [
        { field: 'name', from: 'Workspace', to: 'Northwind' },
        { field: 'attendee_mail', from: true, to: false },
        { field: 'limits.pat_per_minute', from: 120, to: 90 },
      ],
    });
    expect(first.changes).toBe(true);
    // A plan writes nothing.
    expect(await store.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect(await applyWorkspace(deps, declared(richFile()))).toEqual(first);
    const second = await planWorkspace(deps, declared(richFile()));
    expect(second.changes).toBe(false);
    expect(second.summary).toEqual({ create: 0, change: 0, unchanged: 9, not_in_file: 0, prune: 0 });
  });

  it('exports a file that plans empty: schedules, calendars, questions, OAuth clients, limits and switches', async () => {
    const { store, deps } = await opened();
    // An account added through the API (sealed password) is not the file's: neither exported nor planned away.
    const row = await store.db
      .selectFrom('users')
      .select(['id', 'calendars_json'])
      .where('username', '=', 'rosa')
      .executeTakeFirstOrThrow();
    const added = { kind: 'caldav', id: 'cal_addedthroughapi', url: 'https://dav2.example/', username: 'r', password_sealed: 'sealed' };
    await store.db
      .updateTable('users')
      .set({ calendars_json: JSON.stringify([...JSON.parse(row.calendars_json), added]) })
      .where('id', '=', row.id)
      .execute();

    const exported = (await exportWorkspace(store.db)) as Partial<File> & Record<string, unknown>;
    expect(Object.keys(exported).sort()).toEqual(['attendee_mail', 'event_types', 'limits', 'oauth_clients', 'organization', 'users']);
    expect(exported.users?.[0]).toMatchObject({ username: 'rosa', manages: ['tomas'], schedule: richFile().users[0]!.schedule });
    expect(exported.users?.[0]?.calendars).toHaveLength(3);
    // Every field the file declared comes back as it was (questions with their defaults filled in).
    expect(exported.event_types?.find((e) => e.slug === 'demo-call')).toMatchObject(richFile().event_types[0]!);

    const plan = await planWorkspace(deps, declared(exported));
    expect(changed(plan)).toEqual([]);
    expect(plan.summary).toEqual({ create: 0, change: 0, unchanged: 7, not_in_file: 0, prune: 0 });
  });

  it('plans exactly the entries and fields a changed file changes, and lists what it no longer names', async () => {
    const { deps } = await opened();
    const file = richFile();
    file.event_types[0]!.duration_minutes = 60;
    file.event_types[0]!.questions!.pop();
    file.users[1]!.timezone = 'Europe/Lisbon';
    file.event_types.splice(2, 1, { owner: 'rosa', slug: 'onboarding', name: 'Onboarding', duration_minutes: 20 });
    file.users[0]!.manages = [];
    const plan = await planWorkspace(deps, declared(file));
    const demoQuestions = richFile().event_types[0]!.questions!.map((q) => ({ type: 'text', required: false, ...q }));
    expect(changed(plan)).toEqual([
      { kind: 'user', label: 'rosa', action: 'change', changes: [{ field: 'manages', from: ['tomas'], to: [] }] },
      { kind: 'user', label: 'tomas', action: 'change', changes: [{ field: 'timezone', from: 'Europe/Madrid', to: 'Europe/Lisbon' }] },
      {
        kind: 'event_type',
        label: 'rosa/demo-call',
        action: 'change',
        changes: [
          { field: 'duration_minutes', from: 45, to: 60 },
          { field: 'questions', from: demoQuestions, to: demoQuestions.slice(0, 2) },
        ],
      },
      { kind: 'event_type', label: 'rosa/onboarding', action: 'create' },
      // The switched-off intro is named; sales is not, and would be archived with --prune.
      { kind: 'event_type', label: 'tomas/sales', action: 'not_in_file', prune: 'archive', pruning: false },
    ]);
    expect(plan.changes).toBe(true);
  });

  it('applies exactly what the plan said: the export after differs from the one before in the planned fields only', async () => {
    const { store, deps } = await opened();
    const before = (await exportWorkspace(store.db)) as File;
    const file = { ...before, event_types: structuredClone(before.event_types), users: structuredClone(before.users) };
    file.event_types[0]!.name = 'Renamed';
    file.users[1]!.name = 'Tomás';
    const plan = await applyWorkspace(deps, declared(file));
    const after = (await exportWorkspace(store.db)) as File;

    const expected = structuredClone(before);
    for (const item of plan.items) {
      if (item.action !== 'change') continue;
      const list: Record<string, unknown>[] = item.kind === 'user' ? expected.users : expected.event_types;
      const entry = list.find((e) => e.id === item.key)!;
      for (const change of item.changes) entry[change.field] = change.to;
    }
    expect(byAction(plan, 'change')).toHaveLength(2);
    expect(after).toEqual(expected);
    expect((await planWorkspace(deps, declared(after))).changes).toBe(false);
  });

  it('prunes per kind: event types archived, tokens revoked, OAuth clients removed; people kept and listed', async () => {
    const { store, deps } = await opened();
    const file = { users: [richFile().users[1]], event_types: [richFile().event_types[1]], tokens: [], oauth_clients: [] };
    const dry = await planWorkspace(deps, declared(file), { prune: true });
    expect(changed(dry)).toEqual([
      { kind: 'user', label: 'rosa', action: 'not_in_file', prune: 'not_supported', pruning: false },
      { kind: 'event_type', label: 'rosa/demo-call', action: 'not_in_file', prune: 'archive', pruning: true },
      { kind: 'event_type', label: 'tomas/sales', action: 'not_in_file', prune: 'archive', pruning: true },
      { kind: 'token', label: 'rosa/crm', action: 'not_in_file', prune: 'revoke', pruning: true },
      { kind: 'oauth_client', label: 'northwind-desktop', action: 'not_in_file', prune: 'revoke', pruning: true },
    ]);
    // Without --prune the same lines are listed but nothing would be written.
    expect((await planWorkspace(deps, declared(file))).changes).toBe(false);

    expect(await applyWorkspace(deps, declared(file), { prune: true })).toEqual(dry);
    // Archived as DELETE /v1/event-types/:id does: the rows stay, their slugs are freed, the named intro is kept.
    const types = await store.db.selectFrom('event_types').select(['slug', 'archived_slug', 'archived_at']).orderBy('created_at').execute();
    expect(types.map((t) => [t.archived_slug ?? t.slug, t.archived_at, t.slug.startsWith('~')]).sort()).toEqual([
      ['demo-call', T0, true],
      ['intro', null, false],
      ['sales', T0, true],
    ]);
    const tokens = await store.db.selectFrom('tokens').select(['name', 'revoked_at']).execute();
    expect(tokens).toEqual([{ name: 'crm', revoked_at: T0 }]);
    expect(await store.db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').execute()).toEqual([]);
    expect((await store.db.selectFrom('users').select('username').orderBy('username').execute()).map((u) => u.username)).toEqual([
      'rosa',
      'tomas',
    ]);
    // Pruned is pruned: only the person a file cannot deactivate is still listed, and nothing is left to do.
    const again = await planWorkspace(deps, declared(file), { prune: true });
    expect(changed(again)).toEqual([{ kind: 'user', label: 'rosa', action: 'not_in_file', prune: 'not_supported', pruning: false }]);
    expect(again.changes).toBe(false);
  });

  it('leaves the kinds a file omits alone, even with --prune', async () => {
    const { store, deps } = await opened();
    const before = await exportWorkspace(store.db);
    const tokensBefore = await store.db.selectFrom('tokens').selectAll().execute();
    const file = { event_types: richFile().event_types };
    const plan = await applyWorkspace(deps, declared(file), { prune: true });
    expect(plan.items.map((item) => item.kind)).toEqual(['event_type', 'event_type', 'event_type']);
    expect(plan.changes).toBe(false);
    expect(await exportWorkspace(store.db)).toEqual(before);
    expect(await store.db.selectFrom('tokens').selectAll().execute()).toEqual(tokensBefore);
  });

  it('keeps the organization fields a file leaves out: a file with only limits changes only limits', async () => {
    const { store, deps } = await opened();
    const plan = await applyWorkspace(deps, declared({ limits: { pat_per_minute: 50 } }));
    expect(changed(plan)).toEqual([
      { kind: 'organization', label: 'organization', action: 'change', changes: [{ field: 'limits.pat_per_minute', from: 90, to: 50 }] },
    ]);
    expect(await exportWorkspace(store.db)).toMatchObject({ organization: { name: 'Northwind' }, attendee_mail: false });
  });

  it('refuses a file with a bad reference and writes nothing, not even its good changes', async () => {
    const { store, deps } = await opened();
    const before = await exportWorkspace(store.db);
    const file = richFile();
    file.event_types[0]!.duration_minutes = 90;
    file.tokens.push({ name: 'ghost', user: 'nobody', secret: 'pat_secret_ghost_00001', scopes: ['bookings:read'] });
    const error = await refusal(() => applyWorkspace(deps, declared(file), { prune: true }));
    expect(error).toBeInstanceOf(WorkspaceError);
    expect((error as WorkspaceError).problems).toEqual(['tokens[1].user: no user "nobody"']);
    expect(await exportWorkspace(store.db)).toEqual(before);
  });

  it('refuses an event type named twice', async () => {
    const { deps } = await opened();
    const file = richFile();
    file.event_types.push({ ...file.event_types[2]!, name: 'Sales again' });
    const error = await refusal(() => planWorkspace(deps, declared(file)));
    expect((error as WorkspaceError).problems).toEqual(['event_types[3]: "tomas/sales" appears twice']);
  });

  it('writes nothing when the database changed after the plan that was confirmed', async () => {
    const { store, deps } = await opened();
    const file = richFile();
    file.event_types[0]!.name = 'Confirmed name';
    const confirmed = await planWorkspace(deps, declared(file));
    await store.db.updateTable('event_types').set({ duration_minutes: 50 }).where('slug', '=', 'demo-call').execute();
    const error = await refusal(() => applyWorkspace(deps, declared(file), { expected: confirmed }));
    expect(isScheduleError(error) && error.code).toBe('version_conflict');
    const row = await store.db.selectFrom('event_types').select('name').where('slug', '=', 'demo-call').executeTakeFirstOrThrow();
    expect(row.name).toBe('Product demo');
  });

  it('plans an imported booking whose entry changed as a change, never lists bookings the file does not name, and exports none', async () => {
    const { store, deps } = await opened();
    const file = richFile();
    file.bookings[0]!.attendee.name = 'Lee Park';
    const plan = await applyWorkspace(deps, declared({ bookings: file.bookings }), { prune: true });
    expect(plan.items).toEqual([
      {
        kind: 'booking',
        key: expect.any(String),
        label: expect.stringContaining('2026-11-30T16:00:00.000Z lee@customer.test'),
        action: 'change',
        changes: [{ field: 'entry', from: expect.stringMatching(/^[0-9a-f]{64}$/), to: expect.stringMatching(/^[0-9a-f]{64}$/) }],
      },
    ]);
    const row = await store.db.selectFrom('bookings').select(['version', 'attendees_json']).executeTakeFirstOrThrow();
    expect(row.version).toBe(2);
    expect(JSON.parse(row.attendees_json)[0].name).toBe('Lee Park');
    // A file without the booking names no bookings: nothing listed, nothing pruned.
    expect((await applyWorkspace(deps, declared({ bookings: [] }), { prune: true })).items).toEqual([]);
    expect(await store.db.selectFrom('bookings').select('status').execute()).toEqual([{ status: 'confirmed' }]);
    expect(await exportWorkspace(store.db)).not.toHaveProperty('bookings');
  });

  it('keeps the id of an event type made elsewhere when a file without ids names its owner and slug', async () => {
    const { store, deps } = await opened();
    await store.db.updateTable('event_types').set({ id: '7e000000-0000-4000-8000-000000000abc' }).where('slug', '=', 'sales').execute();
    const plan = await planWorkspace(deps, declared(richFile()));
    expect(plan.changes).toBe(false);
  });
});
