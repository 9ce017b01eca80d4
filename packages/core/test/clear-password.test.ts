import { afterAll, describe, expect, it } from 'vitest';
import { findUser } from '../src/auth/find-user.js';
import { manualClock } from '../src/clock.js';
import { ScheduleError } from '../src/errors.js';
import { randomIds } from '../src/ids.js';
import { upsertRecord } from '../src/oauth/oauth-records.js';
import { assertPasswordLength, checkPassword, clearPassword, setPassword } from '../src/oauth/passwords.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { storeFixtures } from './support/stores.js';

// Issue 15: `schedule passwords set|clear` name a user by username or id
// (findUser), and clearing a password ends the user's open sign-ins so that
// they can no longer authorize apps.

const T0 = '2026-05-01T08:00:00.000Z';
const ALICE = 'a1000000-0000-4000-8000-000000000001';
const BOB = 'a1000000-0000-4000-8000-000000000002';
const PASSWORD = 'correct horse battery';

/** The error a call fails with, all of it that a caller sees. */
async function refusalOf(work: () => unknown): Promise<{ code: string; message: string; details: unknown }> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ScheduleError) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected a ScheduleError, but the call succeeded');
}

async function withUsers(store: Store): Promise<void> {
  const workspace = {
    users: [
      { id: ALICE, username: 'alice', email: 'alice@acme.test' },
      { id: BOB, username: 'bob', email: 'bob@acme.test' },
    ],
  };
  await loadWorkspace({ store, clock: manualClock(T0), ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
}

describe('assertPasswordLength', () => {
  it.each([9, 257])('refuses %i characters with the documented message', async (length) => {
    expect(await refusalOf(() => assertPasswordLength('x'.repeat(length)))).toEqual({
      code: 'validation_error',
      message: 'A password must be 10 to 256 characters long.',
      details: { fields: ['password'] },
    });
  });

  it.each([10, 256])('accepts %i characters', (length) => {
    expect(() => assertPasswordLength('x'.repeat(length))).not.toThrow();
  });
});

describe.each(storeFixtures())('findUser and clearPassword on $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it('findUser finds a user by username, by id and by an id in capitals; an unknown one is not_found', async () => {
    const store = await fixture.open();
    await withUsers(store);
    const alice = { id: ALICE, username: 'alice' };
    expect(await findUser(store.db, 'alice')).toEqual(alice);
    expect(await findUser(store.db, ALICE)).toEqual(alice);
    expect(await findUser(store.db, ALICE.toUpperCase())).toEqual(alice);
    expect(await refusalOf(() => findUser(store.db, 'nobody'))).toEqual({
      code: 'not_found',
      message: 'No user "nobody".',
      details: { user: 'nobody' },
    });
  });

  it('clearPassword removes the hash, stamps updated_at, and the password no longer signs in', async () => {
    const store = await fixture.open();
    await withUsers(store);
    const clock = manualClock(T0);
    await setPassword(store.db, { clock }, 'alice', PASSWORD);
    expect(await checkPassword(store.db, 'alice', PASSWORD)).toBe(ALICE);

    clock.advance(60_000);
    expect(await clearPassword(store.db, { clock }, ALICE)).toEqual({ username: 'alice' });
    expect(await store.db.selectFrom('users').select(['password_hash', 'updated_at']).where('id', '=', ALICE).executeTakeFirst()).toEqual({
      password_hash: null,
      updated_at: '2026-05-01T08:01:00.000Z',
    });
    expect(await checkPassword(store.db, 'alice', PASSWORD)).toBeUndefined();
  });

  it("clearPassword ends the user's sign-in sessions and host sessions, and leaves their grants and other users' sessions", async () => {
    const store = await fixture.open();
    await withUsers(store);
    const deps = { db: store.db, clock: manualClock(T0) };
    await upsertRecord(deps, 'Session', 'alice-session', { uid: 'u1', accountId: ALICE }, 3600);
    await upsertRecord(deps, 'HostSession', 'alice-host', { accountId: ALICE }, 3600);
    await upsertRecord(deps, 'Session', 'bob-session', { uid: 'u2', accountId: BOB }, 3600);
    await upsertRecord(deps, 'Grant', 'alice-grant', { accountId: ALICE, clientId: 'app_x' }, 3600);

    await clearPassword(store.db, { clock: deps.clock }, 'alice');

    const left = await store.db
      .selectFrom('oauth_records')
      .select(['model', 'account_id'])
      .orderBy('model')
      .orderBy('account_id')
      .execute();
    expect(left).toEqual([
      { model: 'Grant', account_id: ALICE },
      { model: 'Session', account_id: BOB },
    ]);
  });

  it('clearPassword of an unknown user is not_found and changes nothing', async () => {
    const store = await fixture.open();
    await withUsers(store);
    const clock = manualClock(T0);
    await setPassword(store.db, { clock }, 'bob', PASSWORD);
    expect(await refusalOf(() => clearPassword(store.db, { clock }, 'nobody'))).toEqual({
      code: 'not_found',
      message: 'No user "nobody".',
      details: { user: 'nobody' },
    });
    expect(await checkPassword(store.db, 'bob', PASSWORD)).toBe(BOB);
  });
});
