import type { IncomingMessage } from 'node:http';

/**
 * Whether a form post came from one of this server's own pages, as the
 * browser tells: `Sec-Fetch-Site` when it sends one (only `same-origin`
 * passes), and `Origin` when it sends one (this server's public origin, or
 * the host the request was sent to). Another site's page cannot forge
 * either. A client that sends neither (an old browser, a script) is judged
 * by the form's anti-forgery token alone, which every form also needs.
 */
export function fromOwnPage(req: IncomingMessage, publicOrigin: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = req.headers.origin;
  if (origin === undefined || origin === publicOrigin) return true;
  // "null" (a sandboxed frame, a privacy setting) and anything that is not an origin name no page of ours.
  const host = URL.parse(origin)?.host;
  return host !== undefined && host !== '' && host === req.headers.host;
}
