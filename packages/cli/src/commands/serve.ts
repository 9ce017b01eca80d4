import type { IncomingMessage, ServerResponse } from 'node:http';
import { forResource, operations } from '@schedule/core';
import { buildApp, type ConnectionLimits, observeHandler, type RunningServer, trustedProxyHops } from '@schedule/http';
import { MCP_PATH, mcpHttpHandler } from '@schedule/mcp';
import { createOAuthServer, type OAuthServer, resourcesOf } from '@schedule/oauth';
import { type BookingPages, buildBookingPages } from '@schedule/page';
import { PUBLIC_DEMO_PASSWORD } from '../demo-tokens.js';
import { packageVersion } from '../package-version.js';
import { exitOnSignal, logUnhandledRejections, processHost, type Service, type ServiceHost, startService } from '../service.js';
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

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The front ends on one port: `/mcp` to the MCP server, the authorization
 * server's paths to it, the booking pages' (`/@…`, `/booking/…`) to them,
 * the rest to the HTTP API.
 */
export interface FrontEnds {
  readonly api: Handler;
  readonly mcp: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  readonly oauth?: OAuthServer | undefined;
  readonly pages?: BookingPages | undefined;
}

export function routeFrontEnds({ api, mcp, oauth, pages }: FrontEnds): Handler {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === MCP_PATH) void mcp(req, res);
    else if (oauth?.handles(path)) oauth.handler(req, res);
    else if (pages?.handles(path)) pages.handler(req, res);
    else api(req, res);
  };
}

/** Optional environment overrides of what one connection may cost (README, "Running the server"). */
export function connectionLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<ConnectionLimits> {
  const names: Record<keyof ConnectionLimits, string> = {
    headersTimeoutMs: 'HTTP_HEADERS_TIMEOUT_MS',
    requestTimeoutMs: 'HTTP_REQUEST_TIMEOUT_MS',
    keepAliveTimeoutMs: 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    maxConnections: 'HTTP_MAX_CONNECTIONS',
    maxHeaderBytes: 'HTTP_MAX_HEADER_BYTES',
  };
  return Object.fromEntries(
    Object.entries(names)
      .filter(([, name]) => env[name])
      .map(([key, name]) => [key, Number(env[name])]),
  );
}

/** A `schedule serve` listening. */
export interface Serving {
  readonly service: Service;
  /** The HTTP server, bound (its `url` has the port picked for port 0). */
  readonly http: RunningServer;
  /** Stops accepting, lets in-flight requests finish, then closes the service. */
  close(): Promise<void>;
}

/**
 * Everything `schedule serve` runs, listening: the service, and the HTTP API
 * with the MCP server at /mcp on one port. The command adds only its output
 * and signals, so a test that starts this in process (its own clock,
 * environment and log) runs the very server the binary runs.
 */
export async function startServing(options: ServeOptions, host: ServiceHost = processHost()): Promise<Serving> {
  // Checked before the database opens: a wrong flag costs nothing.
  const port = portOf(options.port, host.env);
  const trustProxy = trustedProxyHops(host.env.TRUST_PROXY);
  const service = await startService(options, host);
  // The front ends need the public URL (the OAuth issuer, the resources a
  // token is bound to), which with port 0 is known only once listening: a
  // request that comes in the moment before they are built waits for them.
  let built: (value: Handler) => void = () => {};
  const routed = new Promise<Handler>((resolve) => (built = resolve));
  const http = await listenOrExplain(
    (req, res) => void routed.then((route) => route(req, res)),
    {
      host: options.host ?? host.env.HOST ?? '127.0.0.1',
      port,
      limits: connectionLimitsFromEnv(host.env),
      requestIds: () => service.core.ids.uuid(),
    },
    () => service.close(),
  );
  try {
    const publicUrl = host.env.PUBLIC_URL || http.url;
    service.servePagesAt(publicUrl);
    built(routeFrontEnds(await buildFrontEnds(service, host, { publicUrl, trustProxy })));
  } catch (error) {
    await http.close();
    await service.close();
    throw error;
  }
  return {
    service,
    http,
    async close() {
      await http.close();
      await service.close();
    },
  };
}

/**
 * The HTTP API, the MCP server and the authorization server of one service,
 * at one public URL, each keying its per-address buckets through the same
 * trusted proxies.
 */
async function buildFrontEnds(
  service: Service,
  host: ServiceHost,
  { publicUrl, trustProxy }: { publicUrl: string; trustProxy: number },
): Promise<FrontEnds> {
  const resources = resourcesOf(publicUrl);
  const oauth = await createOAuthServer({
    store: service.store,
    clock: host.clock,
    ids: service.core.ids,
    rateLimiter: service.rateLimiter,
    limits: service.limits,
    logger: service.logger,
    publicUrl,
    trustProxy,
  });
  const api = buildApp({
    core: service.core,
    // An OAuth token is bound to the API or to /mcp (RFC 8707) and is valid only there.
    authenticate: forResource(service.authenticate, resources.api),
    operations,
    rateLimiter: service.rateLimiter,
    limits: service.limits,
    logger: service.logger,
    readiness: service.readiness,
    metrics: service.metrics,
    metricsToken: host.env.METRICS_TOKEN || undefined,
    resourceMetadataUrl: resources.apiMetadataUrl,
    trustProxy,
  });
  // /mcp is counted in the same metrics; a method other than POST is refused there, `unmatched` as in the app.
  const mcp = observeHandler(
    service.metrics,
    (req) => (req.method === 'POST' ? `POST ${MCP_PATH}` : 'unmatched'),
    mcpHttpHandler({
      ...mcpDepsOf(service),
      authenticate: forResource(service.authenticate, resources.mcp),
      resourceMetadataUrl: resources.mcpMetadataUrl,
      trustProxy,
    }),
  );
  const pages = buildBookingPages({
    core: service.core,
    operations,
    rateLimiter: service.rateLimiter,
    limits: service.limits,
    logger: service.logger,
    publicUrl,
    trustProxy,
    observe: (route, status, seconds) => service.metrics.observeRequest(route, status, seconds),
  });
  return { api, mcp, oauth, pages };
}

/** `schedule serve`: the HTTP API (and the MCP server at /mcp) on one database, until SIGTERM. */
export async function serve(options: ServeOptions, out: NodeJS.WritableStream): Promise<void> {
  const serving = await startServing(options);
  logUnhandledRejections(serving.service.logger);
  out.write(`schedule: listening on ${serving.http.url}\n`);
  if (options.demo) out.write(demoHint(serving.http.url));
  exitOnSignal(() => serving.close());
}

function demoHint(url: string): string {
  return [
    '',
    'Demo workspace loaded into an in-memory database: it starts fresh on every start, and its public',
    'tokens never reach your own database.',
    '',
    `Book a meeting with Alice as an invitee would, in your browser: ${url}/@alice/intro`,
    '',
    'Try the API with the demo token of Alice (owner):',
    '',
    `  curl -s -H 'Authorization: Bearer pat_demo_alice_0123456789' '${url}/v1/bookings?limit=3'`,
    '',
    `The MCP server is at ${url}${MCP_PATH} (same tokens). Other demo tokens: pat_demo_bob_0123456789 (manager), pat_demo_carol_0123456789 (user).`,
    '',
    `Or give an MCP client only ${url}${MCP_PATH}: it signs you in through the browser (OAuth). Sign in as alice, bob or carol`,
    `with the password ${PUBLIC_DEMO_PASSWORD}; ${url}/oauth/apps lists the apps you allowed. Ctrl-C stops the server.`,
    '',
  ].join('\n');
}
