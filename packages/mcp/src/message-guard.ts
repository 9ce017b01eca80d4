import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, isJSONRPCRequest, type JSONRPCErrorResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why a request's params cannot be a call of this server, in words a client
 * can act on, or undefined. The SDK would otherwise answer such a request
 * with its schema validator's raw dump as the message.
 */
function paramsProblem(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const { params } = message as { params?: unknown };
  if (params === undefined) return undefined;
  if (!isPlainObject(params)) return 'params must be an object.';
  if (message.method !== 'tools/call') return undefined;
  if (typeof params.name !== 'string') return 'params.name must be the name of a tool (a string).';
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    return `params.arguments must be an object of ${params.name}'s arguments, not ${Array.isArray(params.arguments) ? 'an array' : typeof params.arguments === 'object' ? 'null' : `a ${typeof params.arguments}`}.`;
  }
  return undefined;
}

/**
 * Answers a request whose params are malformed with JSON-RPC's own
 * `-32602 Invalid params` naming the problem, before the server sees it.
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
