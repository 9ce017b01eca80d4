import type { Client } from 'openapi-fetch';
import { type ErrorBody, ScheduleApiError } from './errors.js';
import type { ClientPaths } from './headers.js';
import type { paths } from './schema.js';

type ListOperation<P> = P extends keyof paths ? (paths[P] extends { get: infer O } ? O : never) : never;
type PageBody<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** The paths that answer the list envelope (`meta.next_cursor`, `has_more`). */
export type ListPath = {
  [P in keyof paths]: [PageBody<ListOperation<P>>] extends [never]
    ? never
    : PageBody<ListOperation<P>> extends { meta: { next_cursor: string | null } }
      ? P
      : never;
}[keyof paths];

/** One item of a list path's pages. */
export type ListItem<P extends ListPath> = PageBody<ListOperation<P>> extends { data: (infer I)[] } ? I : never;

/** A list path's filters; the cursor is `paginate`'s to send. */
export type ListQuery<P extends ListPath> = Omit<
  NonNullable<ListOperation<P> extends { parameters: { query?: infer Q } } ? Q : never>,
  'cursor'
>;

interface Page {
  readonly data: unknown[];
  readonly meta: { readonly next_cursor: string | null; readonly has_more: boolean };
}

// The one place the client is called untyped: a call generic over the path
// is more than openapi-fetch's overloads can resolve; the signature of
// `paginate` carries the types instead.
type UntypedGet = (
  path: string,
  init: { params: { query: Record<string, unknown> } },
) => Promise<{ data?: Page; error?: ErrorBody; response: Response }>;

/**
 * Every item of a list, page after page, following `meta.next_cursor`
 * (requests.md, "Pagination"). A refusal mid-way throws `ScheduleApiError`.
 */
export async function* paginate<P extends ListPath>(
  client: Client<ClientPaths>,
  path: P,
  query?: ListQuery<P>,
): AsyncGenerator<ListItem<P>, void, undefined> {
  const get = client.GET as unknown as UntypedGet;
  let cursor: string | null = null;
  do {
    const { data, error, response } = await get(path, { params: { query: cursor === null ? { ...query } : { ...query, cursor } } });
    if (error !== undefined || data === undefined) throw new ScheduleApiError(response.status, error!);
    yield* data.data as ListItem<P>[];
    cursor = data.meta.has_more ? data.meta.next_cursor : null;
  } while (cursor !== null);
}
