/**
 * Where this server is, as clients must name it (docs/oauth.md): the issuer
 * of its tokens and the resources a token can be bound to (RFC 8707).
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
  /**
   * Other origins the same /mcp is reached at, each a resource of its own
   * (`<alias>/mcp`, described at `<alias>/.well-known/oauth-protected-resource/mcp`)
   * whose tokens `issuer` issues: see loopbackAliasesOf. Usually none.
   */
  readonly aliases: readonly string[];
}

export const API_METADATA_PATH = '/.well-known/oauth-protected-resource';
export const MCP_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

/** Reads a public base URL; it must be an http(s) origin without a path, query or fragment. */
export function resourcesOf(publicUrl: string, aliases: readonly string[] = []): Resources {
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
    mcp: mcpResourceAt(origin),
    apiMetadataUrl: `${origin}${API_METADATA_PATH}`,
    mcpMetadataUrl: `${origin}${MCP_METADATA_PATH}`,
    aliases: aliases.filter((alias) => alias !== origin),
  };
}

/** /mcp as a resource at one of the server's origins. */
export function mcpResourceAt(origin: string): string {
  return `${origin}/mcp`;
}

/** Every resource indicator that names /mcp: at the public origin and at each alias. */
export function mcpResources(resources: Resources): readonly string[] {
  return [resources.mcp, ...resources.aliases.map(mcpResourceAt)];
}

/**
 * The other origin a server listening on a loopback address is reached at:
 * `http://localhost:PORT` beside `http://127.0.0.1:PORT` (or `http://[::1]:PORT`).
 * An MCP client checks that the resource in /mcp's metadata is the URL it
 * was given (RFC 9728 section 3.3), and people give it either spelling;
 * nothing else can reach a loopback address, so the alias is no name an
 * attacker chooses. For a server with no PUBLIC_URL only: a PUBLIC_URL is
 * the one name the operator chose.
 */
export function loopbackAliasesOf(listeningUrl: string): string[] {
  const url = new URL(listeningUrl);
  if (url.hostname !== '127.0.0.1' && url.hostname !== '[::1]') return [];
  url.hostname = 'localhost';
  return [url.origin];
}

/**
 * The origin a request was sent to, by its `Host`, when that is one of the
 * aliases; otherwise the public origin (a Host that names anything else,
 * as after DNS rebinding, changes nothing).
 */
export function originReached(resources: Resources, host: string | undefined): string {
  const origin = host === undefined ? undefined : URL.parse(`http://${host}`)?.origin;
  return origin !== undefined && resources.aliases.includes(origin) ? origin : resources.issuer;
}
