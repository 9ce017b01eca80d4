import type { IncomingMessage, ServerResponse } from 'node:http';
import { forResource, operations } from '@schedule/core';
import { buildApp, type ConnectionLimits, observeHandler, type RunningServer, trustedProxyHops } from '@schedule/http';
import { MCP_PATH, mcpHttpHandler, onlyMcpPath } from '@schedule/mcp';
import {
  createOAuthServer,
  loopbackAliasesOf,
  MCP_METADATA_PATH,
  mcpResourceAt,
  type OAuthServer,
  originReached,
  type Resources,
} from '@schedule/oauth';
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

type Handler<Result = void> = (req: IncomingMessage, res: ServerResponse) => Result;

/**
 * The front ends on one port: `/mcp` to the MCP server, the authorization
 * server's paths to it, the booking pages' (`/@…`, `/booking/…`) to them,
 * the rest to the HTTP API.
 */
export interface FrontEnds {
  readonly api: Handler;
  readonly mcp: Handler<Promise<void>>;
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

/**
 * Which front ends a server runs: `schedule serve` all of them;
 * `schedule mcp --http` only /mcp and the authorization server that issues
 * its tokens (every other path is 404 in the error envelope).
 */
export type FrontEndSet = 'all' | 'mcp';

/** A `schedule serve` (or `schedule mcp --http`) listening. */
export interface Serving {
  readonly service: Service;
  /** The HTTP server, bound (its `url` has the port picked for port 0). */
  readonly http: RunningServer;
  /** Stops accepting, lets in-flight requests finish, then closes the service. */
  close(): Promise<void>;
}

/**
 * Everything `schedule serve` runs, listening: the service, and the HTTP API
 * with the MCP server at /mcp on one port; with `frontEnds` 'mcp', what
 * `schedule mcp --http` runs. The command adds only its output and signals,
 * so a test that starts this in process (its own clock, environment and
 * log) runs the very server the binary runs.
 */
export async function startServing(
  options: ServeOptions,
  host: ServiceHost = processHost(),
  frontEnds: FrontEndSet = 'all',
): Promise<Serving> {
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
    // Without PUBLIC_URL, a loopback server is reached as 127.0.0.1 and as localhost alike (resources.ts).
    const aliases = host.env.PUBLIC_URL ? [] : loopbackAliasesOf(http.url);
    if (!host.env.PUBLIC_URL && aliases.length === 0) service.logger.warn({ url: http.url }, publicUrlAdvice(http.url));
    // The booking pages' links in mail point here only where the pages are served.
    if (frontEnds === 'all') service.servePagesAt(publicUrl);
    built(routeFrontEnds(await buildFrontEnds(service, host, { publicUrl, aliases, trustProxy, frontEnds })));
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
 * Said at start when the server names itself by an address no client can be
 * sure to use (0.0.0.0, a LAN address): an OAuth client checks that the
 * resource it is told is the URL it was given, and only loopback names are
 * safe to take from a request's Host (resources.ts), so PUBLIC_URL must say.
 */
function publicUrlAdvice(listening: string): string {
  const { port } = new URL(listening);
  return `PUBLIC_URL is not set, so the OAuth issuer and /mcp's resource are ${listening}: an MCP client given any other URL cannot sign in. Set PUBLIC_URL to the origin clients use, e.g. PUBLIC_URL=http://schedule.example.com:${port}.`;
}

/**
 * The HTTP API, the MCP server and the authorization server of one service,
 * at one public URL, each keying its per-address buckets through the same
 * trusted proxies; with `frontEnds` 'mcp', the MCP server and the
 * authorization server alone.
 */
async function buildFrontEnds(
  service: Service,
  host: ServiceHost,
  {
    publicUrl,
    aliases,
    trustProxy,
    frontEnds,
  }: { publicUrl: string; aliases: readonly string[]; trustProxy: number; frontEnds: FrontEndSet },
): Promise<FrontEnds> {
  const oauth = await createOAuthServer({
    store: service.store,
    clock: host.clock,
    ids: service.core.ids,
    rateLimiter: service.rateLimiter,
    limits: service.limits,
    logger: service.logger,
    publicUrl,
    aliases,
    servesApi: frontEnds === 'all',
    trustProxy,
  });
  const { resources } = oauth;
  // /mcp is counted in the same metrics; a method other than POST is refused there, `unmatched` as in the app.
  const mcp = observeHandler(
    service.metrics,
    (req) => (req.method === 'POST' ? `POST ${MCP_PATH}` : 'unmatched'),
    mcpAtEachOrigin(service, resources, trustProxy),
  );
  // Reached only by paths that are neither /mcp nor the authorization server's: 404 not_found.
  if (frontEnds === 'mcp') return { api: onlyMcpPath(mcp, service.core.ids), mcp, oauth };
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

/**
 * The MCP server at /mcp, as a resource at the origin each request reached
 * (the public one, or a loopback alias): an OAuth token is accepted only
 * when bound to that origin's /mcp (RFC 8707), and a 401 names that
 * origin's metadata, whose `resource` is the URL the client was given.
 */
function mcpAtEachOrigin(service: Service, resources: Resources, trustProxy: number): Handler<Promise<void>> {
  const at = (origin: string) =>
    mcpHttpHandler({
      ...mcpDepsOf(service),
      authenticate: forResource(service.authenticate, mcpResourceAt(origin)),
      resourceMetadataUrl: `${origin}${MCP_METADATA_PATH}`,
      trustProxy,
    });
  const main = at(resources.issuer);
  const aliased = new Map(resources.aliases.map((origin) => [origin, at(origin)]));
  return (req, res) => (aliased.get(originReached(resources, req.headers.host)) ?? main)(req, res);
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
