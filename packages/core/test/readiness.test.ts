import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { readinessCheck } from '../src/health/readiness.js';
import { openStore } from '../src/storage/open-store.js';
import type { Store } from '../src/storage/store.js';

/** A limiter as readiness sees it: its last count shared or not, its store connected or not. */
function limiter(state: { shared: boolean; connected: boolean }) {
  return { shared: () => state.shared, ready: async () => state.connected };
}

describe('readinessCheck', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(':memory:');
  });
  afterAll(() => store.close());

  const check = (state: { shared: boolean; connected: boolean }) =>
    readinessCheck({ store, clock: manualClock('2026-01-05T12:00:00.000Z'), rateLimiter: limiter(state) })();

  it('is ready with rate limits ok while the database answers and the counts are shared', async () => {
    expect(await check({ shared: true, connected: true })).toEqual({ ready: true, database: 'ok', rateLimits: 'ok' });
  });

  it('a shared store that is not connected is degraded before any request was counted, and still ready', async () => {
    expect(await check({ shared: true, connected: false })).toEqual({ ready: true, database: 'ok', rateLimits: 'degraded' });
  });

  it('a connected store whose last count failed or was slow (a silent connection) is degraded, and still ready', async () => {
    expect(await check({ shared: false, connected: true })).toEqual({ ready: true, database: 'ok', rateLimits: 'degraded' });
  });

  it('a store whose connection check throws is degraded, not a failed probe', async () => {
    const rateLimiter = { shared: () => true, ready: () => Promise.reject(new Error('ioredis failed to load')) };
    const readiness = readinessCheck({ store, clock: manualClock('2026-01-05T12:00:00.000Z'), rateLimiter });
    expect(await readiness()).toEqual({ ready: true, database: 'ok', rateLimits: 'degraded' });
  });
});
