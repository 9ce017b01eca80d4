import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type Authenticator, bearerSecret } from '@schedule/core';
import { buildServer } from './build-server.js';
import type { McpDeps } from './call-tool.js';

/** The path the Streamable HTTP endpoint answers at (workspace.md). */
export const MCP_PATH = '/mcp';

function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...headers });
  res.end(JSON.stringify({ error: { code, message, details: {}, request_id: requestId } }));
}

/** For `schedule mcp --http`: only /mcp is served; anything else is `404 not_found` in the common envelope. */
export function onlyMcpPath(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>, ids: { uuid(): string }) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if ((req.url ?? '/').split('?')[0] === MCP_PATH) void handler(req, res);
    else sendError(res, 404, 'not_found', 'No such path; the MCP endpoint is /mcp.', ids.uuid());
  };
}

/**
 * The MCP server over Streamable HTTP, as a node:http handler for `/mcp`.
 * Every request carries its bearer token, exactly as the HTTP API does
 * (workspace.md): without a valid one it is `401` with `WWW-Authenticate`.
 * Stateless: each request gets its own server bound to its caller, so no
 * session outlives a token and any process behind a balancer can answer.
 */
export function mcpHttpHandler(deps: McpDeps & { authenticate: Authenticator }) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Stateless: there is no session to stream to (GET) or to end (DELETE).
    // Answering them 405 is what the MCP spec asks of such a server, and it
    // keeps no response open that would hold a shutdown.
    if (req.method !== 'POST') {
      sendError(res, 405, 'method_not_allowed', 'The MCP endpoint takes POST only (stateless Streamable HTTP).', deps.core.ids.uuid(), {
        Allow: 'POST',
      });
      return;
    }
    const secret = bearerSecret(req.headers.authorization);
    const principal = secret ? await deps.authenticate(secret) : undefined;
    if (!principal) {
      sendError(res, 401, 'unauthorized', 'A valid bearer token is required.', deps.core.ids.uuid(), {
        'WWW-Authenticate': 'Bearer realm="schedule"',
      });
      return;
    }
    const server = buildServer(deps, { principal: async () => principal, address: req.socket.remoteAddress ?? 'unknown' });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}
