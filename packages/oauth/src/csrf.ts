import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A form's anti-forgery token: an HMAC of what the form is bound to (an
 * interaction, or a host session) under the server's cookie key. Another
 * site cannot compute it, and it needs no storage.
 */
export function csrfToken(key: string, purpose: string, binding: string): string {
  return createHmac('sha256', key).update(`${purpose}\n${binding}`).digest('base64url');
}

export function csrfMatches(key: string, purpose: string, binding: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfToken(key, purpose, binding));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
