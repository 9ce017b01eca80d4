import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { createOAuthClient } from '../src/oauth/oauth-clients.js';
import { upsertRecord } from '../src/oauth/oauth-records.js';
import { DEFAULT_LIMITS } from '../src/rate-limit/limits.js';
import type { Store } from '../src/storage/store.js';
import { applyWorkspace } from '../src/workspace/apply-plan.js';
import { exportWorkspace } from '../src/workspace/export-workspace.js';
import { jsonPath, parseDeclaredWorkspace, WorkspaceError } from '../src/workspace/parse-workspace.js';
import { planWorkspace } from '../src/workspace/plan-workspace.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';

// Issue 32, kind by kind: what each row of the table of kinds stores, reads
// back and refuses, and what the plan's summary counts, beyond the round
// trips of workspace-plan.test.ts.

const T0 = '2026-11-02T08:00:00.000Z';
const T1 = '2026-11-02T09:00:00.000Z';
const ROSA_ID = '7e000000-0000-4000-8000-0000000000a1';
const SALES_ID = '7e000000-0000-4000-8000-0000000000b1';
const BOOKING_UID = '7e000000-0000-4000-8000-0000000000c1';

const declared = (file: object) => parseDeclaredWorkspace(JSON.stringify(file));

const ROSA = { username: 'rosa', email: 'rosa@northwind.test', role: 'manager', manages: ['tomas'] };
const TOMAS = { username: 'tomas', email: 'tomas@northwind.test' };

function baseFile() {
  return {
    users: [ROSA, TOMAS],
    event_types: [
      { owner: 'rosa', slug: 'demo', name: 'Demo', duration_minutes: 30 },
      { id: SALES_ID, owner: 'tomas', slug: 'sales', name: 'Sales', duration_minutes: 45, description: 'Talk to sales' },
    ],
    tokens: [{ name: 'crm', user: 'rosa', secret: 'pat_secret_rosa_crm_0001', scopes: ['bookings:read'] }],
    oauth_clients: [{ client_id: 'northwind-desktop', client_name: 'Northwind desktop', redirect_uris: ['http://127.0.0.1/callback'] }],
  };
}

/** The problems a workspace is refused with; fails the test when it is accepted or fails otherwise. */
async function problemsOf(work: () => Promise<unknown>): Promise<readonly string[]> {
  const error = await work().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error instanceof WorkspaceError) return error.problems;
  throw error ?? new Error('expected a WorkspaceError, but the workspace was accepted');
}

describe('WorkspaceError and jsonPath', () => {
  it('names itself, and names the root of the file (root)', () => {
    expect(new WorkspaceError(['x']).name).toBe('WorkspaceError');
    expect(jsonPath([])).toBe('(root)');
    expect(jsonPath(['users', 0, 'email'])).toBe('users[0].email');
    expect(() => declared([])).toThrow('invalid workspace:\n  (root): Invalid input: expected object, received array');
  });
});

describe.each(storeFixtures())('workspace kinds on $name (issue 32)', (fixture) => {
  afterAll(() => fixture.cleanup());

  async function opened(file: object = baseFile()) {
    const store: Store = await fixture.open();
    const clock = manualClock(T0);
    const deps = { store, clock, ids: randomIds };
    await applyWorkspace(deps, declared(file));
    return { store, clock, deps };
  }

  const userRow = (store: Store, username: string) =>
    store.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  it('counts what is not in the file and what a prune would do, and a prune alone is a change', async () => {
    const { deps } = await opened();
    const file = { users: [TOMAS], event_types: [], tokens: [], oauth_clients: [] };
    const listed = await planWorkspace(deps, declared(file));
    expect(listed.summary).toEqual({ create: 0, change: 0, unchanged: 1, not_in_file: 5, prune: 0 });
    expect(listed.changes).toBe(false);
    const pruning = await planWorkspace(deps, declared(file), { prune: true });
    // rosa cannot be pruned by a file; the two types, the token and the client can.
    expect(pruning.summary).toEqual({ create: 0, change: 0, unchanged: 1, not_in_file: 5, prune: 4 });
    expect(pruning.changes).toBe(true);
  });

  it('applies a confirmed plan that still holds, and says why it refuses one that does not', async () => {
    const { store, deps } = await opened();
    const file = baseFile();
    file.event_types[0]!.name = 'Demo call';
    const confirmed = await planWorkspace(deps, declared(file));
    expect(await applyWorkspace(deps, declared(file), { expected: confirmed })).toEqual(confirmed);
    const row = await store.db.selectFrom('event_types').select('name').where('slug', '=', 'demo').executeTakeFirstOrThrow();
    expect(row.name).toBe('Demo call');

    file.event_types[0]!.name = 'Demo again';
    const stale = await planWorkspace(deps, declared(file));
    await store.db.updateTable('event_types').set({ duration_minutes: 50 }).where('slug', '=', 'demo').execute();
    expect(await scheduleErrorOf(applyWorkspace(deps, declared(file), { expected: stale }))).toEqual({
      code: 'version_conflict',
      message: 'The database changed after the plan was shown; nothing was applied. Review the new plan.',
      details: {},
      retryAfterSeconds: undefined,
    });
  });

  it('moves a changed person to the next version, and leaves the row alone when only the working hours change', async () => {
    const { store, clock, deps } = await opened();
    const before = await userRow(store, 'tomas');
    expect(before.version).toBe(1);
    clock.advance(60 * 60_000);
    const file = baseFile();
    file.users = [ROSA, { ...TOMAS, schedule: { weekly: { mon: [['09:00', '12:00']] } } } as typeof TOMAS];
    const hours = await applyWorkspace(deps, declared(file));
    expect(hours.summary.change).toBe(1);
    const afterHours = await userRow(store, 'tomas');
    expect({ ...afterHours, schedule_json: before.schedule_json, schedule_version: 0, schedule_updated_at: null }).toEqual(before);
    expect(afterHours.schedule_version).toBe(1);

    file.users = [ROSA, { ...file.users[1]!, timezone: 'Europe/Lisbon' } as typeof TOMAS];
    await applyWorkspace(deps, declared(file));
    const changed = await userRow(store, 'tomas');
    expect({ version: changed.version, timezone: changed.timezone, updated_at: changed.updated_at }).toEqual({
      version: 2,
      timezone: 'Europe/Lisbon',
      updated_at: T1,
    });
  });

  it("keeps an account added through the API when the file changes its user, unless the file names the account's id", async () => {
    const { store, deps } = await opened();
    const fileOwn = { kind: 'caldav', url: 'https://dav.example/', username: 'rosa', password_env: 'ROSA_DAV' };
    const withOwn = { ...baseFile(), users: [{ ...ROSA, calendars: [fileOwn] }, TOMAS] };
    await applyWorkspace(deps, declared(withOwn));
    const stored = JSON.parse((await userRow(store, 'rosa')).calendars_json);
    const added = { kind: 'caldav', id: 'cal_addedthroughapi', url: 'https://dav2.example/', username: 'r', password_sealed: 'sealed' };
    await store.db
      .updateTable('users')
      .set({ calendars_json: JSON.stringify([...stored, added]) })
      .where('username', '=', 'rosa')
      .execute();

    const renamed = { ...withOwn, users: [{ ...ROSA, name: 'Rosa Diaz', calendars: [fileOwn] }, TOMAS] };
    await applyWorkspace(deps, declared(renamed));
    expect(JSON.parse((await userRow(store, 'rosa')).calendars_json)).toEqual([...stored, added]);

    const named = { kind: 'caldav', id: 'cal_addedthroughapi', url: 'https://dav3.example/', username: 'rosa', password_env: 'ROSA_DAV' };
    await applyWorkspace(deps, declared({ ...withOwn, users: [{ ...ROSA, calendars: [fileOwn, named] }, TOMAS] }));
    expect(JSON.parse((await userRow(store, 'rosa')).calendars_json)).toEqual([...stored, named]);
  });

  it('exports an event type with its description, and the limits exactly', async () => {
    const { store } = await opened({ ...baseFile(), limits: { pat_per_minute: 90 } });
    const exported = (await exportWorkspace(store.db)) as { event_types: Record<string, unknown>[]; limits: unknown };
    expect(exported.event_types.find((e) => e.slug === 'sales')).toMatchObject({ id: SALES_ID, description: 'Talk to sales' });
    expect(exported.event_types.find((e) => e.slug === 'demo')).not.toHaveProperty('description');
    expect(exported.limits).toEqual({ ...DEFAULT_LIMITS, pat_per_minute: 90 });
  });

  it('refuses a user id, a token secret or a booking uid given twice, at the second entry', async () => {
    const store = await fixture.open();
    const deps = { store, clock: manualClock(T0), ids: randomIds };
    const sameId = {
      users: [
        { ...ROSA, manages: [], id: ROSA_ID },
        { ...TOMAS, id: ROSA_ID },
      ],
    };
    expect(await problemsOf(() => planWorkspace(deps, declared(sameId)))).toEqual(['users[1]: "tomas" appears twice']);

    const token = baseFile().tokens[0]!;
    const sameSecret = { users: [ROSA, TOMAS], tokens: [token, { ...token, name: 'crm2', user: 'tomas' }] };
    expect(await problemsOf(() => planWorkspace(deps, declared(sameSecret)))).toEqual(['tokens[1]: "tomas/crm2" appears twice']);

    const booking = { uid: BOOKING_UID, event_type: 'demo', start: '2026-11-30T16:00:00Z', attendee: { email: 'lee@customer.test' } };
    const sameUid = { ...baseFile(), bookings: [booking, { ...booking, attendee: { email: 'kim@customer.test' } }] };
    expect(await problemsOf(() => planWorkspace(deps, declared(sameUid)))).toEqual([
      `bookings[1]: "${BOOKING_UID} 2026-11-30T16:00:00.000Z kim@customer.test" appears twice`,
    ]);
  });

  it('lists no confidential or self-registered client as not in the file', async () => {
    const { store, clock, deps } = await opened();
    await createOAuthClient(
      store.db,
      { clock },
      { client_name: 'Back office', redirect_uris: ['https://office.example/cb'], confidential: true },
    );
    await upsertRecord({ db: store.db, clock }, 'Client', 'dyn-1', { client_id: 'dyn-1', token_endpoint_auth_method: 'none' }, undefined);
    const plan = await planWorkspace(deps, declared({ oauth_clients: [] }), { prune: true });
    expect(plan.items.map((item) => [item.kind, item.label, item.action])).toEqual([['oauth_client', 'northwind-desktop', 'not_in_file']]);
  });

  it("stores a new user under the file's id and a token's OAuth client", async () => {
    const { store } = await opened({
      users: [{ ...ROSA, manages: [], id: ROSA_ID }],
      tokens: [{ name: 'app', user: 'rosa', secret: 'pat_secret_rosa_app_0001', scopes: ['bookings:read'], oauth_client_id: 'desktop' }],
    });
    expect((await userRow(store, 'rosa')).id).toBe(ROSA_ID);
    const token = await store.db.selectFrom('tokens').select(['user_id', 'oauth_client_id']).executeTakeFirstOrThrow();
    expect(token).toEqual({ user_id: ROSA_ID, oauth_client_id: 'desktop' });
  });

  it("imports a booking by its event type's id, hosted by the type's owner, at the default location", async () => {
    const { store } = await opened({
      ...baseFile(),
      bookings: [{ uid: BOOKING_UID, event_type: SALES_ID, start: '2026-11-30T16:00:00Z', attendee: { email: 'lee@customer.test' } }],
    });
    const row = await store.db
      .selectFrom('bookings')
      .select(['event_type_id', 'host_user_id', 'location_json'])
      .where('uid', '=', BOOKING_UID)
      .executeTakeFirstOrThrow();
    expect({ ...row, location_json: JSON.parse(row.location_json) }).toEqual({
      event_type_id: SALES_ID,
      host_user_id: (await userRow(store, 'tomas')).id,
      location_json: { type: 'conference', url: null, value: null },
    });
  });
});
