import { isIP } from 'node:net';
import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { isPrivateAddress } from './private-address.js';

/** docs/webhooks.md "Managing webhooks": a target URL is at most 2000 characters, as sent and as stored. */
export const MAX_URL_LENGTH = 2000;

/**
 * A webhook's target as a body sends it: an absolute http(s) URL without
 * credentials, stored as the WHATWG URL parser writes it (`HTTPS://Example.com`
 * becomes `https://example.com/`), which is also how the deliverer will read
 * it, so the address checked here is the one connected to.
 */
export const webhookUrl = z
  .string()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .transform((text, ctx) => {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http:// or https:// URL' });
      return z.NEVER;
    }
    // A password in the URL would be stored and shown in every answer; receivers authenticate deliveries by the signature.
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password' });
      return z.NEVER;
    }
    if (url.href.length > MAX_URL_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_URL_LENGTH} characters once normalized` });
      return z.NEVER;
    }
    return url.href;
  })
  .meta({
    format: 'uri',
    description: 'Where events are POSTed: http(s), no credentials, at most 2000 characters.',
    examples: ['https://crm.example.com/hooks/schedule'],
  });

/** The host of a URL as an address or name: IPv6 literals lose their brackets. */
function hostOf(href: string): string {
  return new URL(href).hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Refuses a target that names a private, loopback or link-local address
 * literally, or `localhost` (RFC 6761: it always means this machine), unless
 * the operator allows such targets (WEBHOOK_ALLOW_PRIVATE_TARGETS=1). Names
 * are resolved and checked again at each connection by the deliverer, so a
 * name that resolves to a private address is stopped there; this check only
 * answers early what can be known from the URL alone.
 */
export function checkWebhookTarget(href: string, allowPrivateTargets: boolean): void {
  if (allowPrivateTargets) return;
  // A final dot names the same host (`localhost.`).
  const host = hostOf(href).toLowerCase().replace(/\.$/, '');
  // A name is judged where it resolves, at connect time (adapters/undici-client.ts); here only literals and localhost.
  if ((isIP(host) !== 0 && isPrivateAddress(host)) || host === 'localhost' || host.endsWith('.localhost')) {
    throw new ScheduleError(
      'validation_error',
      'url: must not name a private, loopback or link-local address (the server allows them only with WEBHOOK_ALLOW_PRIVATE_TARGETS=1).',
      { fields: ['url'] },
    );
  }
}
