import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  bucketFor,
  type ExecuteDeps,
  execute,
  isScheduleError,
  type Limits,
  type ListOutcome,
  type Operation,
  type Principal,
  type RateLimiter,
  type RawCall,
  rateLimitedError,
  ScheduleError,
} from '@schedule/core';
import { summarize } from './summarize.js';
import { refuseUnknownArguments } from './unknown-arguments.js';

/** What running a tool needs; the same parts the HTTP API runs on. */
export interface McpDeps {
  readonly core: ExecuteDeps;
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
  /** The version the server reports to clients (the product's). */
  readonly version?: string | undefined;
  /** Where unexpected faults are reported; a caller only ever sees `internal_error`. */
  readonly logError: (error: unknown, context: Record<string, unknown>) => void;
}

/** How a tool call finds its caller: a fixed token (stdio) or the bearer of the HTTP request. */
export interface CallerSource {
  /** The principal, or undefined when the token is unknown, revoked or expired. */
  principal(): Promise<Principal | undefined>;
  /** The client address, for the anonymous rate-limit bucket. */
  readonly address: string;
  /**
   * True when the transport has already counted the request this call came
   * in (Streamable HTTP counts every request, before authentication); stdio
   * counts each call here instead.
   */
  readonly counted?: boolean | undefined;
}

// Core speaks of the HTTP headers; a tool has arguments of these names instead.
const HEADER_ARGUMENTS: readonly [RegExp, string][] = [
  [/an If-Match header/g, 'if_match'],
  [/If-Match/g, 'if_match'],
  [/an Idempotency-Key header/g, 'idempotency_key'],
  [/Idempotency-Key/g, 'idempotency_key'],
  [/This endpoint/g, 'This tool'],
];

function inToolTerms(text: string): string {
  return HEADER_ARGUMENTS.reduce((out, [pattern, name]) => out.replace(pattern, name), text);
}

/** A failed call (workspace.md): `isError`, and the API's error as `structuredContent`, worded for tool arguments. */
export function errorResult(error: ScheduleError): CallToolResult {
  const fields = error.details.fields;
  const details = Array.isArray(fields)
    ? { ...error.details, fields: fields.map((f) => (typeof f === 'string' ? inToolTerms(f) : f)) }
    : error.details;
  const message = inToolTerms(error.message);
  const structured = { error: { code: error.code, message, details } };
  return {
    isError: true,
    structuredContent: structured,
    content: [
      {
        type: 'text',
        text: `error ${error.code}: ${message}${Object.keys(details).length > 0 ? ` ${JSON.stringify(details)}` : ''}`,
      },
    ],
  };
}

/** A successful call: `structuredContent` is the endpoint's `data`, and a short text a model can read. */
export function successResult(name: string, structured: Record<string, unknown>): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text: summarize(name, structured) }] };
}

function unauthorized(): ScheduleError {
  return new ScheduleError('unauthorized', 'The token is missing, unknown, revoked or expired.', {});
}

/**
 * Checks the caller and counts the call in its rate-limit bucket (the same
 * bucket its HTTP requests use), unless its transport counted it already.
 * Answers the principal, or the error result.
 */
export async function admit(deps: McpDeps, caller: CallerSource): Promise<{ principal: Principal } | { refused: CallToolResult }> {
  const principal = await caller.principal();
  if (caller.counted) return principal ? { principal } : { refused: errorResult(unauthorized()) };
  const decision = await deps.rateLimiter.consume(bucketFor(principal, caller.address, deps.limits));
  if (!decision.allowed) {
    // A tool result has no Retry-After header, so the wait travels in details.
    const limited = rateLimitedError(decision);
    const details = { ...limited.details, retry_after_seconds: decision.retryAfterSeconds };
    return { refused: errorResult(new ScheduleError(limited.code, limited.message, details)) };
  }
  return principal ? { principal } : { refused: errorResult(unauthorized()) };
}

/**
 * Turns a tool's arguments into the call HTTP would have made: path, query
 * or body, and the two headers. An argument the tool does not take is
 * refused first (unknown-arguments.ts).
 */
export function rawCallOf(operation: Operation, args: Record<string, unknown>, newKey: () => string): RawCall {
  refuseUnknownArguments(operation, args);
  const { idempotency_key, if_match, ...fields } = args;
  const params = Object.fromEntries(operation.schemas.params.map((name) => [name, typeof fields[name] === 'string' ? fields[name] : '']));
  for (const name of operation.schemas.params) delete fields[name];
  if (idempotency_key !== undefined && typeof idempotency_key !== 'string') {
    throw new ScheduleError('validation_error', 'idempotency_key must be a string.', { fields: ['idempotency_key'] });
  }
  return {
    params,
    query: operation.method === 'GET' ? fields : {},
    body: operation.method === 'GET' || !operation.schemas.input ? undefined : fields,
    // A model that leaves the key out still gets a safe write: the key only lives for this call.
    idempotencyKey: operation.idempotencyKey === 'none' ? undefined : (idempotency_key ?? newKey()),
    ifMatch: if_match === undefined || if_match === null ? undefined : String(if_match),
  };
}

/**
 * Runs one API operation as a tool: the caller is admitted (auth, rate
 * limit), the arguments become the call HTTP would make, and core's
 * `execute` applies every rule exactly as for HTTP, with `source: "mcp"`.
 */
export async function callOperation(
  deps: McpDeps,
  caller: CallerSource,
  operation: Operation,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const requestId = deps.core.ids.uuid();
  try {
    const admitted = await admit(deps, caller);
    if ('refused' in admitted) return admitted.refused;
    const call: RawCall = { ...rawCallOf(operation, args, () => deps.core.ids.uuid()), source: 'mcp' };
    const { outcome } = await execute(deps.core, operation, admitted.principal, call, requestId);
    if (operation.schemas.list) {
      const { page } = outcome as ListOutcome;
      return successResult(operation.name, { data: outcome.data, next_cursor: page.nextCursor, has_more: page.hasMore });
    }
    return successResult(operation.name, outcome.data as Record<string, unknown>);
  } catch (error) {
    if (isScheduleError(error)) return errorResult(error);
    deps.logError(error, { tool: operation.name, request_id: requestId });
    return errorResult(
      new ScheduleError('internal_error', 'Something went wrong on our side; it has been logged.', { request_id: requestId }),
    );
  }
}
