import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { api, expectError } from './support/http.js';
import { type ServerProcess, startServer, writeWorkspace } from './support/serve.js';
import { buildWorkspace } from './support/workspace.js';

// Issue 14, "Reference page": GET /docs renders docs/openapi.json in a real
// browser, from the server's own files (it may have no internet), under a
// strict Content-Security-Policy.

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

describe('GET /docs, the API reference page', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer(['--workspace', writeWorkspace(buildWorkspace().workspace), '--db', ':memory:']),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.stop()]);
  });

  it('renders every operation of the document, with no console error, page error or failed request', async () => {
    const contract = (await api(server.url, '/v1/openapi.json')).body;
    const operations: string[] = Object.values(contract.paths).flatMap((item: any) =>
      METHODS.filter((method) => item[method]).map((method) => item[method].operationId as string),
    );
    expect(operations.length).toBeGreaterThan(10);

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()} ${message.location().url}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    const answer = await page.goto(`${server.url}/docs`);
    expect(answer?.status()).toBe(200);
    // Swagger UI draws one block per operation once it has read the document.
    await page
      .locator('.opblock')
      .nth(operations.length - 1)
      .waitFor();
    expect(await page.locator('.opblock').count()).toBe(operations.length);

    const text = await page.locator('#reference').innerText();
    const missing = operations.filter((id) => !text.includes(id));
    expect(missing, 'operations the page does not show').toEqual([]);
    expect(text).toContain(contract.info.title);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('serves the page under a same-origin policy, its assets cacheable, and counts both by route template', async () => {
    const html = await fetch(`${server.url}/docs`);
    const policy = html.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe');
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const assets = [...(await html.text()).matchAll(/(?:href|src)="(\/docs\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(4);
    for (const asset of assets) {
      const res = await fetch(`${server.url}${asset}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      await res.arrayBuffer();
    }

    const metrics = (await api(server.url, '/metrics')).text;
    expect(metrics).toMatch(/^schedule_http_requests_total\{route="GET \/docs",status="200"\} [1-9]/m);
    expect(metrics).toMatch(/^schedule_http_requests_total\{route="GET \/docs\/\{asset\}",status="200"\} [1-9]/m);
  });

  it('an unknown path under /docs is a 404 in the envelope, like any unknown path', async () => {
    expectError(await api(server.url, '/docs/nope.js'), 404, 'not_found');
    expectError(await api(server.url, '/docs/'), 404, 'not_found');
  });
});
