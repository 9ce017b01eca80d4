/**
 * Where this server is, as clients must name it (docs/oauth.md): the issuer
 * of its tokens and the two resources a token can be bound to (RFC 8707).
 * All come from one public base URL (`PUBLIC_URL`), an origin like
 * `https://schedule.example.com`, defaulting to the listening address.
 */
export interface Resources {
  /** The authorization server's issuer identifier (RFC 8414), the origin itself. */
  readonly issuer: string;
  /** The HTTP API as a protected resource: the origin, described at /.well-known/oauth-protected-resource. */
  readonly api: string;
  /** The MCP endpoint as a protected resource, described at /.well-known/oauth-protected-resource/mcp (RFC 9728 section 3.1). */
  readonly mcp: string;
  readonly apiMetadataUrl: string;
  readonly mcpMetadataUrl: string;
}

export const API_METADATA_PATH = '/.well-known/oauth-protected-resource';
export const MCP_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

/** Reads a public base URL; it must be an http(s) origin without a path, query or fragment. */
export function resourcesOf(publicUrl: string): Resources {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new Error(`PUBLIC_URL "${publicUrl}" is not a URL.`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(`PUBLIC_URL "${publicUrl}" must be an origin such as https://schedule.example.com (no path, query or credentials).`);
  }
  const origin = url.origin;
  return {
    issuer: origin,
    api: origin,
    mcp: `${origin}/mcp`,
    apiMetadataUrl: `${origin}${API_METADATA_PATH}`,
    mcpMetadataUrl: `${origin}${MCP_METADATA_PATH}`,
  };
}
