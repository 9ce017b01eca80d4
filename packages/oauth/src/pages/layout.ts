import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

// The authorization pages are plain server-rendered HTML: no script at
// all, so they work without JavaScript and a strict policy forbids any.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2430}
h1{font-size:1.4rem}label{display:block;margin:.6rem 0}input[type=text],input[type=password]{width:100%;padding:.4rem;font:inherit}
button{font:inherit;padding:.4rem 1rem;margin:.8rem .6rem 0 0}.note{color:#5b6573;font-size:.9rem}.error{color:#a01818}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #dde}code{font-size:.9rem}`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * No script, no frames (clickjacking a consent button is the attack this
 * stops), styles only the one inline block above. `form-action` is left
 * out on purpose: after consent the browser follows a redirect to the
 * app's own redirect URI, which the directive would block.
 */
export const PAGE_POLICY = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="same-origin"><title>${escapeHtml(title)} · schedule</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The headers every page carries: never cached, never framed, never sniffed. */
export function pageHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': PAGE_POLICY,
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
    // Not no-referrer: under it a browser sends `Origin: null` with our own forms, and form-origin.ts must see the real one.
    // Same-origin still keeps the interaction's address from every other site, the app's redirect URI included.
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
  };
}

export function sendPage(res: ServerResponse, status: number, title: string, body: string): number {
  const html = page(title, body);
  for (const [name, value] of Object.entries(pageHeaders())) res.setHeader(name, value);
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
  return status;
}

/** A form posted without the anti-forgery token its page gave it. */
export const FORGED = 'The form is missing its anti-forgery token; reload the page and try again.';

export function sendErrorPage(res: ServerResponse, status: number, message: string): number {
  return sendPage(res, status, 'Error', `<h1>Something is wrong with this request</h1><p class="error">${escapeHtml(message)}</p>`);
}

export function redirect(res: ServerResponse, location: string): number {
  res.statusCode = 303;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.end();
  return 303;
}
