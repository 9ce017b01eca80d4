import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type Clock,
  conferenceLinksAt,
  createAuthenticator,
  createCalendarReader,
  createRateLimiter,
  DEFAULT_LIMITS,
  type ExecuteDeps,
  type Limits,
  loadWorkspace,
  openStore,
  parseWorkspace,
  randomIds,
  type Store,
} from '@schedule/core';
import { buildServer, type McpDeps, parseToolsets, type ToolsetName } from '../../src/index.js';

/** A store loaded with a workspace, and MCP deps over it. */
export interface McpWorld {
  readonly store: Store;
  readonly deps: McpDeps;
  readonly core: ExecuteDeps;
  readonly errors: unknown[];
  /** A connected SDK client acting as the token with this secret. */
  /** A client of `buildServer`; `toolsets` as a connection asks for them (every toolset if omitted: the suites test the tools, tool-budgets.test.ts the default). */
  connect(secret: string, toolsets?: readonly ToolsetName[]): Promise<Client>;
  close(): Promise<void>;
}

/**
 * Opens a store (`:memory:` SQLite unless a URL is given), loads the
 * workspace, and links SDK clients to `buildServer` through in-memory
 * transports, as the MCP SDK's own examples test servers.
 */
export async function openMcpWorld(
  workspace: unknown,
  options: { clock: Clock; db?: string; limits?: Limits; overrides?: Partial<ExecuteDeps> },
): Promise<McpWorld> {
  const store = await openStore(options.db ?? ':memory:');
  await loadWorkspace({ store, clock: options.clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
  const core: ExecuteDeps = {
    store,
    clock: options.clock,
    ids: randomIds,
    idempotencyLeaseMs: 30_000,
    calendars: createCalendarReader(async () => []),
    conferenceLinks: conferenceLinksAt('https://meet.test'),
    ...options.overrides,
  };
  const errors: unknown[] = [];
  const deps: McpDeps = {
    core,
    rateLimiter: createRateLimiter({ clock: options.clock }),
    limits: options.limits ?? DEFAULT_LIMITS,
    logError: (error) => errors.push(error),
  };
  const authenticate = createAuthenticator({ store, clock: options.clock }, { cacheTtlMs: 0 });
  const clients: Client[] = [];
  return {
    store,
    deps,
    core,
    errors,
    async connect(secret, toolsets) {
      const server = buildServer(
        deps,
        { principal: () => authenticate(secret), address: 'in-memory' },
        { toolsets: toolsets ?? parseToolsets('all') },
      );
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'test', version: '1.0.0' });
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await store.close();
    },
  };
}
