import type { Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

/**
 * The `If-Match` header for a resource read at `version`: its ETag as the
 * server sends it (`"3"`), or `*` for whatever is current (requests.md).
 */
export function ifMatch(version: number | '*'): { 'If-Match': string } {
  return { 'If-Match': version === '*' ? '*' : `"${version}"` };
}

type IdempotencyKey = 'Idempotency-Key';
type OptionalKey<H> = Omit<H, IdempotencyKey> & { [K in IdempotencyKey]?: string };
type OptionalKeyParameters<P> = P extends { header: infer H }
  ? IdempotencyKey extends keyof H
    ? Omit<P, 'header'> &
        (Partial<Omit<H, IdempotencyKey>> extends Omit<H, IdempotencyKey> ? { header?: OptionalKey<H> } : { header: OptionalKey<H> })
    : P
  : P;
type OptionalKeyOperation<O> = O extends { parameters: infer P } ? Omit<O, 'parameters'> & { parameters: OptionalKeyParameters<P> } : O;

/**
 * The document's paths with `Idempotency-Key` optional wherever it is
 * required: the client fills one in (see `idempotencyKeys`), and a caller
 * passes its own only to retry a write safely.
 */
export type ClientPaths = { [P in keyof paths]: { [M in keyof paths[P]]: OptionalKeyOperation<paths[P][M]> } };

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Gives every write that has no `Idempotency-Key` a fresh one. The API
 * requires a key on most writes and accepts one on the rest; sending one on
 * every write costs nothing and makes each safe to replay.
 */
export function idempotencyKeys(newKey: () => string): Middleware {
  return {
    onRequest({ request }) {
      if (WRITES.has(request.method) && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', newKey());
      return request;
    },
  };
}
