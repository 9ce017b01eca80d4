import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { DEFAULT_LIMITS } from '../src/rate-limit/limits.js';
import type { RateLimitStore } from '../src/rate-limit/rate-limit-store.js';
import { bucketFor, createRateLimiter, rateLimitedError } from '../src/rate-limit/rate-limiter.js';

const NOON = '2026-01-05T12:00:00.000Z';
const NOON_S = Date.parse(NOON) / 1000;
const BUCKET = { key: 'pat:token-1', limit: 3 };

function principal(credential: Principal['credential']): Principal {
  return {
    tokenId: 'token-1',
    credential,
    account: { id: 'account-1', username: 'alice', email: 'alice@acme.test', name: 'Alice', timezone: 'UTC', role: 'user' },
    scopes: new Set(['bookings:read']),
    actsFor: { kind: 'users', ids: new Set(['account-1']) },
  };
}

/** A store that records its calls and answers with `answer`. */
function scriptedStore(answer: () => Promise<number>) {
  const calls: unknown[][] = [];
  let closed = 0;
  const store: RateLimitStore = {
    hit: (...args) => {
      calls.push(args);
      return answer();
    },
    ready: async () => true,
    close: async () => {
      closed += 1;
    },
  };
  return { store, calls, closed: () => closed };
}

describe('bucketFor', () => {
  const limits = { ...DEFAULT_LIMITS, pat_per_minute: 10, oauth_per_minute: 20, anonymous_per_minute: 5 };

  it('counts a PAT by its token id', () => {
    expect(bucketFor(principal({ kind: 'pat' }), '203.0.113.9', limits)).toEqual({ key: 'pat:token-1', limit: 10 });
  });

  it('counts an OAuth client by client and account together', () => {
    expect(bucketFor(principal({ kind: 'oauth', clientId: 'client-x' }), '203.0.113.9', limits)).toEqual({
      key: 'oauth:client-x:account-1',
      limit: 20,
    });
  });

  it('counts an anonymous caller by client IP', () => {
    expect(bucketFor(undefined, '203.0.113.9', limits)).toEqual({ key: 'anonymous:203.0.113.9', limit: 5 });
  });

  it('counts a visitor of the booking page as anyone not authenticated: by client IP, whatever its grant', () => {
    const grants = [
      { kind: 'book', hostId: 'host-1' },
      { kind: 'manage', bookingUid: 'booking-1' },
    ] as const;
    for (const grant of grants) {
      expect(bucketFor(principal({ kind: 'visitor', grant }), '203.0.113.9', limits)).toEqual({ key: 'anonymous:203.0.113.9', limit: 5 });
    }
  });

  it('uses the spec limits by default: 120, 120 and 30 per minute', () => {
    expect([
      bucketFor(principal({ kind: 'pat' }), '::1', DEFAULT_LIMITS).limit,
      bucketFor(principal({ kind: 'oauth', clientId: 'c' }), '::1', DEFAULT_LIMITS).limit,
      bucketFor(undefined, '::1', DEFAULT_LIMITS).limit,
    ]).toEqual([120, 120, 30]);
  });
});

describe('rateLimitedError', () => {
  it('states the limit, the window and the wait, and names the bucket in details', async () => {
    const limiter = createRateLimiter({ clock: manualClock('2026-01-05T12:00:42.500Z') });
    for (let i = 0; i < 3; i++) await limiter.consume(BUCKET);
    const error = rateLimitedError(await limiter.consume(BUCKET));
    expect({ code: error.code, message: error.message, details: error.details, retryAfterSeconds: error.retryAfterSeconds }).toEqual({
      code: 'rate_limited',
      message: 'Rate limit of 3 requests per 60 seconds exceeded; retry in 18 seconds.',
      details: { bucket: 'pat:token-1', limit: 3, window_seconds: 60 },
      retryAfterSeconds: 18,
    });
  });
});

describe('createRateLimiter in memory', () => {
  it('is ready at once and closes cleanly: there is no store to wait for or close', async () => {
    const limiter = createRateLimiter({ clock: manualClock(NOON) });
    expect(await limiter.ready(1)).toBe(true);
    expect(limiter.shared()).toBe(true);
    await expect(limiter.close()).resolves.toBeUndefined();
  });

  it('counts requests against the limit and refuses the one after it', async () => {
    const limiter = createRateLimiter({ clock: manualClock('2026-01-05T12:00:42.500Z') });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume(BUCKET));
    const reset = NOON_S + 60;
    expect(decisions).toEqual(
      [
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ].map(([allowed, remaining]) => ({
        allowed,
        bucket: 'pat:token-1',
        limit: 3,
        remaining,
        resetEpochSeconds: reset,
        retryAfterSeconds: 18,
        windowSeconds: 60,
      })),
    );
  });

  it.each([
    ['at the first instant of a window', '2026-01-05T12:00:00.000Z', NOON_S + 60, 60],
    ['in the middle of a window', '2026-01-05T12:00:30.000Z', NOON_S + 60, 30],
    ['one millisecond before the window rolls over', '2026-01-05T12:00:59.999Z', NOON_S + 60, 1],
    ['at the rollover instant itself', '2026-01-05T12:01:00.000Z', NOON_S + 120, 60],
  ])('aligns the reset to the minute %s', async (_, now, reset, retryAfter) => {
    const limiter = createRateLimiter({ clock: manualClock(now) });
    const decision = await limiter.consume(BUCKET);
    expect({ resetEpochSeconds: decision.resetEpochSeconds, retryAfterSeconds: decision.retryAfterSeconds }).toEqual({
      resetEpochSeconds: reset,
      retryAfterSeconds: retryAfter,
    });
  });

  it('starts a fresh count exactly at the window boundary', async () => {
    const clock = manualClock('2026-01-05T12:00:59.999Z');
    const limiter = createRateLimiter({ clock });
    for (let i = 0; i < 3; i++) await limiter.consume(BUCKET);
    expect((await limiter.consume(BUCKET)).allowed).toBe(false);
    clock.advance(1);
    const decision = await limiter.consume(BUCKET);
    expect({ allowed: decision.allowed, remaining: decision.remaining }).toEqual({ allowed: true, remaining: 2 });
  });

  it('keeps buckets independent', async () => {
    const limiter = createRateLimiter({ clock: manualClock(NOON) });
    for (let i = 0; i < 4; i++) await limiter.consume(BUCKET);
    const other = await limiter.consume({ key: 'pat:token-2', limit: 3 });
    expect({ allowed: other.allowed, remaining: other.remaining }).toEqual({ allowed: true, remaining: 2 });
  });
});

describe('createRateLimiter with a shared store', () => {
  it('asks the store with the bucket, the window start and the window length, and uses its count', async () => {
    const { store, calls } = scriptedStore(async () => 7);
    const limiter = createRateLimiter({ store, clock: manualClock('2026-01-05T12:00:42.500Z') });
    const decision = await limiter.consume({ key: 'pat:token-1', limit: 10 });
    expect(calls).toEqual([['pat:token-1', NOON_S * 1000, 60_000]]);
    expect({ allowed: decision.allowed, remaining: decision.remaining }).toEqual({ allowed: true, remaining: 3 });
  });

  it('closes the store when closed', async () => {
    const scripted = scriptedStore(async () => 1);
    await createRateLimiter({ store: scripted.store, clock: manualClock(NOON) }).close();
    expect(scripted.closed()).toBe(1);
  });

  it('fails open when the store rejects, counting in memory instead', async () => {
    const { store } = scriptedStore(() => Promise.reject(new Error('cache down')));
    const limiter = createRateLimiter({ store, clock: manualClock(NOON) });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume(BUCKET));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });

  it('fails open within failOpenAfterMs when the store never answers', async () => {
    const { store } = scriptedStore(() => new Promise<number>(() => {}));
    const limiter = createRateLimiter({ store, clock: manualClock(NOON), failOpenAfterMs: 50 });
    const started = performance.now();
    const decision = await limiter.consume(BUCKET);
    const elapsed = performance.now() - started;
    expect({ allowed: decision.allowed, remaining: decision.remaining }).toEqual({ allowed: true, remaining: 2 });
    expect(elapsed).toBeLessThan(1000);
  });

  it('reports each fail-open to onFailOpen with its cause, and nothing while the store answers', async () => {
    const causes: string[] = [];
    let answer: () => Promise<number> = async () => 1;
    const { store } = scriptedStore(() => answer());
    const limiter = createRateLimiter({ store, clock: manualClock(NOON), failOpenAfterMs: 20, onFailOpen: (cause) => causes.push(cause) });
    await limiter.consume(BUCKET);
    expect(causes).toEqual([]);
    answer = () => Promise.reject(new Error('cache down'));
    await limiter.consume(BUCKET);
    await limiter.consume(BUCKET);
    answer = () => new Promise<number>(() => {});
    await limiter.consume(BUCKET);
    expect(causes).toEqual(['error', 'error', 'timeout']);
    expect(limiter.shared()).toBe(false);
  });

  describe('the fail-open bound, on fake timers', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Starts a consume against a store that never answers; `settled()` says whether it has ended yet. */
    function stalledConsume(failOpenAfterMs?: number) {
      vi.useFakeTimers();
      const { store } = scriptedStore(() => new Promise<number>(() => {}));
      const limiter = createRateLimiter({ store, clock: manualClock(NOON), ...(failOpenAfterMs === undefined ? {} : { failOpenAfterMs }) });
      let ended = false;
      const decision = limiter.consume(BUCKET).finally(() => {
        ended = true;
      });
      return { decision, settled: () => ended, limiter };
    }

    it('waits 150 ms for the store by default, and not one millisecond less', async () => {
      const { decision, settled, limiter } = stalledConsume();
      await vi.advanceTimersByTimeAsync(149);
      expect(settled()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled()).toBe(true);
      expect((await decision).remaining).toBe(2);
      expect(limiter.shared()).toBe(false);
    });

    it('waits exactly failOpenAfterMs when given', async () => {
      const { decision, settled } = stalledConsume(40);
      await vi.advanceTimersByTimeAsync(39);
      expect(settled()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled()).toBe(true);
      expect((await decision).allowed).toBe(true);
    });

    it('leaves no timer behind once the store has answered', async () => {
      vi.useFakeTimers();
      const { store } = scriptedStore(async () => 1);
      const limiter = createRateLimiter({ store, clock: manualClock(NOON) });
      await limiter.consume(BUCKET);
      expect(vi.getTimerCount()).toBe(0);
      expect(limiter.shared()).toBe(true);
    });
  });

  it("asks the store whether it is ready, with the caller's timeout", async () => {
    const timeouts: number[] = [];
    const { store } = scriptedStore(async () => 1);
    const limiter = createRateLimiter({
      store: {
        ...store,
        ready: async (timeoutMs) => {
          timeouts.push(timeoutMs);
          return false;
        },
      },
      clock: manualClock(NOON),
    });
    expect(await limiter.ready(250)).toBe(false);
    expect(timeouts).toEqual([250]);
  });

  it('never calls onFailOpen without a shared store: counting in memory is then the design, not a failure', async () => {
    const causes: string[] = [];
    const limiter = createRateLimiter({ clock: manualClock(NOON), onFailOpen: (cause) => causes.push(cause) });
    for (let i = 0; i < 4; i++) await limiter.consume(BUCKET);
    expect(causes).toEqual([]);
  });
});
