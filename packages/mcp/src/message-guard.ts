import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ClientRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { inPlainWords } from '@schedule/core';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The SDK's schema of each request a client may send, by method. */
const REQUEST_SCHEMAS = new Map(ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema]));

/**
 * Where a request fails the SDK's own schema of its method, said as the
 * first failed rule in plain words (core's `inPlainWords`): the SDK would
 * parse it inside its handler and answer `-32603 Internal error` with the
 * validator's dump. Tool arguments are not judged here: a tool's input is
 * validated by the tool, which answers a tool error a model can act on
 * (MCP 2025-11-25, SEP-1303).
 */
function schemaProblem(message: JSONRPCMessage & { method: string }): string | undefined {
  const result = REQUEST_SCHEMAS.get(message.method)?.safeParse(message, { error: inPlainWords });
  const issue = result?.success === false ? result.error.issues[0] : undefined;
  return issue && `${issue.path.map(String).join('.')} ${issue.message}.`;
}

/**
 * Why a request's params cannot be a call of this server, in words a client
 * can act on, or undefined. The SDK would otherwise answer such a request
 * with its schema validator's raw dump as the message.
 */
function paramsProblem(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const { params } = message as { params?: unknown };
  if (params !== undefined && !isPlainObject(params)) return 'params must be an object.';
  if (message.method === 'tools/call' && isPlainObject(params)) {
    if (typeof params.name !== 'string') return 'params.name must be the name of a tool (a string).';
    if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
      return `params.arguments must be an object of ${params.name}'s arguments, not ${Array.isArray(params.arguments) ? 'an array' : typeof params.arguments === 'object' ? 'null' : `a ${typeof params.arguments}`}.`;
    }
  }
  return schemaProblem(message);
}

/**
 * Answers a request whose params are malformed with JSON-RPC's own
 * `-32602 Invalid params` naming the problem, before the server sees it
 * (the MCP spec's protocol error for a request that fails its schema).
 * Call after `server.connect(transport)`, which installs the handler wrapped here.
 */
export function guardMessages(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('guardMessages: connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    const problem = paramsProblem(message);
    if (problem === undefined || !isJSONRPCRequest(message)) return deliver(message, extra);
    const refusal: JSONRPCErrorResponse = {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` },
    };
    void transport.send(refusal, { relatedRequestId: message.id }).catch(() => {});
  };
}
