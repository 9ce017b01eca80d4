import type { CompiledQuery } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../src/clock.js';
import {
  checkKeyShape,
  completeKey,
  type IdempotencyDeps,
  KEY_LIFETIME_MS,
  purgeExpiredKeys,
  type Reservation,
  releaseKey,
  reserveKey,
  type StoredResponse,
} from '../src/idempotency/idempotency.js';
import { randomIds, sequentialIds } from '../src/ids.js';
import type { Store } from '../src/storage/store.js';
import { scheduleErrorOf } from './support/errors.js';
import { sharedDatabases } from './support/shared-database.js';
import { storeFixtures } from './support/stores.js';

const LEASE_MS = 30_000;
const KEY = { accountId: 'account-1', key: 'key-1' };
const FP = 'fingerprint-a';
const OTHER_FP = 'fingerprint-b';
const lease = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const RESPONSE: StoredResponse = {
  status: 200,
  data: { uid: 'b-1', version: 2, metadata: { a: [1, 'x'] } },
  version: 2,
  requestId: 'req-1',
};

const inProgress = { code: 'idempotency_in_progress', details: {}, retryAfterSeconds: 1 };
const conflict = { code: 'idempotency_key_conflict', details: {}, retryAfterSeconds: undefined };

async function reserved(deps: IdempotencyDeps, ref = KEY, fingerprint = FP): Promise<Reservation> {
  const result = await reserveKey(deps, ref, fingerprint);
  if (result.kind !== 'reserved') throw new Error(`expected a reservation, got ${result.kind}`);
  return result.reservation;
}

/** What a store does around each claim (the insert) of a key, to stage a lost race. */
interface ClaimRace {
  /** Before the claim runs: another request may take the key first. */
  beforeClaim?: () => Promise<void>;
  /** After a claim that found the key taken, before reserveKey reads the key. */
  afterLostClaim?: () => Promise<void>;
}

/** The store, with `race` run around every claim of a key, and a count of the claims made. */
function racedStore(store: Store, race: ClaimRace): { store: Store; claims: () => number } {
  let claims = 0;
  const isClaim = (query: CompiledQuery) => query.sql.startsWith('insert into "idempotency_keys"');
  const db = new Proxy(store.db, {
    get(target, name) {
      if (name === 'executeQuery') {
        return async (query: CompiledQuery) => {
          if (!isClaim(query)) return target.executeQuery(query);
          claims += 1;
          await race.beforeClaim?.();
          const result = await target.executeQuery(query);
          if (Number(result.numAffectedRows ?? 0n) === 0) await race.afterLostClaim?.();
          return result;
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: { db, dialect: store.dialect, close: () => store.close() }, claims: () => claims };
}

describe('checkKeyShape', () => {
  it('accepts keys of 1 to 255 characters', () => {
    expect(() => checkKeyShape('k')).not.toThrow();
    expect(() => checkKeyShape('k'.repeat(255))).not.toThrow();
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
  ])('refuses a key that is %s', async (_, key) => {
    expect(await scheduleErrorOf(() => checkKeyShape(key))).toEqual({
      code: 'validation_error',
      message: 'Idempotency-Key must be 1 to 255 characters.',
      details: { fields: ['Idempotency-Key'] },
      retryAfterSeconds: undefined,
    });
  });
});

describe.each(storeFixtures())('idempotency keys on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: IdempotencyDeps;
  beforeEach(async () => {
    store = await fixture.open();
    clock = manualClock('2026-02-01T12:00:00.000Z');
    deps = { store, clock, ids: sequentialIds(), leaseMs: LEASE_MS };
  });
  afterAll(() => fixture.cleanup());

  const complete = (reservation: Reservation, response: StoredResponse = RESPONSE) =>
    store.db.transaction().execute((trx) => completeKey(trx, reservation, response));

  it('reserves a key the first time', async () => {
    expect(await reserveKey(deps, KEY, FP)).toEqual({ kind: 'reserved', reservation: { ...KEY, lease: lease(1) } });
  });

  it('answers idempotency_in_progress, retry after 1 second, to the same request while the first is in flight', async () => {
    await reserved(deps);
    expect(await scheduleErrorOf(reserveKey(deps, KEY, FP))).toEqual({
      ...inProgress,
      message: 'A request with this Idempotency-Key is still in progress.',
    });
  });

  it('answers idempotency_key_conflict to a different request while the first is in flight', async () => {
    await reserved(deps);
    expect(await scheduleErrorOf(reserveKey(deps, KEY, OTHER_FP))).toEqual({
      ...conflict,
      message: 'This Idempotency-Key was used within the last 24 hours with a different request.',
    });
  });

  it('replays the stored response exactly once the first request completed', async () => {
    await complete(await reserved(deps));
    clock.advance(60 * 60_000);
    expect(await reserveKey(deps, KEY, FP)).toEqual({ kind: 'replay', response: RESPONSE });
  });

  it('answers idempotency_key_conflict to a different request after the first completed', async () => {
    await complete(await reserved(deps));
    expect(await scheduleErrorOf(reserveKey(deps, KEY, OTHER_FP))).toEqual({
      ...conflict,
      message: 'This Idempotency-Key was used within the last 24 hours with a different request.',
    });
  });

  it('lets the same key be reserved again after a release', async () => {
    await releaseKey(deps, await reserved(deps));
    expect(await reserveKey(deps, KEY, OTHER_FP)).toEqual({ kind: 'reserved', reservation: { ...KEY, lease: lease(2) } });
  });

  it('does not release a completed key', async () => {
    const reservation = await reserved(deps);
    await complete(reservation);
    await releaseKey(deps, reservation);
    expect(await reserveKey(deps, KEY, FP)).toEqual({ kind: 'replay', response: RESPONSE });
  });

  it('keeps an in-flight reservation until the instant its lease runs out', async () => {
    await reserved(deps);
    clock.advance(LEASE_MS - 1);
    expect(await scheduleErrorOf(reserveKey(deps, KEY, FP))).toEqual({
      ...inProgress,
      message: 'A request with this Idempotency-Key is still in progress.',
    });
  });

  it('lets the same request take over an abandoned reservation, and fences the old holder out', async () => {
    const abandoned = await reserved(deps);
    clock.advance(LEASE_MS);
    const takeover = await reserved(deps);
    expect(takeover).toEqual({ ...KEY, lease: lease(2) });

    expect(await scheduleErrorOf(complete(abandoned, { ...RESPONSE, requestId: 'req-old' }))).toEqual({
      ...inProgress,
      message: 'Another request took over this Idempotency-Key.',
    });
    await releaseKey(deps, abandoned);
    expect(await scheduleErrorOf(reserveKey(deps, KEY, FP))).toEqual({
      ...inProgress,
      message: 'A request with this Idempotency-Key is still in progress.',
    });

    await complete(takeover, { ...RESPONSE, requestId: 'req-new' });
    expect(await reserveKey(deps, KEY, FP)).toEqual({ kind: 'replay', response: { ...RESPONSE, requestId: 'req-new' } });
  });

  it('does not let a different request take over an abandoned reservation', async () => {
    await reserved(deps);
    clock.advance(LEASE_MS);
    expect(await scheduleErrorOf(reserveKey(deps, KEY, OTHER_FP))).toEqual({
      ...conflict,
      message: 'This Idempotency-Key was used within the last 24 hours with a different request.',
    });
  });

  it('still replays a completed key one millisecond before its 24 hours are up', async () => {
    await complete(await reserved(deps));
    clock.advance(KEY_LIFETIME_MS - 1);
    expect(await reserveKey(deps, KEY, FP)).toEqual({ kind: 'replay', response: RESPONSE });
  });

  it('treats a key older than 24 hours as new, for the same request and for a different one', async () => {
    await complete(await reserved(deps));
    clock.advance(KEY_LIFETIME_MS);
    expect(await reserveKey(deps, KEY, FP)).toEqual({ kind: 'reserved', reservation: { ...KEY, lease: lease(2) } });
    await releaseKey(deps, { ...KEY, lease: lease(2) });
    expect(await reserveKey(deps, KEY, OTHER_FP)).toEqual({ kind: 'reserved', reservation: { ...KEY, lease: lease(3) } });
  });

  it('keeps keys per account: the same key of another account is a new reservation', async () => {
    await complete(await reserved(deps));
    const other = { accountId: 'account-2', key: KEY.key };
    expect(await reserveKey(deps, other, OTHER_FP)).toEqual({ kind: 'reserved', reservation: { ...other, lease: lease(2) } });
  });

  it('purges only keys past their 24 hours', async () => {
    await complete(await reserved(deps));
    clock.advance(60_000);
    await reserved(deps, { accountId: 'account-1', key: 'key-2' });
    clock.advance(KEY_LIFETIME_MS - 60_000);
    expect(await purgeExpiredKeys(deps)).toBe(1);
    expect(await store.db.selectFrom('idempotency_keys').select(['account_id', 'key']).execute()).toEqual([
      { account_id: 'account-1', key: 'key-2' },
    ]);
  });

  it('gives exactly one of 20 simultaneous reservations of one key the key', async () => {
    const concurrent = { ...deps, ids: randomIds };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => reserveKey(concurrent, KEY, FP)));
    const winners = results.filter((r) => r.status === 'fulfilled' && r.value.kind === 'reserved');
    const losers = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code);
    expect(winners).toHaveLength(1);
    expect(losers).toEqual(Array(19).fill('idempotency_in_progress'));
  });

  it('gives exactly one of 20 simultaneous takeovers of an abandoned key the key', async () => {
    await reserved(deps);
    clock.advance(LEASE_MS);
    const concurrent = { ...deps, ids: randomIds };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => reserveKey(concurrent, KEY, FP)));
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value.kind : (r.reason as { code: string }).code));
    expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'reserved')).toEqual(Array(19).fill('idempotency_in_progress'));
  });

  it('claims again when the key it lost to is released before it reads the key, and then holds it', async () => {
    const holder = await reserved(deps);
    let released = false;
    const raced = racedStore(store, {
      afterLostClaim: async () => {
        if (released) return;
        released = true;
        await releaseKey(deps, holder);
      },
    });
    expect(await reserveKey({ ...deps, store: raced.store }, KEY, FP)).toEqual({
      kind: 'reserved',
      reservation: { ...KEY, lease: lease(3) },
    });
    expect(raced.claims()).toBe(2);
  });

  it('gives up with idempotency_in_progress after losing five races in a row, each to a request that was gone by the read', async () => {
    let other: Reservation | undefined;
    const otherDeps = { ...deps, ids: randomIds };
    const raced = racedStore(store, {
      beforeClaim: async () => {
        other = await reserved(otherDeps, KEY, OTHER_FP);
      },
      afterLostClaim: () => releaseKey(deps, other!),
    });
    expect(await scheduleErrorOf(reserveKey({ ...deps, store: raced.store }, KEY, FP))).toEqual({
      ...inProgress,
      message: 'A request with this Idempotency-Key is still in progress.',
    });
    expect(raced.claims()).toBe(5);
  });
});

describe.each(sharedDatabases())('idempotency keys across two stores on one $name database', (shared) => {
  afterEach(() => shared.cleanup());

  it('gives exactly one of 20 simultaneous reservations, split over both stores, the key', async () => {
    const [first, second] = await shared.open();
    const clock = manualClock('2026-02-01T12:00:00.000Z');
    const depsOf = (store: Store): IdempotencyDeps => ({ store, clock, ids: randomIds, leaseMs: LEASE_MS });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => reserveKey(depsOf(i % 2 === 0 ? first : second), KEY, FP)),
    );
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value.kind : (r.reason as { code: string }).code));
    expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'reserved')).toEqual(Array(19).fill('idempotency_in_progress'));
  });

  it('fences a takeover made through the other store', async () => {
    const [first, second] = await shared.open();
    const clock = manualClock('2026-02-01T12:00:00.000Z');
    const abandoned = await reserved({ store: first, clock, ids: randomIds, leaseMs: LEASE_MS });
    clock.advance(LEASE_MS);
    await reserved({ store: second, clock, ids: randomIds, leaseMs: LEASE_MS });
    expect(await scheduleErrorOf(first.db.transaction().execute((trx) => completeKey(trx, abandoned, RESPONSE)))).toEqual({
      ...inProgress,
      message: 'Another request took over this Idempotency-Key.',
    });
  });

  it('gives exactly one of 20 simultaneous takeovers of an abandoned key, split over both stores, the key', async () => {
    const [first, second] = await shared.open();
    const clock = manualClock('2026-02-01T12:00:00.000Z');
    const depsOf = (store: Store): IdempotencyDeps => ({ store, clock, ids: randomIds, leaseMs: LEASE_MS });
    await reserved(depsOf(first));
    clock.advance(LEASE_MS);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => reserveKey(depsOf(i % 2 === 0 ? first : second), KEY, FP)),
    );
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value.kind : (r.reason as { code: string }).code));
    expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'reserved')).toEqual(Array(19).fill('idempotency_in_progress'));
  });
});
