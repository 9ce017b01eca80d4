import { describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { admit } from '../src/rate-limit/admit.js';
import { DEFAULT_LIMITS } from '../src/rate-limit/limits.js';
import { createRateLimiter } from '../src/rate-limit/rate-limiter.js';

// Issue 13: HTTP and MCP admit a caller by this one function.

const LIMITS = { ...DEFAULT_LIMITS, pat_per_minute: 2, oauth_per_minute: 2, anonymous_per_minute: 1 };
const ALICE: Principal = {
  tokenId: 'token-1',
  credential: { kind: 'pat' },
  account: { id: 'account-1', username: 'alice', email: 'alice@acme.test', name: 'Alice', timezone: 'UTC', role: 'user' },
  scopes: new Set(['bookings:read']),
  actsFor: { kind: 'users', ids: new Set(['account-1']) },
};

function admission() {
  const deps = { rateLimiter: createRateLimiter({ clock: manualClock(Date.parse('2026-01-05T12:00:00Z')) }), limits: LIMITS };
  return (principal: () => Promise<Principal | undefined>) => admit(deps, { principal, address: '10.0.0.1' });
}

describe('admit', () => {
  it("counts a caller in its token's bucket and answers its principal, then rate_limited past the limit", async () => {
    const knock = admission();
    expect(await knock(async () => ALICE)).toMatchObject({ kind: 'admitted', principal: ALICE, decision: { bucket: 'pat:token-1' } });
    await knock(async () => ALICE);
    const refused = await knock(async () => ALICE);
    expect(refused).toMatchObject({ kind: 'rate_limited', decision: { allowed: false, remaining: 0 } });
    expect(refused.kind === 'rate_limited' && refused.error.code).toBe('rate_limited');
  });

  it('admits a caller without a principal in the anonymous bucket of its address: 401 is the front end’s to answer', async () => {
    expect(await admission()(async () => undefined)).toMatchObject({
      kind: 'admitted',
      principal: undefined,
      decision: { bucket: 'anonymous:10.0.0.1' },
    });
  });

  it('counts a failed token lookup anonymously, then reports what failed', async () => {
    const down = new Error('the database is away');
    const knock = admission();
    expect(await knock(() => Promise.reject(down))).toMatchObject({ kind: 'lookup_failed', cause: down, decision: { remaining: 0 } });
    expect(await knock(() => Promise.reject(down))).toMatchObject({ kind: 'rate_limited' });
  });
});
