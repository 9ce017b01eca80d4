import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../src/auth/authenticate.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { Store } from '../src/storage/store.js';
import { ALICE, loadOrganization, SECRET } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

describe.each(storeFixtures())('the token lookup cache on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;

  beforeEach(async () => {
    store = await fixture.open();
    clock = manualClock('2026-02-01T12:00:00.000Z');
    await loadOrganization({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  const revokeAll = () => store.db.updateTable('tokens').set({ revoked_at: '2026-02-01T12:00:00.000Z' }).execute();

  it('reuses a lookup within its time to live, and sees a revocation once it runs out', async () => {
    const authenticate = createAuthenticator({ store, clock }, { cacheTtlMs: 2000 });
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    await revokeAll(); // as another process would
    clock.advance(1999);
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    clock.advance(1);
    expect(await authenticate(SECRET.aliceAll)).toBeUndefined();
  });

  it('looks up every time when the cache is off', async () => {
    const authenticate = createAuthenticator({ store, clock }, { cacheTtlMs: 0 });
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    await revokeAll();
    expect(await authenticate(SECRET.aliceAll)).toBeUndefined();
  });

  it('refuses a cached token the moment it expires', async () => {
    await store.db.updateTable('tokens').set({ expires_at: '2026-02-01T12:00:01.000Z' }).execute();
    const authenticate = createAuthenticator({ store, clock }, { cacheTtlMs: 60_000 });
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    clock.advance(999);
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    clock.advance(1);
    expect(await authenticate(SECRET.aliceAll)).toBeUndefined();
  });

  it('keeps as many lookups as configured, not fewer', async () => {
    const authenticate = createAuthenticator({ store, clock }, { cacheTtlMs: 60_000, cacheEntries: 2 });
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    expect(await authenticate(SECRET.mia)).toBeDefined();
    await revokeAll();
    // Both still cached: neither lookup pushed the other out.
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    expect(await authenticate(SECRET.mia)).toBeDefined();
  });

  it('keeps at most the configured number of lookups, forgetting the oldest', async () => {
    const authenticate = createAuthenticator({ store, clock }, { cacheTtlMs: 60_000, cacheEntries: 1 });
    expect((await authenticate(SECRET.aliceAll))?.account.id).toBe(ALICE);
    expect(await authenticate(SECRET.mia)).toBeDefined(); // pushes alice's lookup out
    await revokeAll();
    expect(await authenticate(SECRET.aliceAll)).toBeUndefined();
    expect(await authenticate(SECRET.mia)).toBeUndefined(); // alice's fresh lookup pushed mia's out
  });
});
