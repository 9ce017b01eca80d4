import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkPassword, type Limits, type RateLimiter, type RecordDeps } from '@schedule/core';
import { isSecure, startHostSession } from './host-session.js';
import { isKnownBrowser, rememberBrowser, signInAllowed } from './sign-in-limit.js';

/** What a sign-in needs, whichever form it came from (an authorization's, or /oauth/sign-in). */
export interface SignInDeps {
  readonly records: RecordDeps;
  readonly cookieKey: string;
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
  readonly trustProxy: boolean;
}

export type SignInOutcome =
  | { readonly signedIn: true; readonly accountId: string }
  | { readonly signedIn: false; readonly status: 401 | 429; readonly error: string; readonly username: string };

/**
 * Checks a sign-in form's username and password, within the sign-in limits
 * (sign-in-limit.ts); on success starts the host session and marks the
 * browser as one this host signs in with. The form's anti-forgery token is
 * the caller's to check first.
 */
export async function signInWith(
  deps: SignInDeps,
  req: IncomingMessage,
  res: ServerResponse,
  form: URLSearchParams,
  address: string,
): Promise<SignInOutcome> {
  const username = (form.get('username') ?? '').trim().slice(0, 100);
  const password = form.get('password') ?? '';
  const knownBrowser = isKnownBrowser(req, deps.cookieKey, username);
  const allowed = await signInAllowed(deps, { address, username, knownBrowser });
  if (!allowed.ok) {
    res.setHeader('Retry-After', String(allowed.retryAfterSeconds));
    return {
      signedIn: false,
      status: 429,
      error: `Too many sign-in attempts; wait ${allowed.retryAfterSeconds} seconds and try again.`,
      username,
    };
  }
  const accountId = username && password ? await checkPassword(deps.records.db, username, password) : undefined;
  if (!accountId) return { signedIn: false, status: 401, error: 'The username or password is not right.', username };
  const secure = isSecure(req, deps.trustProxy);
  await startHostSession(deps.records, res, accountId, secure);
  rememberBrowser(res, deps.cookieKey, username, secure);
  return { signedIn: true, accountId };
}
