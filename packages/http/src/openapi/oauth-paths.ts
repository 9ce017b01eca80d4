import type { oas31, ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponses } from './error-responses.js';
import { successHeaders } from './headers.js';

// The authorization server's paths (docs/oauth.md). Their payloads are the
// RFCs' (forms in, RFC 6749 JSON out), not the API's envelope, so they are
// described here by reference to those RFCs; the library that answers them
// (oidc-provider, in @schedule/oauth) is held to them by its own tests and
// by ours driving it with clients we did not write.

const noToken: never[] = [];
const rateLimited = errorResponses(['rate_limited'], 'counted');
const counted = successHeaders({ counting: 'counted' });

/** RFC 6749 section 5.2's error object. */
const oauthError: oas31.SchemaObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'string',
      examples: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'],
    },
    error_description: { type: 'string' },
  },
};

const oauthErrors = (statuses: readonly string[]): Record<string, oas31.ResponseObject> =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: 'An OAuth error (RFC 6749 section 5.2).', headers: counted, content: { 'application/json': { schema: oauthError } } },
    ]),
  );

const json = (description: string, required: readonly string[]): oas31.ResponseObject => ({
  description,
  headers: counted,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: [...required],
        // Named so a reader sees them; their values are the RFC's.
        properties: Object.fromEntries(required.map((name) => [name, { description: `See the RFC named above.` }])),
        additionalProperties: true,
      },
    },
  },
});

const form = (required: readonly string[], properties: Record<string, string>): oas31.RequestBodyObject => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required: [...required],
        properties: Object.fromEntries(Object.entries(properties).map(([name, description]) => [name, { type: 'string', description }])),
      },
    },
  },
});

function metadata(operationId: string, summary: string, description: string, required: readonly string[]) {
  return {
    get: {
      operationId,
      tags: ['OAuth'],
      summary,
      description: `${description} No token; counted in the anonymous bucket of the client address.`,
      security: noToken,
      responses: { '200': json(summary, required), ...rateLimited },
    },
  };
}

export const OAUTH_PATHS: ZodOpenApiPathsObject = {
  '/.well-known/oauth-authorization-server': metadata(
    'get_authorization_server_metadata',
    'Authorization server metadata',
    'RFC 8414: the issuer (this server\'s public origin, `PUBLIC_URL`) and its endpoints, scopes, `code_challenge_methods_supported: ["S256"]`, `authorization_response_iss_parameter_supported` and `client_id_metadata_document_supported`.',
    ['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'scopes_supported'],
  ),
  '/.well-known/oauth-protected-resource': metadata(
    'get_api_resource_metadata',
    'API resource metadata',
    'RFC 9728: the HTTP API as a protected resource; `resource` is the origin, the value of `resource` when asking for an API token.',
    ['resource', 'authorization_servers', 'scopes_supported'],
  ),
  '/.well-known/oauth-protected-resource/mcp': metadata(
    'get_mcp_resource_metadata',
    'MCP resource metadata',
    'RFC 9728: the MCP endpoint as a protected resource (`resource` is `<origin>/mcp`). A 401 from `/mcp` points here.',
    ['resource', 'authorization_servers', 'scopes_supported'],
  ),
  '/v1/oauth/authorize': {
    get: {
      operationId: 'oauth_authorize',
      tags: ['OAuth'],
      summary: 'Authorization endpoint',
      description: [
        'RFC 6749 section 4.1 with PKCE (RFC 7636, `S256` only; required) and `resource` (RFC 8707: the origin for the API, `<origin>/mcp` for MCP).',
        'Opened in the browser: the host signs in and consents (they may untick scopes), then is sent back to the `redirect_uri` with `code`, `state` and `iss` (RFC 9207).',
        'An unknown client or a `redirect_uri` that does not match exactly (loopback redirects of native clients: any port) is never redirected to: it gets an HTML error page.',
        'Per address: 30 per minute.',
      ].join(' '),
      security: noToken,
      parameters: [
        'response_type',
        'client_id',
        'redirect_uri',
        'scope',
        'state',
        'code_challenge',
        'code_challenge_method',
        'resource',
      ].map((name) => ({
        name,
        in: 'query' as const,
        required: ['response_type', 'client_id', 'code_challenge'].includes(name),
        schema: { type: 'string' as const },
      })),
      responses: {
        '302': {
          description: 'To the sign-in or consent page, or back to the client with `code` (or `error`), `state` and `iss`.',
          headers: counted,
        },
        '400': {
          description: 'An HTML page naming what is wrong (unknown client, redirect_uri mismatch).',
          headers: counted,
          content: { 'text/html': { schema: { type: 'string' } } },
        },
        ...rateLimited,
      },
    },
  },
  '/v1/oauth/token': {
    post: {
      operationId: 'oauth_token',
      tags: ['OAuth'],
      summary: 'Token endpoint',
      description: [
        'RFC 6749: `authorization_code` (with `code_verifier`) and `refresh_token`. Access tokens are opaque, live 15 minutes and are bound to one resource.',
        'Refresh tokens rotate on every use; using one a second time revokes the whole grant. Codes live 60 seconds and are single-use; a replayed code revokes what it issued.',
        'Public clients authenticate with `client_id` only; confidential ones with HTTP Basic or `client_secret_post`. Per address: 60 per minute.',
      ].join(' '),
      security: noToken,
      requestBody: form(['grant_type'], {
        grant_type: '`authorization_code` or `refresh_token`.',
        code: 'The code from the authorization response.',
        redirect_uri: 'The same redirect_uri as in the authorization request.',
        code_verifier: 'The PKCE verifier.',
        refresh_token: 'The refresh token (for `refresh_token`).',
        client_id: 'For public clients.',
        resource: 'Optional: the resource the token is for; defaults to the one granted.',
        scope: 'Optional on refresh: a subset of what was granted.',
      }),
      responses: {
        '200': json('`access_token`, `token_type: Bearer`, `expires_in`, `scope`, and a `refresh_token`.', [
          'access_token',
          'token_type',
          'expires_in',
        ]),
        ...oauthErrors(['400', '401']),
        ...rateLimited,
      },
    },
  },
  '/v1/oauth/revoke': {
    post: {
      operationId: 'oauth_revoke',
      tags: ['OAuth'],
      summary: 'Token revocation',
      description:
        'RFC 7009. Revoking a refresh token ends its grant and every token of it. Always `200` for a token that is unknown. Per address: 60 per minute.',
      security: noToken,
      requestBody: form(['token'], {
        token: 'The token.',
        token_type_hint: '`access_token` or `refresh_token`.',
        client_id: 'For public clients.',
      }),
      responses: {
        '200': { description: 'Revoked (or was not valid).', headers: counted },
        ...oauthErrors(['400', '401']),
        ...rateLimited,
      },
    },
  },
  '/v1/oauth/introspect': {
    post: {
      operationId: 'oauth_introspect',
      tags: ['OAuth'],
      summary: 'Token introspection',
      description:
        'RFC 7662, for confidential clients about their own tokens: `active`, and when active `scope`, `client_id`, `sub`, `aud`, `exp`. Per address: 120 per minute.',
      security: noToken,
      requestBody: form(['token'], { token: 'The token.', token_type_hint: '`access_token` or `refresh_token`.' }),
      responses: { '200': json('`{ active: boolean, … }`.', ['active']), ...oauthErrors(['400', '401']), ...rateLimited },
    },
  },
  '/v1/oauth/register': {
    post: {
      operationId: 'oauth_register',
      tags: ['OAuth'],
      summary: 'Dynamic client registration',
      description:
        'RFC 7591: `client_name`, `redirect_uris`, and `token_endpoint_auth_method` (`none` for public clients such as MCP clients, `client_secret_basic` for confidential ones). Open to anyone, so limited to 5 per minute per address.',
      security: noToken,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['redirect_uris'],
              properties: {
                redirect_uris: { type: 'array', items: { type: 'string', format: 'uri' } },
                client_name: { type: 'string' },
                token_endpoint_auth_method: { type: 'string', enum: ['none', 'client_secret_basic', 'client_secret_post'] },
              },
              additionalProperties: true,
            },
          },
        },
      },
      responses: {
        '201': json('The client, with its `client_id` (and `client_secret` for confidential clients).', ['client_id']),
        ...oauthErrors(['400']),
        ...rateLimited,
      },
    },
  },
};
