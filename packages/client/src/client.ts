import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { type ClientPaths, idempotencyKeys } from './headers.js';
import { type ListItem, type ListPath, type ListQuery, paginate } from './paginate.js';

/** Where the API is and who calls it. */
export interface ScheduleClientOptions {
  /** The server's origin, e.g. `http://127.0.0.1:3000`; paths start with `/v1`. */
  readonly baseUrl: string;
  /** A personal access token, sent as `Authorization: Bearer`. */
  readonly token: string;
  /** Makes the `Idempotency-Key` of a write that brings none; `crypto.randomUUID` by default. */
  readonly idempotencyKey?: () => string;
  /** A fetch to use instead of the global one (a test double, a proxy agent). */
  readonly fetch?: (request: Request) => Promise<Response>;
}

/** openapi-fetch's typed `GET`, `POST`, `PATCH`… over the document, plus cursor iteration. */
export interface ScheduleClient extends Client<ClientPaths> {
  /** Every item of a list path, following its cursor page after page. */
  paginate<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>, void, undefined>;
}

/** A typed client for the schedule HTTP API. */
export function createScheduleClient(options: ScheduleClientOptions): ScheduleClient {
  const client = createClient<ClientPaths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.token}` },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  client.use(idempotencyKeys(options.idempotencyKey ?? randomUUID));
  return { ...client, paginate: (path, query) => paginate(client, path, query) };
}
