import { type LookupAddress, type LookupAllOptions, type LookupOneOptions, lookup } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { Agent, buildConnector, errors, request } from 'undici';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_RESPONSE_BODY_BYTES,
  type WebhookAnswer,
  type WebhookHttpClient,
  type WebhookHttpOptions,
  WebhookRequestFailed,
} from '../delivery/http-client.js';
import { type AddressKind, privateAddressKind } from '../private-address.js';

const ALLOW_HINT = 'webhook targets must be public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private ones)';

/** "a loopback address", "an unspecified address": what an address is, for the refusal's message. */
function kindOf(kind: AddressKind): string {
  return kind === 'not an IP address' ? kind : `${kind === 'unspecified' ? 'an' : 'a'} ${kind} address`;
}

/** A target the SSRF rule refuses; raised inside the connection, before any byte is sent. */
class TargetRefused extends WebhookRequestFailed {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup, minus the addresses a webhook may not reach. It runs as the
 * socket's own lookup, so the address checked is the address connected to:
 * a name that resolves to a public address when the webhook is saved and to
 * 127.0.0.1 when it is delivered (DNS rebinding) is refused all the same.
 */
function publicOnlyLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const allowed = addresses.filter((a) => privateAddressKind(a.address) === undefined);
    if (allowed.length === 0) {
      const shown = addresses.map((a) => `${a.address} (${kindOf(privateAddressKind(a.address)!)})`).join(', ');
      const why = addresses.length > 0 ? `${hostname} resolves to ${shown}` : `${hostname} has no address`;
      return callback(new TargetRefused(`refused: ${why}; ${ALLOW_HINT}`), []);
    }
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}

/**
 * undici's connector with the SSRF rule: an IP literal is checked before
 * connecting (the socket does no lookup for it), a name through
 * publicOnlyLookup, and the connected peer once more, in case a future
 * socket option resolves some other way.
 */
function guardedConnector(connectTimeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: connectTimeoutMs, lookup: publicOnlyLookup } as buildConnector.BuildOptions);
  return (options, callback) => {
    if (isIP(options.hostname)) {
      const kind = privateAddressKind(options.hostname);
      if (kind !== undefined) {
        callback(new TargetRefused(`refused: ${options.hostname} is ${kindOf(kind)}; ${ALLOW_HINT}`), null);
        return;
      }
    }
    connect(options, (error, socket) => {
      if (error) return callback(error, null);
      const peer = (socket as Socket).remoteAddress;
      const kind = peer === undefined ? 'not an IP address' : privateAddressKind(peer);
      if (kind !== undefined) {
        socket!.destroy();
        return callback(new TargetRefused(`refused: connected to ${peer ?? 'an unknown peer'}, ${kindOf(kind)}; ${ALLOW_HINT}`), null);
      }
      callback(null, socket!);
    });
  };
}

/**
 * Cuts `bytes` at the last whole UTF-8 character, so a body cut at the cap
 * never ends in half a character (which would decode to U+FFFD and run past it).
 */
function wholeUtf8(bytes: Buffer): Buffer {
  let end = bytes.length;
  let start = end - 1;
  while (start >= 0 && start > end - 4 && (bytes[start]! & 0xc0) === 0x80) start--;
  if (start < 0) return bytes;
  const lead = bytes[start]!;
  const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (start + length > end) end = start;
  return bytes.subarray(0, end);
}

/** Why there was no answer, in words for `last_error`. */
function describeFailure(error: unknown, timedOut: boolean, timeoutMs: number, connectTimeoutMs: number): string {
  if (error instanceof WebhookRequestFailed) return error.message;
  if (timedOut) return `no answer within ${timeoutMs / 1000} s`;
  if (error instanceof errors.ConnectTimeoutError) return `could not connect within ${connectTimeoutMs / 1000} s`;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

/** undici's own timeouts: connecting, or waiting for headers or body (both set to the request's limit). */
function isTimeout(error: unknown): boolean {
  return (
    error instanceof errors.ConnectTimeoutError || error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError
  );
}

/** The delivery client over undici: bounded in time and in what it reads, never following a redirect. */
export function undiciWebhookClient(options: WebhookHttpOptions): WebhookHttpClient {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_RESPONSE_BODY_BYTES;
  // An agent of its own, not the global dispatcher: its connector carries the
  // SSRF rule, and its timeouts are the deliveries' own. Without an interceptor
  // undici follows no redirect: a 3xx is an answer, and a failed attempt.
  const agent = new Agent({
    connect: options.allowPrivateTargets ? { timeout: connectTimeoutMs } : guardedConnector(connectTimeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function post(req: { url: string; headers: Readonly<Record<string, string>>; body: string; signal?: AbortSignal | undefined }) {
    let target: URL;
    try {
      target = new URL(req.url);
    } catch {
      throw new WebhookRequestFailed('the webhook URL is not a valid URL');
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new WebhookRequestFailed(`unsupported protocol ${target.protocol}; webhook targets must be http or https`);
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    let answer: { status: number; retryAfter: string | undefined } | undefined;
    const chunks: Buffer[] = [];
    try {
      const response = await request(target, { method: 'POST', dispatcher: agent, headers: req.headers, body: req.body, signal });
      const retryAfter = response.headers['retry-after'];
      answer = { status: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter };
      // Leaving the loop early destroys the body; undici reports that as an 'error' nobody needs.
      response.body.on('error', () => {});
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const kept = chunk.subarray(0, maxBodyBytes - size);
        chunks.push(kept);
        size += kept.length;
        // The rest is not read: a receiver cannot make a delivery download a large body.
        if (size >= maxBodyBytes) break;
      }
    } catch (error) {
      // An answer whose body stalls or breaks is still an answer: its status decides.
      if (answer === undefined) {
        if (req.signal?.aborted) throw new WebhookRequestFailed('abandoned: the service is stopping', { cause: error });
        const timedOut = timeout.aborted || isTimeout(error);
        throw new WebhookRequestFailed(describeFailure(error, timeout.aborted, timeoutMs, connectTimeoutMs), { cause: error, timedOut });
      }
    }
    // PostgreSQL text cannot hold NUL, and a body is shown, never parsed.
    const body = wholeUtf8(Buffer.concat(chunks)).toString('utf8').replaceAll('\u0000', '');
    return { ...answer, body } satisfies WebhookAnswer;
  }

  return { post, close: () => agent.close() };
}
