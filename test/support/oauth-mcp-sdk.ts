import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

// What an application gives the MCP SDK's client so that it gets its own
// token (oauth-mcp-client.test.ts, mcp-http-oauth.test.ts): where to keep
// things, in memory, and a fetch that records what the SDK asked.

/** Where the client says it listens for the redirect. Nothing listens: the browser stops at the first redirect off the server. */
export const REDIRECT_URI = 'http://127.0.0.1:1455/callback';

/** Everything the SDK's client would keep across runs, kept in memory, and what it asked the application to do. */
export class MemoryClientProvider implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'Blackbox MCP client',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // A public client: an assistant on a laptop cannot keep a secret.
    token_endpoint_auth_method: 'none',
  };
  client: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier: string | undefined;
  /** Each authorization URL the SDK asked the application to open, with the state it put in it. */
  readonly authorizations: { url: URL; state: string }[] = [];
  private lastState = '';

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  redirectToAuthorization(url: URL) {
    // A desktop client opens the system browser here; the test plays the host in TestBrowser next.
    this.authorizations.push({ url, state: this.lastState });
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
}

/** One request the SDK made, as the server answered it. */
export interface Seen {
  readonly line: string;
  readonly headers: Headers;
  /** The JSON the SDK sent, for the registration request. */
  readonly sent?: any;
  /** The answer's body, read from a copy; only for the OAuth endpoints (an /mcp answer may be a stream). */
  readonly body?: any;
}

/** The SDK's fetch, recording each request as `METHOD /path STATUS`. */
export function recordingFetch(seen: Seen[]) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const { pathname } = new URL(url);
    const method = init?.method ?? 'GET';
    // The registration is recorded as the SDK sent it: it names the scopes /mcp advertises.
    const sent = method === 'POST' && pathname === '/v1/oauth/register' ? JSON.parse(String(init?.body)) : undefined;
    const res = await fetch(url, init);
    const body = pathname === '/mcp' ? undefined : await res.clone().json();
    seen.push({ line: `${method} ${pathname} ${res.status}`, headers: res.headers, sent, body });
    return res;
  };
}

/**
 * The lines recorded since `from`, but the GET /mcp the SDK opens after
 * connecting: it is not awaited, so where it lands among the other lines
 * depends on timing (the stateless server answers it 405).
 */
export function linesSince(seen: Seen[], from: number): string[] {
  return seen
    .slice(from)
    .map((s) => s.line)
    .filter((line) => !line.startsWith('GET /mcp '));
}
