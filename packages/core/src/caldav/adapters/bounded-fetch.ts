import { fetch as undiciFetch } from 'undici';
import { urlShown } from '../../url-shown.js';
import type { Fetch } from '../caldav-connector.js';
import { CalDavFailure } from '../caldav-failure.js';

export interface BoundedFetchOptions {
  readonly username: string;
  readonly password: string;
  /** Budget for one request: connecting, headers and body. */
  readonly timeoutMs: number;
  /** Answers larger than this are refused rather than buffered. */
  readonly maxBytes: number;
  /** The transport underneath; undici's fetch unless a test or an embedder passes another. */
  readonly fetch?: Fetch | undefined;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A fetch for one CalDAV account: every request is bounded in time and
 * size, carries the account's Basic credentials (so the library above never
 * holds the password), drops them on a redirect to another origin, and fails
 * with a CalDavFailure whose message names the server without credentials.
 * 401 and 403 fail here too, so every call reports wrong credentials alike.
 */
export function boundedFetch(options: BoundedFetchOptions): Fetch {
  const transport = options.fetch ?? (undiciFetch as unknown as Fetch);
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;

  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    const origin = url.origin;
    const signal = AbortSignal.timeout(options.timeoutMs);
    const fail = (reason: CalDavFailure['reason'], what: string, status?: number, cause?: unknown) =>
      new CalDavFailure(reason, `CalDAV server ${urlShown(url.href)} ${what}`, status, { cause });
    try {
      for (let hop = 0; ; hop++) {
        const headers = new Headers(init.headers);
        // Credentials go only to the origin they were given for.
        if (url.origin === origin) headers.set('authorization', authorization);
        else headers.delete('authorization');
        const response = await transport(url, { ...init, headers, signal, redirect: 'manual' });
        const location = response.headers.get('location');
        if (REDIRECTS.has(response.status) && location !== null) {
          await response.body?.cancel();
          if (hop === MAX_REDIRECTS) throw fail('http', `redirected more than ${MAX_REDIRECTS} times`, response.status);
          url = new URL(location, url);
          continue;
        }
        if (response.status === 401 || response.status === 403) {
          await response.body?.cancel();
          throw fail('credentials', `refused the username and password (HTTP ${response.status})`, response.status);
        }
        return await withinSize(response, options.maxBytes, () => fail('too_large', `answered with more than ${options.maxBytes} bytes`));
      }
    } catch (error) {
      if (error instanceof CalDavFailure) throw error;
      if (signal.aborted) throw fail('timeout', `gave no complete answer within ${options.timeoutMs} ms`, undefined, error);
      throw fail('unreachable', `could not be reached (${reasonOf(error)})`, undefined, error);
    }
  };
}

/** A fetch that stops a whole exchange once one of its requests went unanswered, and says why. */
export interface UnansweredStop {
  readonly fetch: Fetch;
  /** The failure of the request that got no answer in time, once one has. */
  readonly timedOut: () => CalDavFailure | undefined;
}

/**
 * For an exchange of several requests (discovery asks up to five): once one
 * request gets no complete answer in time, every later one fails at once
 * with that same failure. A server that let one request time out is not
 * waited on again, so the exchange ends within one request's budget after
 * it (docs/calendars.md: no answer in 5 s is `502 calendar_unreachable`),
 * rather than one budget per step. The failure stays readable for callers
 * whose library swallows a failed step (tsdav's service discovery does).
 */
export function stopAfterTimeout(fetch: Fetch): UnansweredStop {
  let timedOut: CalDavFailure | undefined;
  return {
    timedOut: () => timedOut,
    fetch: async (input, init) => {
      if (timedOut) throw timedOut;
      try {
        return await fetch(input, init);
      } catch (error) {
        if (error instanceof CalDavFailure && error.reason === 'timeout') timedOut = error;
        throw error;
      }
    },
  };
}

/** The response with its body read, at most `maxBytes` of it, counted while streaming (a chunked body announces no length). */
async function withinSize(response: Response, maxBytes: number, tooLarge: () => Error): Promise<Response> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body !== null) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(); // leaving the loop cancels the body
      chunks.push(chunk);
    }
  }
  // A status without a body (204, 304) may not be given one.
  const body = response.status === 204 || response.status === 304 ? null : Buffer.concat(chunks);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The innermost reason a connection failed ("fetch failed" says nothing). */
function reasonOf(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
