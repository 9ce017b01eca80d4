import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, expectCommonHeaders, expectData } from './support/http.js';
import { expectRateLimited } from './support/rate-limit.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';
import { buildWorkspace, SECRETS } from './support/workspace.js';

// docs/api/requests.md "Rate limits": one counter per bucket and window, shared by every
// process on one Redis; when Redis fails, the limiter fails open.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `test-${randomBytes(6).toString('hex')}:`;
const LIMIT = 6;
const fx = buildWorkspace({ limits: { pat_per_minute: LIMIT } });

let one: ServerProcess;
let two: ServerProcess;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  // Both processes share one SQLite file, so a token has the same id (and bucket) in both.
  const db = join(tempDir('schedule-db-'), 'shared.db');
  const file = writeWorkspace(fx.workspace);
  const env = { REDIS_URL, REDIS_PREFIX: PREFIX };
  one = await startServer(['--workspace', file, '--db', db], env);
  two = await startServer(['--workspace', file, '--db', db], env);
});

afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  if (redis) {
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
});

const list = (server: ServerProcess, token: string) => api(server.url, '/v1/bookings?limit=1', { token });

describe('two processes on one Redis', () => {
  it('share one counter per bucket: Remaining counts down across both, and either refuses past the limit', async () => {
    // One round per token, each a fresh bucket; a round that straddles a
    // minute boundary (two X-RateLimit-Reset values) is run again once.
    for (const token of [SECRETS.owner, SECRETS.ownerSecond]) {
      const allowed: ApiResponse[] = [];
      for (let i = 0; i < LIMIT; i++) allowed.push(await list(i % 2 === 0 ? one : two, token));
      const refused = [await list(one, token), await list(two, token)];
      const all = [...allowed, ...refused];
      if (new Set(all.map((r) => r.headers.get('x-ratelimit-reset'))).size > 1) continue;

      expect(allowed.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));
      expect(allowed.map((r) => expectCommonHeaders(r, LIMIT).remaining)).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));
      for (const res of refused) expectRateLimited(res, LIMIT, /^pat:\S+$/);
      expect(refused[1]!.body.error.details).toEqual(refused[0]!.body.error.details);

      const keys = await redis.keys(`${PREFIX}*`);
      expect(keys.some((k) => k.startsWith(`${PREFIX}rl:${refused[0]!.body.error.details.bucket}:`))).toBe(true);
      return;
    }
    throw new Error('both rounds straddled a minute boundary');
  });
});

describe('an unreachable Redis', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    const file = writeWorkspace(buildWorkspace().workspace);
    server = await startServer(['--workspace', file, '--db', ':memory:'], { REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: PREFIX });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('fails open: 20 requests all answer 200, quickly, with rate-limit headers', async () => {
    const started = performance.now();
    const responses: ApiResponse[] = [];
    for (let i = 0; i < 20; i++) responses.push(await list(server, SECRETS.owner));
    const total = performance.now() - started;

    for (const res of responses) {
      expect(expectData(res)).toHaveLength(1);
      expectCommonHeaders(res, 120);
    }
    expect(total).toBeLessThan(3000);
  });
});
