import type { paths } from './schema.js';

type CodesOf<O> = O extends { responses: infer R }
  ? { [S in keyof R]: R[S] extends { content: { 'application/json': { error: { code: infer C } } } } ? C : never }[keyof R]
  : never;

/** Every `error.code` the document says the API can answer (errors.md). */
export type ErrorCode = { [P in keyof paths]: { [M in keyof paths[P]]-?: CodesOf<paths[P][M]> }[keyof paths[P]] }[keyof paths];

/** The API's error envelope, as every refusal carries it. */
export interface ErrorBody {
  readonly error: {
    readonly code: ErrorCode;
    readonly message: string;
    readonly details: Record<string, unknown>;
    readonly request_id: string;
  };
}

/**
 * A refusal met where no result can be handed back (in the middle of
 * `paginate`'s iteration); single calls return the typed `error` instead.
 */
export class ScheduleApiError extends Error {
  override readonly name = 'ScheduleApiError';
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly requestId: string;

  constructor(
    readonly status: number,
    body: ErrorBody,
  ) {
    super(body.error.message);
    this.code = body.error.code;
    this.details = body.error.details;
    this.requestId = body.error.request_id;
  }
}
