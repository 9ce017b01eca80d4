import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { type ApiResponse, api } from './http.js';
import { SCHEDULE_BIN } from './serve.js';

// The SDK's own client driving the real binary, over stdio (a child process
// it spawns) or Streamable HTTP, and the two shapes a tool answer takes
// (README.md "The MCP server").

/** A tool answer as the client receives it. */
export interface ToolResult {
  readonly isError?: boolean;
  readonly structuredContent?: Record<string, unknown>;
  readonly content: readonly { type: string; text?: string }[];
}

export interface McpSession {
  readonly client: Client;
  /** Everything the client's `onerror` reported: a line on stdout that is not JSON-RPC lands here. */
  readonly errors: Error[];
  /** Calls a tool; arguments go as given. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface StdioSession extends McpSession {
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** Resolves once stderr holds a line that `test` accepts (no polling: each chunk is checked as it arrives). */
  stderrLine(test: (line: string) => boolean): Promise<string>;
}

function session(client: Client, errors: Error[], close: () => Promise<void>): McpSession {
  return {
    client,
    errors,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close,
  };
}

/**
 * Spawns `schedule mcp <args>` through the SDK's StdioClientTransport with
 * SCHEDULE_TOKEN set, and connects (the initialize handshake).
 */
export async function connectStdio(args: readonly string[], token: string, env: Record<string, string> = {}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SCHEDULE_BIN, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn', ...env, SCHEDULE_TOKEN: token },
    stderr: 'pipe',
  });
  let stderr = '';
  const waiting: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const check = () => {
    for (const w of [...waiting]) {
      const line = stderr.split('\n').find((l) => w.test(l));
      if (line !== undefined) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  transport.stderr!.on('data', (chunk) => {
    stderr += chunk;
    check();
  });
  const client = new Client({ name: 'blackbox-stdio', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    ...session(client, errors, () => client.close()),
    stderr: () => stderr,
    stderrLine: (test) =>
      new Promise((resolve) => {
        waiting.push({ test, resolve });
        check();
      }),
  };
}

/**
 * Connects to `<baseUrl>/mcp` over Streamable HTTP, every request carrying
 * `Authorization: Bearer <secret>`; `toolsets` asks for those (`/mcp?toolsets=`).
 */
export async function connectHttp(baseUrl: string, secret: string, toolsets?: string): Promise<McpSession> {
  const query = toolsets === undefined ? '' : `?toolsets=${encodeURIComponent(toolsets)}`;
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp${query}`), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
  const client = new Client({ name: 'blackbox-http', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return session(client, errors, () => client.close());
}

/** A successful call: no `isError`, one text item; returns `structuredContent` (the endpoint's `data`). */
export function toolData(result: ToolResult): any {
  if (result.isError) throw new Error(`expected success, got ${JSON.stringify(result.structuredContent)}`);
  expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
  expect(result.structuredContent).toBeTypeOf('object');
  return result.structuredContent;
}

/**
 * A failed call (docs/workspace.md): `isError: true`, `structuredContent` exactly
 * `{ error: { code, message, details } }` (no request_id), and the text
 * `error <code>: <message>` followed by the details as JSON when there are any.
 */
export function expectToolError(
  result: ToolResult,
  code: string,
  details: Record<string, unknown>,
  message?: string,
): { code: string; message: string; details: Record<string, unknown> } {
  const error = (result.structuredContent as { error?: { code?: string } } | undefined)?.error;
  if (result.isError !== true || error?.code !== code) {
    throw new Error(`expected error ${code}, got ${JSON.stringify(result)}`);
  }
  const { error: found } = result.structuredContent as { error: { code: string; message: string; details: Record<string, unknown> } };
  expect(Object.keys(result.structuredContent!)).toEqual(['error']);
  expect(Object.keys(found).sort()).toEqual(['code', 'details', 'message']);
  expect(found.details).toEqual(details);
  expect(typeof found.message).toBe('string');
  expect(found.message.length).toBeGreaterThan(0);
  if (message !== undefined) expect(found.message).toBe(message);
  const suffix = Object.keys(details).length > 0 ? ` ${JSON.stringify(found.details)}` : '';
  expect(result.content).toEqual([{ type: 'text', text: `error ${code}: ${found.message}${suffix}` }]);
  return found;
}

/** The tools a connection lists before it asks for more (docs/mcp.md "Toolsets"): booking, manage and the toolsets tool, sorted. */
export const TOOL_NAMES = ['book_time', 'cancel_booking', 'find_times', 'list_bookings', 'reschedule_booking', 'toolsets'] as const;

/** An `initialize` request, as the first POST of any Streamable HTTP session. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'blackbox-raw', version: '1.0.0' } },
} as const;

/**
 * POSTs one JSON-RPC message to `<baseUrl><path>` with the headers a
 * Streamable HTTP client sends, plus `headers`. The server may be
 * `schedule mcp --http`, which is not the HTTP API.
 */
export function postMcp(
  baseUrl: string,
  headers: Record<string, string>,
  message: unknown = INITIALIZE,
  path = '/mcp',
): Promise<ApiResponse> {
  return api(baseUrl, path, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', ...headers },
    json: message,
    apiServer: false,
  });
}

/**
 * The answer to a request without a valid bearer token (docs/workspace.md:
 * exactly as the HTTP API): 401, the `WWW-Authenticate` challenge given,
 * and the common error envelope with code `unauthorized`.
 */
export function expectMcpUnauthorized(res: ApiResponse, challenge: string): void {
  if (res.status !== 401) throw new Error(`expected 401, got ${res.status}: ${res.text}`);
  expect(res.headers.get('www-authenticate')).toBe(challenge);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    error: { code: 'unauthorized', message: expect.any(String), details: {}, request_id: expect.stringMatching(UUID_RE) },
  });
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
