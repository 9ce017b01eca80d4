import { createScheduleClient } from '@schedule/client';
import { isErrorCode, operationsByName } from '@schedule/core';
import { type Backend, CliError } from './backend.js';

/** Query values as the API reads them: lists comma-joined, absent ones left out. */
function queryOf(query: Readonly<Record<string, unknown>>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    shown[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return shown;
}

/** The server's own request timeout is 15 s; a call waits a little longer, then gives up. */
const DEFAULT_TIMEOUT_MS = 20_000;

/** Why a request got no answer: fetch wraps the socket's own error in `cause`. */
function reasonOf(error: unknown, timeoutMs: number): string {
  if ((error as { name?: string } | null)?.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const chosen = cause instanceof Error ? cause : error;
  return chosen instanceof Error ? chosen.message : String(chosen);
}

/**
 * The HTTP API at `apiUrl`, acting as the token: the same calls, over the
 * wire, through the typed client generated from the OpenAPI document (so the
 * CLI speaks the published contract, not a private copy of it). The CLI calls
 * by operation name, so it uses the client's untyped `request` with the
 * operation's method and path template.
 */
export function openRemote(options: { apiUrl: string; token?: string | undefined; timeoutMs?: number }): Backend {
  const base = options.apiUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Each call is bounded: an API that accepts the connection and never answers must not hang a script.
  const bounded = (request: Request) => fetch(request, { signal: AbortSignal.timeout(timeoutMs) });
  const client = options.token ? createScheduleClient({ baseUrl: base, token: options.token, fetch: bounded }) : undefined;
  return {
    mode: 'remote',
    async call(name, input) {
      const operation = operationsByName[name];
      if (!client) throw new CliError('unauthorized', 'No token: set SCHEDULE_TOKEN or pass --token.');
      const header: Record<string, string> = {};
      if (input.idempotencyKey !== undefined) header['Idempotency-Key'] = input.idempotencyKey;
      if (input.ifMatch !== undefined) header['If-Match'] = input.ifMatch;
      const request = client.request as unknown as (
        method: string,
        path: string,
        init: Record<string, unknown>,
      ) => Promise<{ data?: any; error?: any; response: Response }>;
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(operation.method.toLowerCase(), operation.path.replace(/:([a-z_]+)/g, '{$1}'), {
          params: { path: input.params ?? {}, query: queryOf(input.query ?? {}), header },
          ...(input.body !== undefined ? { body: input.body } : {}),
        });
      } catch (error) {
        if (error instanceof SyntaxError) throw new CliError('internal_error', `${base} answered with a body that is not JSON.`);
        throw new CliError('connection_failed', `Cannot reach ${base}: ${reasonOf(error, timeoutMs)}`);
      }
      const { response } = answer;
      if (!response.ok) {
        if (typeof answer.error !== 'object' || answer.error === null) {
          throw new CliError('internal_error', `${base} answered ${response.status} with a body that is not JSON.`);
        }
        const error = answer.error.error ?? {};
        // A code this CLI does not know (not this API's answer) is an unexpected failure, as a missing one is.
        throw new CliError(
          isErrorCode(error.code) ? error.code : 'internal_error',
          String(error.message ?? `HTTP ${response.status}`),
          error.details ?? {},
        );
      }
      const json = answer.data ?? {};
      const etag = response.headers.get('etag');
      const version = etag === null ? undefined : Number(etag.replace(/"/g, ''));
      const meta = json.meta ?? {};
      const page = 'next_cursor' in meta ? { nextCursor: meta.next_cursor as string | null, hasMore: Boolean(meta.has_more) } : undefined;
      return { data: json.data, page, version };
    },
    async close() {},
  };
}
