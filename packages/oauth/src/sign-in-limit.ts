import type { Limits, RateLimiter } from '@schedule/core';

/**
 * Password tries are counted per client address and per username, each in
 * its own bucket (`sign_in_per_minute`): one address cannot guess quickly,
 * and many addresses together cannot guess one host's password quickly.
 */
export async function signInAllowed(
  deps: { rateLimiter: RateLimiter; limits: Limits },
  address: string,
  username: string,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const limit = deps.limits.sign_in_per_minute;
  const byAddress = await deps.rateLimiter.consume({ key: `sign_in:${address}`, limit });
  const byUser = username ? await deps.rateLimiter.consume({ key: `sign_in_user:${username.toLowerCase()}`, limit }) : byAddress;
  if (byAddress.allowed && byUser.allowed) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(byAddress.retryAfterSeconds, byUser.retryAfterSeconds) };
}
