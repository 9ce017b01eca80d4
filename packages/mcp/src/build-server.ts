import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeCaller, listEventTypes, listPeople, operations, type Principal, type Scope } from '@schedule/core';
import { admitCall, callOperation, type McpDeps, type ToolCaller } from './call-tool.js';
import { confirmerOf } from './confirm.js';
import { registerPrompts } from './prompts.js';
import { TOOL_DOCS } from './tool-docs.js';
import { answerToolsList, type ListedTool } from './tool-list.js';
import { toolSchemasOf } from './tool-schemas.js';
import { TOOL_WORDS } from './tool-words.js';
import { DEFAULT_TOOLSETS, TOOLSET_OF, type ToolsetName } from './toolsets.js';
import { registerToolsetsTool } from './toolsets-tool.js';

/** What a model is told about this server when it connects. */
export const INSTRUCTIONS = [
  "schedule books meetings on people's calendars. Every tool acts as the token's user, with its scopes, and sees only the people that user may act for.",
  "To book: find_times (who, what, the attendee's days, part of day and zone) answers a few options, each held for 10 minutes and shown in both zones; book_time books one by its option_id. Read times to people as the tools write them, with their zone.",
  'More tools come in toolsets (series, availability, time_off, webhooks, ...): the toolsets tool lists them and switches them on.',
  'Writes take an idempotency_key: reuse it to retry safely. Updates take if_match: the version you read. An argument a tool does not take is refused, not ignored. Destructive tools need confirm: true once the user agreed, unless the client asks them.',
  'Errors come back with isError and structuredContent { error: { code, message, details } }, the code for example slot_unavailable, version_conflict; read the message and act on it.',
  'Lists return one page; pass next_cursor back as cursor while has_more is true. Times are ISO 8601, answered in UTC; a time you send must carry Z or an offset (2026-12-09T11:00:00+01:00).',
].join(' ');

/** How a connection's server is built: its toolsets, its token's scopes, and where switched-on toolsets are kept. */
export interface ServerOptions {
  /** The toolsets listed from the start; `DEFAULT_TOOLSETS` if absent. */
  readonly toolsets?: readonly ToolsetName[] | undefined;
  /** The token's scopes: a tool it may not call is never registered. Absent: every tool (docs, tests of the whole surface). */
  readonly scopes?: ReadonlySet<Scope> | undefined;
  /**
   * Keeps the toolsets the `toolsets` tool switched on for the connection's
   * next requests (Streamable HTTP: its session); answers false when the
   * connection has nowhere to keep them. Absent: this server lives as long as
   * the connection (stdio, in-memory), so nothing needs keeping.
   */
  readonly keepToolsets?: ((toolsets: readonly ToolsetName[]) => Promise<boolean>) | undefined;
}

/**
 * The MCP server: one tool per API endpoint (docs/mcp.md names them), those
 * of the connection's toolsets listed and the rest switched on by the
 * `toolsets` tool, never one its token's scopes cannot call; the directory
 * as resources, and two prompts. Transports only choose how it is reached;
 * `caller` says who is calling.
 */
export function buildServer(deps: McpDeps, caller: ToolCaller, options: ServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'schedule', title: 'schedule', version: deps.version ?? 'dev' }, { instructions: INSTRUCTIONS });
  const on = new Set(options.toolsets ?? DEFAULT_TOOLSETS);
  const confirm = confirmerOf(server);
  const listed: ListedTool[] = [];

  for (const operation of operations) {
    if (options.scopes && operation.scope !== null && !options.scopes.has(operation.scope)) continue;
    const doc = TOOL_DOCS[operation.name];
    const schemas = toolSchemasOf(operation);
    server.registerTool(
      operation.name,
      {
        title: doc.title,
        description: doc.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: doc.annotations,
      },
      (args) => callOperation(deps, caller, operation, args as Record<string, unknown>, confirm),
    );
    listed.push({
      toolset: TOOLSET_OF[operation.name],
      definition: {
        name: operation.name,
        title: doc.title,
        description: doc.description,
        inputSchema: schemas.inputJson as Tool['inputSchema'],
        outputSchema: schemas.outputJson as Tool['outputSchema'],
        annotations: doc.annotations,
      },
    });
  }

  const admitted = async () => {
    const admission = await admitCall(deps, caller);
    return 'error' in admission ? admission.error : undefined;
  };
  listed.push(registerToolsetsTool(server, listed, on, options.keepToolsets, admitted));
  answerToolsList(server, listed, on);
  registerDirectoryResources(server, deps, caller);
  registerPrompts(server, on.has('series') && listed.some((tool) => tool.definition.name === 'create_series'));
  return server;
}

/** A resource shows the first page of its list: a directory this size fits a model's context; more is paged by the tools. */
const FIRST_PAGE = { limit: 100 };

/** The directory as resources, for clients that read them into context. */
function registerDirectoryResources(server: McpServer, deps: McpDeps, caller: ToolCaller): void {
  const asJson = (uri: URL, value: unknown) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
  });
  // Counted in the token's rate-limit bucket like the equivalent tools.
  const who = async (): Promise<Principal> => {
    const admitted = await admitCall(deps, caller);
    if ('error' in admitted) {
      const { code, message } = admitted.error.shownIn(TOOL_WORDS);
      throw new Error(`${code}: ${message}`);
    }
    return admitted.principal;
  };
  server.registerResource(
    'me',
    'schedule://me',
    {
      title: 'Me',
      description: 'Who this token acts as: id, name, time zone, role, scopes, and who it may act for.',
      mimeType: 'application/json',
    },
    async (uri) => asJson(uri, describeCaller(await who())),
  );
  server.registerResource(
    'people',
    'schedule://people',
    { title: 'People', description: 'The people this token may act for; their user_id is a host_user_id.', mimeType: 'application/json' },
    async (uri) => asJson(uri, (await listPeople(deps.core.store.db, await who(), FIRST_PAGE)).items),
  );
  server.registerResource(
    'event-types',
    'schedule://event-types',
    {
      title: 'Event types',
      description: 'The event types this token can book, with ids, owners, durations and whether series are allowed.',
      mimeType: 'application/json',
    },
    async (uri) => asJson(uri, (await listEventTypes(deps.core.store.db, await who(), FIRST_PAGE)).items),
  );
}
