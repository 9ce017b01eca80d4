import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PAGE_CSS, PAGE_ICON, PAGE_JS } from './embedded-assets.js';

// The page's two files, its style sheet and its script (assets/, embedded at
// build by scripts/embed-assets.mjs), loaded once at start,
// named by a hash of their content (so a browser keeps them for a year and
// never asks again) and compressed once, both ways browsers accept.

/** Where the page's assets are served: under the manage links' prefix, where no token can be (a token holds no `/`). */
export const ASSETS_PATH = '/booking/assets/';

export interface Asset {
  readonly type: string;
  readonly identity: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
}

export interface Assets {
  /** The served names, for the page's `<link>` and `<script>`. */
  readonly css: string;
  readonly js: string;
  /** The page's icon: without one, every page view costs a request for `/favicon.ico` in the visitor's bucket. */
  readonly icon: string;
  readonly byName: ReadonlyMap<string, Asset>;
}

function asset(type: string, body: Buffer): Asset {
  return {
    type,
    identity: body,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

export function loadAssets(): Assets {
  const named = (stem: string, ext: string, body: Buffer) =>
    `${stem}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`;
  const cssBody = Buffer.from(PAGE_CSS, 'utf8');
  const jsBody = Buffer.from(PAGE_JS, 'utf8');
  const iconBody = Buffer.from(PAGE_ICON, 'utf8');
  const css = named('page', 'css', cssBody);
  const js = named('page', 'js', jsBody);
  const icon = named('icon', 'svg', iconBody);
  return {
    css: `${ASSETS_PATH}${css}`,
    js: `${ASSETS_PATH}${js}`,
    icon: `${ASSETS_PATH}${icon}`,
    byName: new Map([
      [css, asset('text/css; charset=utf-8', cssBody)],
      [js, asset('text/javascript; charset=utf-8', jsBody)],
      [icon, asset('image/svg+xml', iconBody)],
    ]),
  };
}
