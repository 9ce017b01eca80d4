import { createHmac } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): a receiver checks
// `webhook-signature` with any of that specification's libraries, so the
// signed content, the key and the header's shape follow it exactly.

const SECRET_PREFIX = 'whsec_';

/** The secrets that sign now: the current one, and the previous one while a rotation's overlap lasts. */
export function signingSecrets(
  webhook: { secret: string; previous_secret: string | null; previous_secret_until: string | null },
  nowMs: number,
): string[] {
  const { secret, previous_secret: previous, previous_secret_until: until } = webhook;
  return previous !== null && until !== null && Date.parse(until) > nowMs ? [secret, previous] : [secret];
}

/**
 * `webhook-signature`: `v1,<base64 HMAC-SHA256>` for each secret, space
 * separated. The HMAC covers `<webhook-id>.<webhook-timestamp>.<body>`, so a
 * replayed body under another id or time fails; its key is the secret's
 * bytes (base64 after `whsec_`), not its text.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`).join(' ');
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}
