import type { IncomingMessage } from 'node:http';

/**
 * Whether a form post comes from one of the page's own documents (OWASP's
 * "verify origin with standard headers"). A browser sends `Sec-Fetch-Site`
 * (Fetch Metadata) and `Origin` with every form post, and a page cannot
 * forge either: a post another site made is `cross-site` or names that
 * site. `Origin` is compared with the public address, and with the `Host`
 * the request came to (a server reached at another name than PUBLIC_URL).
 * A client that sends neither is no browser, so no visitor's browser is
 * being misused; the form token still binds the post to a rendered form.
 */
export function fromOwnPage(req: IncomingMessage, publicOrigin: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (origin === publicOrigin) return true;
  const host = req.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}
