import { randomBytes } from 'node:crypto';

/**
 * A new signing secret as Standard Webhooks writes one: `whsec_` and the
 * base64 of 32 random bytes, the HMAC-SHA256 key. Receivers paste it into
 * any Standard Webhooks library as it is.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
