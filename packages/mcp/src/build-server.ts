import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describeCaller, listEventTypes, listPeople, operations, type Principal } from '@schedule/core';
import { admitCall, callOperation, type McpDeps, type ToolCaller } from './call-tool.js';
import { registerPrompts } from './prompts.js';
import { TOOL_DOCS } from './tool-docs.js';
import { toolSchemasOf } from './tool-schemas.js';
import { TOOL_WORDS } from './tool-words.js';
import { DEFAULT_TOOLSETS, inToolsets, type ToolsetName } from './toolsets.js';

/** What a model is told about this server when it connects. */
export const INSTRUCTIONS = [
  "schedule books meetings on people's calendars. Every tool acts as the token's user, with its scopes, and sees only the people that user may act for.",
  'Start with whoami (your identity and time zone), list_event_types (what can be booked, with ids) and list_people (whose calendars you may use); these are also resources: schedule://me, schedule://event-types, schedule://people.',
  'To book once: list_slots or check_slot, then create_booking. To book a run: create_series; dates the host is not free are skipped, not shifted, so report them.',
  'Writes take an idempotency_key: reuse it to retry safely. Updates take if_match: the version you read. An argument a tool does not take is refused, not ignored.',
  'Errors come back with isError and structuredContent { error: { code, message, details } }, the code for example slot_unavailable, version_conflict, series_busy; read the message and act on it.',
  'Lists return one page; pass next_cursor back as cursor while has_more is true. Times are ISO 8601, answered in UTC; a time you send must carry Z or an offset (2026-12-09T11:00:00+01:00).',
].join(' ');

/**
 * The MCP server: one tool per API endpoint (docs/workspace.md names them; the
 * directory endpoints are tools too, and resources), of the toolsets the
 * connection asked for (toolsets.ts), and two prompts. Transports only choose
 * how it is reached; `caller` says who is calling.
 */
export function buildServer(deps: McpDeps, caller: ToolCaller, toolsets: readonly ToolsetName[] = DEFAULT_TOOLSETS): McpServer {
  const server = new McpServer({ name: 'schedule', title: 'schedule', version: deps.version ?? 'dev' }, { instructions: INSTRUCTIONS });

  for (const operation of operations.filter((candidate) => inToolsets(candidate.name, toolsets))) {
    const doc = TOOL_DOCS[operation.name];
    server.registerTool(
      operation.name,
      {
        title: doc.title,
        description: doc.description,
        inputSchema: toolSchemasOf(operation).input,
        outputSchema: toolSchemasOf(operation).output,
        annotations: doc.annotations,
      },
      (args) => callOperation(deps, caller, operation, args as Record<string, unknown>),
    );
  }

  registerDirectoryResources(server, deps, caller);
  registerPrompts(server, toolsets.includes('series'));
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
