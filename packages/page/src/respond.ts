import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Asset } from './assets.js';
import type { Html } from './html.js';

/**
 * The page's policy: only its own style sheet and script, no inline script
 * or style, forms posted only to itself, nothing fetched from elsewhere.
 * Framing is refused except for the embed (`?embed=1`), which any site may
 * frame: a booking page is public, as Calendly's and Cal.com's embeds are.
 */
function policy(embed: boolean): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${embed ? '*' : "'none'"}`,
  ].join('; ');
}

/** Which encoding a client takes, best first: brotli, gzip, none (RFC 9110 section 12.5.3, q=0 honoured). */
export function encodingFor(req: IncomingMessage): 'br' | 'gzip' | 'identity' {
  const accepted = new Set(
    String(req.headers['accept-encoding'] ?? '')
      .slice(0, 256)
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => q === undefined || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name?.trim()),
  );
  const accepts = (name: string) => accepted.has(name);
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer, encoding: string): void {
  res.statusCode = status;
  res.setHeader('Vary', 'Accept-Encoding, Accept-Language');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A page (or a fragment of one) with the page's headers, compressed when the client takes it. */
export function sendPage(req: IncomingMessage, res: ServerResponse, status: number, page: Html, options: { embed: boolean }): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', policy(options.embed));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  // Every page holds a fresh form token or fresh times: never kept, never shared by a proxy.
  res.setHeader('Cache-Control', 'no-store');
  const body = Buffer.from(page.text, 'utf8');
  const encoding = encodingFor(req);
  // Quality 5 brotli: most of 11's gain on a page this size, at a small part of its time.
  if (encoding === 'br') send(req, res, status, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), 'br');
  else if (encoding === 'gzip') send(req, res, status, gzipSync(body, { level: 6 }), 'gzip');
  else send(req, res, status, body, 'identity');
}

/** A hashed asset: kept for a year. */
export function sendAsset(req: IncomingMessage, res: ServerResponse, asset: Asset): void {
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const encoding = encodingFor(req);
  send(req, res, 200, asset[encoding], encoding);
}

/** An answer for the page's own script: small JSON, never cached. */
export function sendJson(res: ServerResponse, status: number, value: unknown): number {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', body.length);
  res.end(body);
  return status;
}

/** After a post, where the visitor goes next (303: the browser follows with a GET, so a reload does not post again). */
export function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 303;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

/** A calendar file to download. */
export function sendCalendar(req: IncomingMessage, res: ServerResponse, content: string): void {
  res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
  res.setHeader('Content-Disposition', 'attachment; filename="meeting.ics"');
  res.setHeader('Cache-Control', 'no-store');
  send(req, res, 200, Buffer.from(content, 'utf8'), 'identity');
}
