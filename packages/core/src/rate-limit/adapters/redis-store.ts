import type { Redis } from 'ioredis';
import { loadDriver } from '../../optional-driver.js';
import type { RateLimitStore } from '../rate-limit-store.js';

// One round trip, atomic: count the hit and make the window's key expire with it.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

export interface RedisStoreOptions {
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  keyPrefix?: string;
  /** A command that has not answered by then fails; the limiter then fails open. */
  commandTimeoutMs?: number;
}

/**
 * Shares the counts between every process on one Redis. It never queues
 * commands while disconnected and never retries one: a slow or absent Redis
 * must cost a request at most the command timeout (docs/api: fail open). A
 * server awaits `ready` before it listens, so counting is shared from its
 * first request whenever Redis is there.
 */
export function redisRateLimitStore(url: string, options: RedisStoreOptions = {}): RateLimitStore {
  // The client module loads when the store opens: importing core must not cost
  // ioredis when Redis is not configured, and an embedder without Redis need not install it.
  const driver = loadDriver(() => import('ioredis'), { packages: ['ioredis'], usedFor: 'share rate limits through Redis' });
  const client: Promise<Redis> = driver.then(({ Redis }) => {
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 100,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 250, 2000),
      lazyConnect: false,
    });
    // Connection errors surface as failed hits; the event itself needs no handling.
    redis.on('error', () => {});
    return redis;
  });
  // A missing driver is reported by `ready` (awaited before a server listens) and fails each hit
  // (counted in process memory); it must never also surface as an unhandled rejection.
  client.catch(() => {});
  const prefix = options.keyPrefix ?? 'schedule:';
  // A connection that went silent (a hung network, a frozen server) stays
  // "ready" for ioredis: commands just time out, forever. After a run of
  // failures the connection is dropped and opened anew, at most once a second,
  // so that counting is shared again as soon as Redis answers.
  let failuresInARow = 0;
  let lastReconnectMs = 0;
  const noteFailure = (redis: Redis) => {
    failuresInARow += 1;
    const nowMs = performance.now();
    if (failuresInARow >= 3 && nowMs - lastReconnectMs >= 1000 && redis.status === 'ready') {
      lastReconnectMs = nowMs;
      redis.disconnect(true);
    }
  };
  return {
    async hit(bucketKey, windowStartMs, windowMs) {
      const redis = await client;
      try {
        const count = await redis.eval(HIT_SCRIPT, 1, `${prefix}rl:${bucketKey}:${windowStartMs}`, String(windowMs + 1000));
        failuresInARow = 0;
        return Number(count);
      } catch (error) {
        noteFailure(redis);
        throw error;
      }
    },
    async ready(timeoutMs) {
      const redis = await client;
      if (redis.status === 'ready') return true;
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          redis.off('ready', onReady);
          resolve(ok);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        redis.once('ready', onReady);
      });
    },
    async close() {
      (await client.catch(() => undefined))?.disconnect();
    },
  };
}
