// The public surface of @schedule/mcp. Entries (the CLI's `schedule mcp`,
// `schedule serve`) only pick a transport.

export { buildServer, INSTRUCTIONS } from './build-server.js';
export { callOperation, errorResult, type McpDeps, type ToolCaller } from './call-tool.js';
export { DESTRUCTIVE } from './confirm.js';
export { MCP_PATH, mcpHttpHandler, onlyMcpPath } from './http-handler.js';
export { guardMessages } from './message-guard.js';
export { API_TOOL_DOCS, DIRECTORY_TOOL_DOCS, TOOL_DOCS, TOOLSETS_TOOL_DOC, type ToolDoc } from './tool-docs.js';
export { inputJsonOf, pageSchema, successSchema, toolErrorSchema } from './tool-schemas.js';
export { TOOL_WORDS } from './tool-words.js';
export { DEFAULT_TOOLSETS, parseToolsets, TOOLSET_NAMES, TOOLSET_OF, TOOLSETS, type ToolsetName } from './toolsets.js';
