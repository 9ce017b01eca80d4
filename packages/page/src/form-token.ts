import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Every form the page renders carries a token: a random nonce, when it stops
// being accepted, and an HMAC of both and of the path it posts to, under the
// server's manage-link key with a purpose of its own. It is the form's
// idempotency key (a double submit creates one booking) and, with the
// same-origin check (same-origin.ts), its CSRF defence: a token is good for
// one form, for two hours, and cannot be made without the key.

const PURPOSE = 'schedule page form v1';
/** Long enough to fill in a form with questions; short enough that a stolen page goes stale. */
export const FORM_TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
const SHAPE = /^([A-Za-z0-9_-]{22})\.([0-9]{1,11})\.([A-Za-z0-9_-]{43})$/;

function macOf(key: string, nonce: string, expiresAt: string, action: string): string {
  return createHmac('sha256', key).update(`${PURPOSE}\n${nonce}\n${expiresAt}\n${action}`).digest('base64url');
}

/** A fresh token for a form that posts to `action`. */
export function issueFormToken(key: string, action: string, nowMs: number, nonce = randomBytes(16).toString('base64url')): string {
  const expiresAt = String(Math.ceil((nowMs + FORM_TOKEN_TTL_MS) / 1000));
  return `${nonce}.${expiresAt}.${macOf(key, nonce, expiresAt, action)}`;
}

/** What a posted token is: good (its nonce is the post's idempotency key), expired, or not ours. */
export type FormTokenReading =
  | { readonly kind: 'valid'; readonly nonce: string }
  | { readonly kind: 'expired' }
  | { readonly kind: 'invalid' };

export function readFormToken(key: string, token: string | undefined, action: string, nowMs: number): FormTokenReading {
  const match = token === undefined ? null : SHAPE.exec(token);
  if (!match) return { kind: 'invalid' };
  const [, nonce = '', expiresAt = '', mac = ''] = match;
  if (!timingSafeEqual(Buffer.from(macOf(key, nonce, expiresAt, action)), Buffer.from(mac))) return { kind: 'invalid' };
  return nowMs < Number(expiresAt) * 1000 ? { kind: 'valid', nonce } : { kind: 'expired' };
}
