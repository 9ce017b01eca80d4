import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticate, createAuthenticator, forResource } from '../src/auth/authenticate.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { ADA, ALICE, MIA, organization, SECRET, URSULA } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

const NOW = '2026-02-01T12:00:00.000Z';
const READ = ['bookings:read'];

const EXTRA = {
  revoked: 'pat_revoked_token_01',
  expired: 'pat_expired_token_01',
  expiring: 'pat_expiring_token_1',
  oauth: 'oat_zapier_for_ursula',
};

/** The organization, plus tokens in every state authentication must tell apart. */
function workspace(overrides: { revoked?: boolean } = {}) {
  const base = organization();
  return {
    ...base,
    tokens: [
      ...(base.tokens as object[]),
      { name: 'revoked', user: 'alice', secret: EXTRA.revoked, scopes: READ, revoked: overrides.revoked ?? true },
      { name: 'expired', user: 'alice', secret: EXTRA.expired, scopes: READ, expires_at: '2026-01-31T12:00:00Z' },
      { name: 'expiring', user: 'alice', secret: EXTRA.expiring, scopes: READ, expires_at: '2026-02-01T13:00:00Z' },
      { name: 'oauth', user: 'ursula', secret: EXTRA.oauth, scopes: READ, oauth_client_id: 'client-zapier' },
    ],
  };
}

async function load(store: Store, clock: ManualClock, file: object = workspace()) {
  await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(file)));
}

async function tokenId(store: Store, name: string): Promise<string> {
  const row = await store.db.selectFrom('tokens').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

describe.each(storeFixtures())('authenticate on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  beforeEach(async () => {
    store = await fixture.open();
    clock = manualClock(NOW);
    await load(store, clock);
  });
  afterAll(() => fixture.cleanup());

  it('gives a user a principal acting for themself only', async () => {
    expect(await authenticate({ store, clock }, SECRET.ursula)).toEqual({
      tokenId: await tokenId(store, 'ursula'),
      credential: { kind: 'pat' },
      account: { id: URSULA, username: 'ursula', email: 'ursula@acme.test', name: 'Ursula User', timezone: 'UTC', role: 'user' },
      scopes: new Set(['bookings:read', 'bookings:update']),
      actsFor: { kind: 'users', ids: new Set([URSULA]) },
    });
  });

  it('gives a manager a principal acting for themself and the people they manage', async () => {
    expect(await authenticate({ store, clock }, SECRET.mia)).toEqual({
      tokenId: await tokenId(store, 'mia'),
      credential: { kind: 'pat' },
      account: { id: MIA, username: 'mia', email: 'mia@acme.test', name: 'Mia Manager', timezone: 'UTC', role: 'manager' },
      scopes: new Set(['bookings:read', 'bookings:update']),
      actsFor: { kind: 'users', ids: new Set([MIA, URSULA]) },
    });
  });

  it('gives an admin a principal acting for the whole organization', async () => {
    expect(await authenticate({ store, clock }, SECRET.ada)).toEqual({
      tokenId: await tokenId(store, 'ada'),
      credential: { kind: 'pat' },
      account: { id: ADA, username: 'ada', email: 'ada@acme.test', name: 'Ada Admin', timezone: 'UTC', role: 'admin' },
      scopes: new Set(['bookings:read', 'bookings:update']),
      actsFor: { kind: 'organization' },
    });
  });

  it('gives an owner a principal acting for the whole organization, with the scopes of that token only', async () => {
    expect(await authenticate({ store, clock }, SECRET.aliceReadOnly)).toEqual({
      tokenId: await tokenId(store, 'alice-read'),
      credential: { kind: 'pat' },
      account: { id: ALICE, username: 'alice', email: 'alice@acme.test', name: 'Alice Host', timezone: 'Europe/Berlin', role: 'owner' },
      scopes: new Set(['bookings:read']),
      actsFor: { kind: 'organization' },
    });
  });

  it('marks a token of an OAuth client as oauth credential with its client id', async () => {
    const principal = await authenticate({ store, clock }, EXTRA.oauth);
    expect(principal?.credential).toEqual({ kind: 'oauth', clientId: 'client-zapier' });
    expect(principal?.account.id).toBe(URSULA);
    expect(principal?.tokenId).toBe(await tokenId(store, 'oauth'));
  });

  it('refuses an unknown secret', async () => {
    expect(await authenticate({ store, clock }, 'pat_nobody_has_this_one')).toBeUndefined();
  });

  it('refuses the hash of a secret offered as the secret', async () => {
    const row = await store.db.selectFrom('tokens').select('secret_hash').where('name', '=', 'ursula').executeTakeFirstOrThrow();
    expect(await authenticate({ store, clock }, row.secret_hash)).toBeUndefined();
  });

  it('refuses a revoked token', async () => {
    expect(await authenticate({ store, clock }, EXTRA.revoked)).toBeUndefined();
  });

  it('refuses a token whose expiry is before the clock', async () => {
    expect(await authenticate({ store, clock }, EXTRA.expired)).toBeUndefined();
  });

  it('accepts a token until the millisecond before its expiry and refuses it from that instant on', async () => {
    clock.set('2026-02-01T12:59:59.999Z');
    expect((await authenticate({ store, clock }, EXTRA.expiring))?.tokenId).toBe(await tokenId(store, 'expiring'));
    clock.set('2026-02-01T13:00:00.000Z');
    expect(await authenticate({ store, clock }, EXTRA.expiring)).toBeUndefined();
  });

  it('accepts a token again once a reloaded file un-revokes it', async () => {
    await load(store, clock, workspace({ revoked: false }));
    expect((await authenticate({ store, clock }, EXTRA.revoked))?.tokenId).toBe(await tokenId(store, 'revoked'));
  });

  it('refuses a token once a later file revokes it', async () => {
    await load(store, clock, workspace({ revoked: false }));
    expect((await authenticate({ store, clock }, EXTRA.revoked))?.account.id).toBe(ALICE);
    await load(store, clock, workspace({ revoked: true }));
    expect(await authenticate({ store, clock }, EXTRA.revoked)).toBeUndefined();
  });

  describe('forResource', () => {
    const API = 'https://schedule.example';
    const MCP = 'https://schedule.example/mcp';

    it('accepts a PAT and an operator-made OAuth client token, which name no resource, on every resource', async () => {
      const auth = createAuthenticator({ store, clock });
      for (const resource of [API, MCP]) {
        expect((await forResource(auth, resource)(SECRET.ursula))?.credential).toEqual({ kind: 'pat' });
        expect((await forResource(auth, resource)(EXTRA.oauth))?.credential).toEqual({ kind: 'oauth', clientId: 'client-zapier' });
      }
    });

    it('refuses an unknown or revoked secret on every resource, as authenticate does', async () => {
      const auth = createAuthenticator({ store, clock });
      for (const resource of [API, MCP]) {
        expect(await forResource(auth, resource)('pat_no_such_token_00')).toBeUndefined();
        expect(await forResource(auth, resource)(EXTRA.revoked)).toBeUndefined();
      }
    });
  });

  describe('createAuthenticator', () => {
    /** Revokes a token in the database, as another process would. */
    const revoke = (name: string) => store.db.updateTable('tokens').set({ revoked_at: NOW }).where('name', '=', name).execute();

    it('without a cache sees a revocation at once', async () => {
      const auth = createAuthenticator({ store, clock });
      expect((await auth(SECRET.ursula))?.account.id).toBe(URSULA);
      await revoke('ursula');
      expect(await auth(SECRET.ursula)).toBeUndefined();
    });

    it('with a cache keeps a revoked token working until the cache time runs out, and no longer', async () => {
      const auth = createAuthenticator({ store, clock }, { cacheTtlMs: 60_000 });
      expect((await auth(SECRET.ursula))?.account.id).toBe(URSULA);
      await revoke('ursula');
      clock.advance(59_999);
      expect((await auth(SECRET.ursula))?.account.id).toBe(URSULA);
      clock.advance(1);
      expect(await auth(SECRET.ursula)).toBeUndefined();
    });

    it('with a cache looks a refused secret up again once the cache time runs out, so a token un-revoked meanwhile works', async () => {
      const auth = createAuthenticator({ store, clock }, { cacheTtlMs: 60_000 });
      expect(await auth(EXTRA.revoked)).toBeUndefined();
      await store.db.updateTable('tokens').set({ revoked_at: null }).where('name', '=', 'revoked').execute();
      clock.advance(59_999);
      expect(await auth(EXTRA.revoked)).toBeUndefined();
      clock.advance(1);
      expect((await auth(EXTRA.revoked))?.account.id).toBe(ALICE);
    });

    it('with a cache still refuses a token from the instant it expires', async () => {
      const auth = createAuthenticator({ store, clock }, { cacheTtlMs: 2 * 60 * 60_000 });
      expect((await auth(EXTRA.expiring))?.account.id).toBe(ALICE);
      clock.set('2026-02-01T13:00:00.000Z');
      expect(await auth(EXTRA.expiring)).toBeUndefined();
    });
  });
});
