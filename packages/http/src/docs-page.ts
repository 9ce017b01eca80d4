import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { OPENAPI_PATH } from './openapi/meta-paths.js';

/** Where the server serves the API reference page, rendered in the browser from the OpenAPI document. */
export const DOCS_PATH = '/docs';

/**
 * Only this server's own files run or style the page; the reference reads
 * the document with `fetch` from the same origin. Swagger UI needs one
 * thing beyond 'self': `data:` images (its CSS draws its icons as SVG data
 * URLs). It needs no 'unsafe-inline': it injects no `<style>` element, and
 * React sets inline styles through the CSSOM, which CSP does not govern
 * (test/docs-page.test.ts fails on any violation the browser reports).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Asset names carry a hash of their content, so a browser may keep them for a year and never ask again. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * Swagger UI's configuration; a file of its own, as the policy runs no
 * inline script. `validatorUrl: null` keeps it from asking an outside
 * validator for a badge (the server may have no internet). Requests from
 * the page are off: the document's server is a placeholder origin the
 * policy would refuse, and a token typed into a page is a token leaked.
 */
const STARTER = `SwaggerUIBundle(${JSON.stringify({
  url: OPENAPI_PATH,
  dom_id: '#reference',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  supportedSubmitMethods: [],
})});\n`;

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

interface Site {
  /** The page's assets by the name they are served under. */
  readonly assets: ReadonlyMap<string, Asset>;
  readonly page: string;
}

/** `swagger-ui-bundle.js` becomes `swagger-ui-bundle.1a2b3c4d5e6f.js`. */
function hashedName(name: string, body: Buffer): string {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}

async function loadSite(): Promise<Site> {
  // The renderer ships as static files in swagger-ui-dist; resolved at run time, so the CLI's bundle finds them too.
  const require = createRequire(import.meta.url);
  const read = (file: string) => readFile(require.resolve(`swagger-ui-dist/${file}`));
  const [icon, style, script] = await Promise.all([read('favicon-32x32.png'), read('swagger-ui.css'), read('swagger-ui-bundle.js')]);
  const named = (name: string, type: string, body: Buffer): [string, Asset] => [hashedName(name, body), { type, body }];
  const entries = [
    named('favicon.png', 'image/png', icon),
    named('swagger-ui.css', 'text/css; charset=utf-8', style),
    named('swagger-ui-bundle.js', 'text/javascript; charset=utf-8', script),
    named('start.js', 'text/javascript; charset=utf-8', Buffer.from(STARTER)),
  ] as const;
  const [favicon, css, bundle, start] = entries.map(([name]) => `${DOCS_PATH}/${name}`);
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>schedule API reference</title>
<link rel="icon" type="image/png" href="${favicon}">
<link rel="stylesheet" href="${css}">
</head>
<body>
<div id="reference"></div>
<script src="${bundle}"></script>
<script src="${start}"></script>
</body>
</html>
`;
  return { assets: new Map(entries), page };
}

/** What a served `/docs` request is counted and logged as. */
export interface DocsServed {
  readonly route: string;
  readonly status: number;
}

function send(res: ServerResponse, type: string, body: string | Buffer, cache: string): number {
  res.statusCode = 200;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', cache);
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(body);
  return 200;
}

/**
 * Answers `GET /docs` (and `HEAD`) with the reference page and
 * `GET /docs/{asset}` with its files, read on the first request and then
 * kept. Any other path under `/docs/` is left to the router, which answers
 * 404 in the envelope like any unknown path.
 */
export function docsEndpoint() {
  let site: Promise<Site> | undefined;
  return async (pathname: string, res: ServerResponse): Promise<DocsServed | undefined> => {
    site ??= loadSite();
    const { assets, page } = await site;
    // The page itself may change with the server; a browser asks again each time, its assets it keeps.
    if (pathname === DOCS_PATH) return { route: `GET ${DOCS_PATH}`, status: send(res, 'text/html; charset=utf-8', page, 'no-cache') };
    const asset = assets.get(pathname.slice(DOCS_PATH.length + 1));
    if (!asset) return undefined;
    return { route: `GET ${DOCS_PATH}/{asset}`, status: send(res, asset.type, asset.body, ASSET_CACHE) };
  };
}
