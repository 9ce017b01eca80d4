import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Limits, RateLimiter } from '@schedule/core';
import { appendCookie, readCookie } from './cookies.js';
import { csrfMatches, csrfToken } from './csrf.js';

// Password tries are counted per client address and per username, each in
// its own bucket (`sign_in_per_minute`): one address cannot guess quickly,
// and many addresses together cannot guess one host's password quickly.
//
// The username bucket is one anyone can fill, from anywhere, for as long as
// they keep trying; were it the whole story, an attacker could keep a host
// out for good. So a browser that has signed in as that user before carries
// a mark (a cookie with an HMAC of the username under the server's key) and
// is not counted in that user's bucket: the host gets in from their own
// browser while strangers' guesses are refused. Its address is still
// counted. A browser the host never signed in with waits like everyone else.

const KNOWN = 'schedule_known';
/** A year: the mark only spares the owner's browser a wait; it grants nothing. */
export const KNOWN_BROWSER_SECONDS = 365 * 24 * 60 * 60;

const markOf = (key: string, username: string) => csrfToken(key, 'known-browser', username.toLowerCase());

/** Whether this browser has signed in as `username` before (it sent the mark of that user). */
export function isKnownBrowser(req: IncomingMessage, key: string, username: string): boolean {
  return username !== '' && csrfMatches(key, 'known-browser', username.toLowerCase(), readCookie(req, KNOWN));
}

/** Marks this browser as one `username` signed in with. */
export function rememberBrowser(res: ServerResponse, key: string, username: string, secure: boolean): void {
  appendCookie(res, KNOWN, markOf(key, username), { path: '/oauth', sameSite: 'Strict', maxAgeSeconds: KNOWN_BROWSER_SECONDS, secure });
}

export async function signInAllowed(
  deps: { rateLimiter: RateLimiter; limits: Limits },
  attempt: { address: string; username: string; knownBrowser: boolean },
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const limit = deps.limits.sign_in_per_minute;
  const byAddress = await deps.rateLimiter.consume({ key: `sign_in:${attempt.address}`, limit });
  const counted = attempt.username !== '' && !attempt.knownBrowser;
  const byUser = counted ? await deps.rateLimiter.consume({ key: `sign_in_user:${attempt.username.toLowerCase()}`, limit }) : byAddress;
  if (byAddress.allowed && byUser.allowed) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(byAddress.retryAfterSeconds, byUser.retryAfterSeconds) };
}
