import { isErrorCode, operationsByName } from '@schedule/core';
import { request } from 'undici';
import { type Backend, CliError } from './backend.js';

function queryString(query: Readonly<Record<string, unknown>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The HTTP API at `apiUrl`, acting as the token: the same calls, over the wire. */
export function openRemote(options: { apiUrl: string; token?: string | undefined }): Backend {
  const base = options.apiUrl.replace(/\/+$/, '');
  return {
    mode: 'remote',
    async call(name, input) {
      const operation = operationsByName[name];
      if (!options.token) throw new CliError('unauthorized', 'No token: set SCHEDULE_TOKEN or pass --token.');
      const path = operation.path.replace(/:([a-z_]+)/g, (_, param: string) => encodeURIComponent(input.params?.[param] ?? ''));
      const headers: Record<string, string> = { authorization: `Bearer ${options.token}`, accept: 'application/json' };
      if (input.body !== undefined) headers['content-type'] = 'application/json';
      if (input.idempotencyKey !== undefined) headers['idempotency-key'] = input.idempotencyKey;
      if (input.ifMatch !== undefined) headers['if-match'] = input.ifMatch;
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(`${base}${path}${queryString(input.query ?? {})}`, {
          method: operation.method,
          headers,
          ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
        });
      } catch (error) {
        throw new CliError('connection_failed', `Cannot reach ${base}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const text = await response.body.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        throw new CliError('internal_error', `${base} answered ${response.statusCode} with a body that is not JSON.`);
      }
      if (response.statusCode >= 400) {
        const error = json?.error ?? {};
        // A code this CLI does not know (not this API's answer) is an unexpected failure, as a missing one is.
        throw new CliError(
          isErrorCode(error.code) ? error.code : 'internal_error',
          String(error.message ?? `HTTP ${response.statusCode}`),
          error.details ?? {},
        );
      }
      const etag = response.headers.etag;
      const version = typeof etag === 'string' ? Number(etag.replace(/"/g, '')) : undefined;
      const meta = json.meta ?? {};
      const page = 'next_cursor' in meta ? { nextCursor: meta.next_cursor as string | null, hasMore: Boolean(meta.has_more) } : undefined;
      return { data: json.data, page, version };
    },
    async close() {},
  };
}
