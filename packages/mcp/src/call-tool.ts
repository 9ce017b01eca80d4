import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  admit,
  type CallerSource,
  type ExecuteDeps,
  execute,
  hostZones,
  isScheduleError,
  type Limits,
  type Operation,
  type Principal,
  type RateLimiter,
  type RawCall,
  ScheduleError,
} from '@schedule/core';
import { type Confirmer, DESTRUCTIVE } from './confirm.js';
import { hostIdsOf, summarize } from './summarize.js';
import { TOOL_WORDS } from './tool-words.js';
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

/**
 * How a tool call finds its caller: a fixed token (stdio) or the bearer of
 * the HTTP request, and the client address for the anonymous bucket.
 */
export interface ToolCaller extends CallerSource {
  /**
   * True when the transport has already counted the request this call came
   * in (Streamable HTTP counts every request, before authentication); stdio
   * counts each call here instead.
   */
  readonly counted?: boolean | undefined;
}

/** A failed call (docs/workspace.md): `isError`, and the API's error as `structuredContent`, in the words of tool arguments. */
export function errorResult(error: ScheduleError): CallToolResult {
  const { code, message, details } = error.shownIn(TOOL_WORDS);
  // A tool result has no Retry-After header, so a rate limit's wait travels in details.
  const shown = code === 'rate_limited' ? { ...details, retry_after_seconds: error.retryAfterSeconds } : details;
  return {
    isError: true,
    structuredContent: { error: { code, message, details: shown } },
    content: [
      {
        type: 'text',
        text: `error ${code}: ${message}${Object.keys(shown).length > 0 ? ` ${JSON.stringify(shown)}` : ''}`,
      },
    ],
  };
}

/**
 * A successful call: `structuredContent` is the endpoint's `data`, and a
 * short text a model can read, its times in the zones of those who meet
 * (the caller's, and the hosts' of its bookings, read here).
 */
export async function successResult(
  deps: McpDeps,
  principal: Principal,
  name: string,
  structured: Record<string, unknown>,
): Promise<CallToolResult> {
  const hosts = await hostZones(deps.core.store.db, hostIdsOf(structured));
  const text = summarize(name, structured, { caller: principal.account.timezone, hosts });
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

/**
 * A destructive tool goes ahead only once the user agreed: asked through
 * the client, or, where it cannot ask, said by `confirm: true`. Answers the
 * refusal to show, or undefined to go ahead.
 */
async function refusalUnconfirmed(operation: Operation, args: Record<string, unknown>, confirm: Confirmer | undefined) {
  if (!DESTRUCTIVE.has(operation.name as never) || args.confirm === true) return undefined;
  const target = args.uid ?? args.id ?? args.user_id ?? args.token_id;
  const asked = confirm ? await confirm(`${operation.name.replaceAll('_', ' ')} ${String(target ?? '')}: are you sure?`) : 'cannot_ask';
  if (asked === 'confirmed') return undefined;
  if (asked === 'declined') {
    return new ScheduleError('validation_error', 'The user did not confirm; nothing was done.', { fields: ['confirm'], declined: true });
  }
  return new ScheduleError('validation_error', `${operation.name} cannot be undone: ask the user, then call it again with confirm: true.`, {
    fields: ['confirm'],
  });
}

function unauthorized(): ScheduleError {
  return new ScheduleError('unauthorized', 'The token is missing, unknown, revoked or expired.', {});
}

/**
 * Checks the caller and, unless its transport counted it already, counts the
 * call by core's `admit` in the bucket its HTTP requests use. Answers the
 * principal, or the error to show; a failed token lookup is thrown.
 */
export async function admitCall(deps: McpDeps, caller: ToolCaller): Promise<{ principal: Principal } | { error: ScheduleError }> {
  if (caller.counted) {
    const principal = await caller.principal();
    return principal ? { principal } : { error: unauthorized() };
  }
  const admission = await admit(deps, caller);
  switch (admission.kind) {
    case 'rate_limited':
      return { error: admission.error };
    case 'lookup_failed':
      throw admission.cause;
    case 'admitted':
      return admission.principal ? { principal: admission.principal } : { error: unauthorized() };
  }
}

/**
 * The path parameters among a tool's arguments. One left out stays out, and
 * core's `execute` names it as missing; one that is not text is refused here.
 */
function pathArguments(operation: Operation, fields: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of operation.schemas.params) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new ScheduleError('validation_error', `${name}: must be a string.`, { fields: [name] });
    params[name] = value;
  }
  return params;
}

/**
 * Turns a tool's arguments into the call HTTP would have made: path, query
 * or body, and the two headers. An argument the tool does not take is
 * refused first (unknown-arguments.ts).
 */
export function rawCallOf(operation: Operation, args: Record<string, unknown>, newKey: () => string): RawCall {
  refuseUnknownArguments(operation, args);
  const { idempotency_key, if_match, confirm: _, ...fields } = args;
  const params = pathArguments(operation, fields);
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
  caller: ToolCaller,
  operation: Operation,
  args: Record<string, unknown>,
  confirm?: Confirmer,
): Promise<CallToolResult> {
  const requestId = deps.core.ids.uuid();
  try {
    const admitted = await admitCall(deps, caller);
    if ('error' in admitted) return errorResult(admitted.error);
    const call: RawCall = { ...rawCallOf(operation, args, () => deps.core.ids.uuid()), source: 'mcp' };
    // The user is asked about a call that is whole: execute checks it first.
    const confirmed = async () => {
      const unconfirmed = await refusalUnconfirmed(operation, args, confirm);
      if (unconfirmed) throw unconfirmed;
    };
    const { outcome } = await execute(deps.core, operation, admitted.principal, call, requestId, confirmed);
    const data = outcome.page
      ? { data: outcome.data, next_cursor: outcome.page.nextCursor, has_more: outcome.page.hasMore }
      : (outcome.data as Record<string, unknown>);
    return await successResult(deps, admitted.principal, operation.name, data);
  } catch (error) {
    if (isScheduleError(error)) return errorResult(error);
    deps.logError(error, { tool: operation.name, request_id: requestId });
    return errorResult(
      new ScheduleError('internal_error', 'Something went wrong on our side; it has been logged.', { request_id: requestId }),
    );
  }
}
