import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolsetName } from './toolsets.js';

/** What `tools/list` says of a tool, and the toolset that lists it (none: always listed). */
export interface ListedTool {
  readonly toolset: ToolsetName | null;
  readonly definition: Tool;
}

/**
 * Answers `tools/list` with the tools of the toolsets switched on (`on`,
 * which the `toolsets` tool adds to), each with its JSON Schemas exactly as
 * tool-schemas.ts derived them. The SDK's own answer converts the zod
 * schema a tool was registered with back to JSON Schema, and zod rewrites
 * on the way: a nullable `anyOf` comes out as a `type` list, which the
 * portability rules refuse (client-json-schema.ts).
 *
 * Listing is all a toolset decides: every tool the token's scopes allow is
 * registered and answers a call by its name, listed or not. A toolset spares
 * a model's context the schemas it does not need; it is not a permission.
 */
export function answerToolsList(server: McpServer, tools: readonly ListedTool[], on: ReadonlySet<ToolsetName>): void {
  server.server.removeRequestHandler('tools/list');
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.filter((tool) => tool.toolset === null || on.has(tool.toolset)).map((tool) => tool.definition),
  }));
}
