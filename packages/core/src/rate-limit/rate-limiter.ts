import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import { within } from '../within.js';
import type { Limits } from './limits.js';
import { memoryRateLimitStore } from './memory-store.js';
import type { RateLimitStore } from './rate-limit-store.js';

/** docs/api/requests.md "Rate limits": fixed windows of 60 seconds, aligned to the clock. */
export const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;

/** Whose requests are counted together (docs/api/requests.md "Rate limits"). */
export interface Bucket {
  /** Names the bucket, as `details.bucket` of a 429 shows it. */
  readonly key: string;
  readonly limit: number;
}

/**
 * A PAT counts by its own id; an OAuth client by client and account together;
 * anyone not authenticated, a visitor of the booking page among them, by client IP.
 * Two PATs of one account are two buckets.
 */
export function bucketFor(principal: Principal | undefined, clientIp: string, limits: Limits): Bucket {
  const anonymous = { key: `anonymous:${clientIp}`, limit: limits.anonymous_per_minute };
  if (!principal) return anonymous;
  switch (principal.credential.kind) {
    case 'visitor':
      return anonymous;
    case 'pat':
      return { key: `pat:${principal.tokenId}`, limit: limits.pat_per_minute };
    case 'oauth':
      return { key: `oauth:${principal.credential.clientId}:${principal.account.id}`, limit: limits.oauth_per_minute };
  }
}

/** What a front end needs to answer: the `X-RateLimit-*` values, and whether to refuse. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly bucket: string;
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds at which the window rolls over. */
  readonly resetEpochSeconds: number;
  /** Seconds until the window rolls over (at least 1), for `Retry-After`. */
  readonly retryAfterSeconds: number;
  readonly windowSeconds: number;
}

/**
 * docs/api/requests.md "Rate limits": the refusal when a bucket is spent, its message
 * stating the seconds to wait, `details` = `{ bucket, limit, window_seconds }`
 * and `Retry-After`. Every front end answers with this one error.
 */
export function rateLimitedError(decision: RateLimitDecision): ScheduleError {
  return new ScheduleError(
    'rate_limited',
    `Rate limit of ${decision.limit} requests per ${decision.windowSeconds} seconds exceeded; retry in ${decision.retryAfterSeconds} seconds.`,
    { bucket: decision.bucket, limit: decision.limit, window_seconds: decision.windowSeconds },
    decision.retryAfterSeconds,
  );
}

/** Why a request was counted in process memory although a shared store is configured. */
export type FailOpenCause = 'error' | 'timeout';

export interface RateLimiterOptions {
  store?: RateLimitStore;
  clock: Clock;
  /** How long to wait for the store before counting locally instead. */
  failOpenAfterMs?: number;
  /**
   * Called each time a request is counted in process memory because the
   * shared store failed or did not answer in time; an operator counts these
   * (a metric) to see how often limits were per process. Must not throw.
   */
  onFailOpen?: (cause: FailOpenCause) => void;
}

/** The limiter every front end asks before serving a request. */
export interface RateLimiter {
  consume(bucket: Bucket): Promise<RateLimitDecision>;
  /** Waits up to `timeoutMs` for the shared store; false means counting starts per process. */
  ready(timeoutMs: number): Promise<boolean>;
  /** False while the shared store fails or is slow and each process counts alone (fail open). */
  shared(): boolean;
  close(): Promise<void>;
}

/**
 * Counts each request against its bucket. When the shared store fails or is
 * slow, the limiter fails open (docs/api): it counts in process memory, so the
 * headers stay plausible, and the request goes on within the bound.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const store = options.store;
  // Counts this process's requests when there is no shared store, or when it fails.
  const fallback = memoryRateLimitStore();
  const bound = options.failOpenAfterMs ?? 150;
  let lastCountShared = true;

  async function count(key: string, windowStartMs: number): Promise<number> {
    if (store === undefined) return fallback.hit(key, windowStartMs, WINDOW_MS);
    const counted = await within(store.hit(key, windowStartMs, WINDOW_MS), bound);
    lastCountShared = counted.kind === 'done';
    if (counted.kind === 'done') return counted.value;
    options.onFailOpen?.(counted.kind === 'failed' ? 'error' : 'timeout');
    return fallback.hit(key, windowStartMs, WINDOW_MS);
  }

  return {
    async consume(bucket) {
      const now = options.clock.now();
      const windowStartMs = Math.floor(now / WINDOW_MS) * WINDOW_MS;
      const resetMs = windowStartMs + WINDOW_MS;
      const used = await count(bucket.key, windowStartMs);
      return {
        allowed: used <= bucket.limit,
        bucket: bucket.key,
        limit: bucket.limit,
        remaining: Math.max(0, bucket.limit - used),
        resetEpochSeconds: resetMs / 1000,
        retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
        windowSeconds: WINDOW_SECONDS,
      };
    },
    ready: async (timeoutMs) => (store ? store.ready(timeoutMs) : true),
    shared: () => lastCountShared,
    async close() {
      await store?.close();
      await fallback.close();
    },
  };
}
