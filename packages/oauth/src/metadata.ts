import { SCOPES } from '@schedule/core';
import { OAUTH_ROUTES } from './authorization-server.js';
import { mcpResourceAt, type Resources } from './resources.js';

/**
 * RFC 8414: everything a client needs to find its way, from the issuer
 * alone. `documented`: whether the API reference (/docs) is served beside.
 */
export function authorizationServerMetadata(resources: Resources, documented: boolean) {
  const at = (path: string) => `${resources.issuer}${path}`;
  return {
    issuer: resources.issuer,
    authorization_endpoint: at(OAUTH_ROUTES.authorization),
    token_endpoint: at(OAUTH_ROUTES.token),
    registration_endpoint: at(OAUTH_ROUTES.registration),
    revocation_endpoint: at(OAUTH_ROUTES.revocation),
    introspection_endpoint: at(OAUTH_ROUTES.introspection),
    jwks_uri: at(OAUTH_ROUTES.jwks),
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    ...(documented ? { service_documentation: at('/docs') } : {}),
  };
}

/**
 * RFC 9728: what a protected resource (the API, or /mcp) accepts and who
 * issues its tokens. /mcp is named at the origin the client reached (one of
 * the aliases, or the public origin): the client checks it is the URL it was
 * given (section 3.3). Its tokens still come from the one issuer.
 */
export function protectedResourceMetadata(
  resources: Resources,
  resource: 'api' | 'mcp',
  { reached, documented }: { reached: string; documented: boolean },
) {
  return {
    resource: resource === 'mcp' ? mcpResourceAt(reached) : resources.api,
    authorization_servers: [resources.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: resource === 'mcp' ? 'schedule MCP server' : 'schedule HTTP API',
    ...(documented ? { resource_documentation: `${resources.issuer}/docs` } : {}),
  };
}
