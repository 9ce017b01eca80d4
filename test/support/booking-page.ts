import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

// The booking pages (packages/page) as a visitor's browser meets them, without
// a browser: plain requests, the answer read whole (never following a
// redirect, so a 303 and its Location are seen), and the few things a test
// reads out of a page's HTML.

/** A page's answer: status, headers and the decoded body. */
export interface PageAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** GET (or another method) of a page path; redirects are not followed. */
export async function getPage(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<PageAnswer> {
  const res = await fetch(`${baseUrl}${path}`, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * Posts a form as a browser on the page's own origin does (Origin and
 * Sec-Fetch-Site: same-origin), unless `headers` say otherwise; a header
 * given as '' is left out.
 */
export async function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string | readonly string[]> | string,
  headers: Record<string, string> = {},
): Promise<PageAnswer> {
  const merged: Record<string, string> = {
    origin: new URL(baseUrl).origin,
    'sec-fetch-site': 'same-origin',
    'content-type': 'application/x-www-form-urlencoded',
    ...headers,
  };
  for (const [name, value] of Object.entries(merged)) if (value === '') delete merged[name];
  const body = typeof fields === 'string' ? fields : formBody(fields);
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: merged, body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** An urlencoded body; an array repeats the field. */
export function formBody(fields: Record<string, string | readonly string[]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of typeof value === 'string' ? [value] : value) search.append(name, one);
  }
  return search.toString();
}

/** The raw answer of a GET with the bytes as sent (fetch would undo the compression): status, headers, decoded body. */
export function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; decoded: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const decoded = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, decoded: decoded.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The form token of the (first) form on a page. */
export function formTokenOf(html: string): string {
  const match = /<input type="hidden" name="form_token" value="([^"]+)">/.exec(html);
  if (!match?.[1]) throw new Error(`no form token in the page:\n${html.slice(0, 2000)}`);
  return match[1];
}

/** The instants (`<time datetime>`) the day's list of free times shows, in order; [] when the page lists none. */
export function timesShown(html: string): string[] {
  const list = /<ul class="times">([\s\S]*?)<\/ul>/.exec(html);
  if (!list?.[1]) return [];
  return [...list[1].matchAll(/<time datetime="([^"]+)">/g)].map((m) => m[1]!);
}

/** The manage link path (`/booking/<token>`) of a 303 Location `/booking/<token>?done=…`. */
export function manageLinkOf(location: string | null): string {
  const match = /^(\/booking\/[^/?]+)\?done=[a-z]+$/.exec(location ?? '');
  if (!match?.[1]) throw new Error(`not a manage link: ${location}`);
  return match[1];
}
