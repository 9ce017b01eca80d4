import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** More proxies than this in front of one server is a configuration mistake, not a deployment. */
export const MAX_TRUSTED_PROXIES = 9;

/** A header longer than this was not written by a chain of a few proxies; it is not read. */
const MAX_FORWARDED_FOR_LENGTH = 1024;

/**
 * How many proxies in front of the server append the client's address to
 * `X-Forwarded-For` (`TRUST_PROXY`): unset, empty, `0` or `false` trust none;
 * `1` or `true` one; `2`… that many (a CDN before a load balancer). Anything
 * else is a mistake the operator must hear about at start.
 */
export function trustedProxyHops(value: string | undefined): number {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === '0' || text === 'false') return 0;
  if (text === 'true') return 1;
  const hops = /^[1-9]$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(hops) || hops > MAX_TRUSTED_PROXIES) {
    throw new Error(
      `TRUST_PROXY "${value}" must be 0 (no proxy), 1 (or true) for one proxy, or the number of proxies in front of the server (up to ${MAX_TRUSTED_PROXIES}).`,
    );
  }
  return hops;
}

/**
 * The address a request's rate-limit buckets are keyed on. Without trusted
 * proxies it is the TCP peer: `X-Forwarded-For` is whatever the client
 * wrote. Behind `hops` trusted proxies, each appends the address it was
 * reached from, so the entry `hops` from the right is the one the outermost
 * trusted proxy saw; everything left of it came from the client and may be
 * forged. A header too short or not a bare IP address there (a port, a name,
 * garbage) falls back to the peer: one shared bucket is safer than one the
 * client chose.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (hops <= 0) return peer;
  // Node joins repeated X-Forwarded-For headers with ", " in arrival order, as one list.
  const header = req.headers['x-forwarded-for'];
  if (typeof header !== 'string' || header.length > MAX_FORWARDED_FOR_LENGTH) return peer;
  const entries = header.split(',').map((entry) => entry.trim());
  const candidate = entries[entries.length - hops];
  return candidate !== undefined && isIP(candidate) !== 0 ? candidate.toLowerCase() : peer;
}
