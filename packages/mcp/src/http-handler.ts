import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Authenticator } from '@schedule/core';
import { buildServer } from './build-server.js';
import type { McpDeps } from './call-tool.js';

/** The path the Streamable HTTP endpoint answers at (workspace.md). */
export const MCP_PATH = '/mcp';

function bearerSecret(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m?.[1];
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
    const secret = bearerSecret(req.headers.authorization);
    const principal = secret === undefined ? undefined : await deps.authenticate(secret);
    if (!principal) {
      const requestId = deps.core.ids.uuid();
      res.writeHead(401, {
        'Content-Type': 'application/json',
        'WWW-Authenticate': 'Bearer realm="schedule"',
        'X-Request-Id': requestId,
      });
      res.end(
        JSON.stringify({
          error: { code: 'unauthorized', message: 'A valid bearer token is required.', details: {}, request_id: requestId },
        }),
      );
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
