/** Host names of this machine (RFC 8252 section 7.3, and `localhost` as clients still register it). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Where a redirect URI sends the browser, as the consent page names it: an
 * app's name is whatever it registered, so the host it will hand the answer
 * to is what tells a real app from an impostor (`app.example`, or
 * `127.0.0.1:8123 (an app on this computer)`, or `com.example.app: (an app
 * on this device)` for a private-use scheme).
 */
export function redirectDestination(redirectUri: string): string {
  const url = URL.parse(redirectUri);
  if (!url) return redirectUri;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${url.protocol} (an app on this device)`;
  return LOOPBACK_HOSTS.has(url.hostname) ? `${url.host} (an app on this computer)` : url.host;
}

/** Whether a redirect URI returns to this machine: `http` is allowed only there (OAuth 2.1 section 1.5, RFC 8252 section 8.3). */
export function isLoopbackRedirect(redirectUri: string): boolean {
  const url = URL.parse(redirectUri);
  return url !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
