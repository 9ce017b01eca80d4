import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type Authenticator, isScheduleError, ScheduleError } from '@schedule/core';
import {
  admitRequest,
  bearerChallenge,
  CLIENT_CLOSED_STATUS,
  checkJsonContentType,
  clientAddress,
  closedByClient,
  lingerAfterRefusal,
  readJsonBody,
  sendError,
} from '@schedule/http';
import { buildServer } from './build-server.js';
import type { McpDeps } from './call-tool.js';
import { guardMessages } from './message-guard.js';
import { sessionStore } from './sessions.js';
import { parseToolsets, type ToolsetName } from './toolsets.js';

/** The path the Streamable HTTP endpoint answers at (docs/workspace.md). */
export const MCP_PATH = '/mcp';

/** For `schedule mcp --http`: only /mcp is served; anything else is `404 not_found` in the common envelope. */
export function onlyMcpPath(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>, ids: { uuid(): string }) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if ((req.url ?? '/').split('?')[0] === MCP_PATH) void handler(req, res);
    else {
      const requestId = ids.uuid();
      res.setHeader('X-Request-Id', requestId);
      sendError(res, new ScheduleError('not_found', 'No such path; the MCP endpoint is /mcp.'), requestId);
    }
  };
}

/**
 * `/mcp?toolsets=series,webhooks`: the toolsets a client asked for, in its
 * URL because that is what every client's configuration can carry (the
 * server is stateless, so every request says it again). The parameter given
 * twice counts as one list.
 */
function toolsetsAsked(req: IncomingMessage): string | undefined {
  const asked = new URL(req.url ?? '/', 'http://mcp.invalid').searchParams.getAll('toolsets');
  return asked.length === 0 ? undefined : asked.join(',');
}

const isMessage = (body: unknown, method: string): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === method;

/** An initialize request: where a connection begins. */
function isInitialize(body: unknown): boolean {
  return isMessage(body, 'initialize');
}

/** A call of the `toolsets` tool. */
function callsToolsets(body: unknown): boolean {
  return isMessage(body, 'tools/call') && (body as { params?: { name?: unknown } }).params?.name === 'toolsets';
}

/**
 * The MCP server over Streamable HTTP, as a node:http handler for `/mcp`.
 * Every request is counted in the rate limiter first, as on the HTTP API:
 * the token's bucket, or the anonymous bucket of the client address when the
 * token is missing or not valid (so guessing tokens is limited), with the
 * `X-RateLimit-*` headers. Then it needs its bearer token (`401` with
 * `WWW-Authenticate`), a JSON body of at most 1 MiB, and gets its own
 * server bound to its caller: stateless, so no session outlives a token and
 * any process behind a balancer can answer.
 *
 * The returned promise never rejects: a failure is answered (503 when the
 * database is away, 500 otherwise), never left to end the process.
 */
export function mcpHttpHandler(
  deps: McpDeps & {
    authenticate: Authenticator;
    /** Where `/mcp`'s protected resource metadata is (RFC 9728): named in the 401 so an MCP client can start OAuth by itself. */
    resourceMetadataUrl?: string | undefined;
    /** How many proxies to trust with `X-Forwarded-For` (TRUST_PROXY), as on the HTTP API. */
    trustProxy?: number | undefined;
  },
) {
  const sessions = sessionStore(deps.core.store.db, deps.core.clock, deps.core.ids);

  /**
   * The connection's toolsets: those its session switched on (a session of
   * this token), with those its URL asks for. An initialize opens a session
   * whose id the answer carries (`Mcp-Session-Id`), for the client to send
   * on every later request.
   */
  async function sessionOf(req: IncomingMessage, body: unknown, tokenId: string, asked: readonly ToolsetName[]) {
    const sent = req.headers['mcp-session-id'];
    const id = typeof sent === 'string' && sent.length <= 64 ? sent : undefined;
    const kept = id === undefined ? undefined : await sessions.toolsets(id, tokenId);
    if (kept !== undefined) return { id, opened: false, toolsets: [...new Set([...asked, ...kept])] };
    if (isInitialize(body)) return { id: await sessions.open(tokenId, asked), opened: true, toolsets: asked };
    return { id: undefined, opened: false, toolsets: asked };
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { principal, sentToken } = await admitRequest(deps, req, res);
    // Stateless: there is no session to stream to (GET) or to end (DELETE).
    // Answering them 405 is what the MCP spec asks of such a server, and it
    // keeps no response open that would hold a shutdown.
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new ScheduleError('method_not_allowed', 'The MCP endpoint takes POST only (stateless Streamable HTTP).', { allow: ['POST'] });
    }
    if (!principal) {
      const error = new ScheduleError('unauthorized', 'A valid bearer token is required.');
      res.setHeader('WWW-Authenticate', bearerChallenge(error, { resourceMetadataUrl: deps.resourceMetadataUrl, sentToken }) ?? '');
      throw error;
    }
    const asked = parseToolsets(toolsetsAsked(req));
    checkJsonContentType(req);
    const body = await readJsonBody(req);
    const session = await sessionOf(req, body, principal.tokenId, asked);
    if (session.opened && session.id !== undefined) res.setHeader('Mcp-Session-Id', session.id);

    // This request was counted above; its tool calls and resource reads are not counted again.
    const server = buildServer(
      deps,
      { principal: async () => principal, address: clientAddress(req, deps.trustProxy ?? 0), counted: true },
      {
        toolsets: session.toolsets,
        scopes: principal.scopes,
        keepToolsets: async (toolsets) => {
          if (session.id === undefined) return false;
          await sessions.save(session.id, principal.tokenId, toolsets);
          return true;
        },
      },
    );
    // A call of `toolsets` answers as a stream, so that the list_changed it sends reaches the client with the answer.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !callsToolsets(body) });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    guardMessages(transport);
    await transport.handleRequest(req, res, body);
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = deps.core.ids.uuid();
    res.setHeader('X-Request-Id', requestId);
    try {
      await serve(req, res);
    } catch (error) {
      if (closedByClient(req, error)) {
        // Nobody is left to answer: no fault to log, and the status kept for the metrics says so.
        res.statusCode = CLIENT_CLOSED_STATUS;
        res.destroy();
        return;
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (isScheduleError(error)) {
        if (!req.complete) lingerAfterRefusal(req);
        sendError(res, error, requestId);
        return;
      }
      deps.logError(error, { request_id: requestId, route: `POST ${MCP_PATH}` });
      sendError(res, new ScheduleError('internal_error', 'An unexpected error occurred; it has been logged.'), requestId);
    }
  };
}
