import { hash, randomBytes } from 'node:crypto';

/**
 * Token secrets are stored only as a SHA-256 digest. A slow password hash
 * would add nothing: secrets are long random strings, not guessable words,
 * and every request has to verify one.
 */
export function hashSecret(secret: string): string {
  // The one-shot form: every request pays for this, and it skips a Hash object.
  return hash('sha256', secret, 'hex');
}

/** A new PAT secret, shown once to whoever makes it. */
export function newSecret(): string {
  return `pat_${randomBytes(24).toString('base64url')}`;
}
