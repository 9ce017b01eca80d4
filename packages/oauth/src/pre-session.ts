import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { appendCookie, readCookie } from './cookies.js';

// The sign-in form outside an authorization (/oauth/sign-in) belongs to no
// session yet, so its anti-forgery token is bound to a random value this
// browser holds in a cookie (double submit): a token copied from another
// browser's form does not match this browser's cookie, and another site can
// neither read the cookie nor make the browser send it (SameSite=Strict).
// Without it, a page elsewhere could sign a visitor in as the attacker, and
// the next app the visitor authorizes would get the attacker's account.

const COOKIE = 'schedule_sign_in';
/** Long enough to type a password after opening the page; the form says to reload once it is gone. */
export const PRE_SESSION_SECONDS = 60 * 60;
const VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The pre-session this browser sent, if it is one we could have made. */
export function readPreSession(req: IncomingMessage): string | undefined {
  const value = readCookie(req, COOKIE);
  return value !== undefined && VALUE.test(value) ? value : undefined;
}

/** The browser's pre-session: the one it sent, else a new one set on the answer (renewed either way, so an open form stays usable). */
export function preSession(req: IncomingMessage, res: ServerResponse, secure: boolean): string {
  const value = readPreSession(req) ?? randomBytes(32).toString('base64url');
  appendCookie(res, COOKIE, value, { path: '/oauth/sign-in', sameSite: 'Strict', maxAgeSeconds: PRE_SESSION_SECONDS, secure });
  return value;
}
