import { SCOPES } from '@schedule/core';
import { OAUTH_ROUTES } from './authorization-server.js';
import type { Resources } from './resources.js';

/** RFC 8414: everything a client needs to find its way, from the issuer alone. */
export function authorizationServerMetadata(resources: Resources) {
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
    service_documentation: at('/docs'),
  };
}

/** RFC 9728: what a protected resource (the API, or /mcp) accepts and who issues its tokens. */
export function protectedResourceMetadata(resources: Resources, resource: 'api' | 'mcp') {
  return {
    resource: resources[resource],
    authorization_servers: [resources.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: resource === 'mcp' ? 'schedule MCP server' : 'schedule HTTP API',
    resource_documentation: `${resources.issuer}/docs`,
  };
}
