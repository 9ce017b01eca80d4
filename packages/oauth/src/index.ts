// The public surface of @schedule/oauth: the authorization server, mounted beside the API and /mcp.
export { OAUTH_ROUTES, TTL } from './authorization-server.js';
export { createOAuthServer, type OAuthServer, type OAuthServerDeps } from './oauth-server.js';
export {
  API_METADATA_PATH,
  loopbackAliasesOf,
  MCP_METADATA_PATH,
  mcpResourceAt,
  originReached,
  type Resources,
  resourcesOf,
} from './resources.js';
