import type { IncomingMessage, ServerResponse } from 'node:http';
import { operations } from '@schedule/core';
import { buildApp, type ConnectionLimits, observeHandler } from '@schedule/http';
import { MCP_PATH, mcpHttpHandler } from '@schedule/mcp';
import { packageVersion } from '../package-version.js';
import { exitOnSignal, type Service, startService } from '../service.js';
import { listenOrExplain, portOf } from './listen-port.js';

export interface ServeOptions {
  workspace?: string;
  db?: string;
  port?: string;
  host?: string;
  demo?: boolean;
}

/** The MCP server's deps on a running service. */
export function mcpDepsOf(service: Service) {
  return {
    core: service.core,
    authenticate: service.authenticate,
    rateLimiter: service.rateLimiter,
    limits: service.limits,
    version: packageVersion(),
    logError: (error: unknown, context: Record<string, unknown>) => service.logger.error({ ...context, err: error }, 'tool failed'),
  };
}

/** `/mcp` goes to the MCP server; everything else to the HTTP API. */
export function routeMcp(
  mcp: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  api: (req: IncomingMessage, res: ServerResponse) => void,
) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === MCP_PATH) void mcp(req, res);
    else api(req, res);
  };
}

/** Optional environment overrides of what one connection may cost (README, "Running the server"). */
export function connectionLimitsFromEnv(): Partial<ConnectionLimits> {
  const names: Record<keyof ConnectionLimits, string> = {
    headersTimeoutMs: 'HTTP_HEADERS_TIMEOUT_MS',
    requestTimeoutMs: 'HTTP_REQUEST_TIMEOUT_MS',
    keepAliveTimeoutMs: 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    maxConnections: 'HTTP_MAX_CONNECTIONS',
    maxHeaderBytes: 'HTTP_MAX_HEADER_BYTES',
  };
  return Object.fromEntries(
    Object.entries(names)
      .filter(([, env]) => process.env[env])
      .map(([key, env]) => [key, Number(process.env[env])]),
  );
}

/** `schedule serve`: the HTTP API (and the MCP server at /mcp) on one database, until SIGTERM. */
export async function serve(options: ServeOptions, out: NodeJS.WritableStream): Promise<void> {
  // Checked before the database opens: a wrong flag costs nothing.
  const port = portOf(options.port);
  const service = await startService(options);
  const api = buildApp({
    core: service.core,
    authenticate: service.authenticate,
    operations,
    rateLimiter: service.rateLimiter,
    limits: service.limits,
    logger: service.logger,
    readiness: service.readiness,
    metrics: service.metrics,
    metricsToken: process.env.METRICS_TOKEN || undefined,
  });
  // /mcp is counted in the same metrics; a method other than POST is refused there, `unmatched` as in the app.
  const mcp = observeHandler(
    service.metrics,
    (req) => (req.method === 'POST' ? `POST ${MCP_PATH}` : 'unmatched'),
    mcpHttpHandler(mcpDepsOf(service)),
  );
  const running = await listenOrExplain(
    routeMcp(mcp, api),
    {
      host: options.host ?? process.env.HOST ?? '127.0.0.1',
      port,
      limits: connectionLimitsFromEnv(),
      requestIds: () => service.core.ids.uuid(),
    },
    () => service.close(),
  );
  out.write(`schedule: listening on ${running.url}\n`);
  if (options.demo) out.write(demoHint(running.url));
  exitOnSignal(async () => {
    await running.close();
    await service.close();
  });
}

function demoHint(url: string): string {
  return [
    '',
    'Demo workspace loaded into an in-memory database: it starts fresh on every start, and its public',
    'tokens never reach your own database. Try it with the demo token of Alice (owner):',
    '',
    `  curl -s -H 'Authorization: Bearer pat_demo_alice_0123456789' '${url}/v1/bookings?limit=3'`,
    '',
    `The MCP server is at ${url}${MCP_PATH} (same tokens). Other demo tokens: pat_demo_bob_0123456789 (manager), pat_demo_carol_0123456789 (user). Ctrl-C stops the server.`,
    '',
  ].join('\n');
}
