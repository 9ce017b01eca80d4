import type { ErrorCode, OperationName } from '@schedule/core';

/** A call as the CLI makes it, before it is HTTP or a core call. */
export interface CallInput {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly idempotencyKey?: string | undefined;
  readonly ifMatch?: string | undefined;
}

/** A success: the API's `data`, the page of a list, the version behind an ETag. */
export interface CallResult {
  readonly data: unknown;
  readonly page?: { readonly nextCursor: string | null; readonly hasMore: boolean } | undefined;
  readonly version?: number | undefined;
}

/**
 * Where commands run: embedded (core on a local database) or remote (the
 * HTTP API). Both take the same calls and fail with the same codes, so every
 * command behaves the same in both modes.
 */
export interface Backend {
  readonly mode: 'embedded' | 'remote';
  /** Runs the operation of this name (core's operation names, which MCP tools share). */
  call(operation: OperationName, input: CallInput): Promise<CallResult>;
  close(): Promise<void>;
}

/** The codes only the CLI answers with: a usage mistake, an API it cannot reach, a name taken, a prompt left, a short uid of several bookings. */
export type CliOwnCode = 'usage' | 'connection_failed' | 'token_name_taken' | 'canceled' | 'ambiguous_uid';

/** Every code a CLI error carries: the API's, or one of its own. */
export type CliCode = ErrorCode | CliOwnCode;

/** The CLI's one error: a failure with the API's code or its own, printed as `error <code>: <message>`. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: CliCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
