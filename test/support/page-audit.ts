import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// What a browser test of the booking page checks on every page it reaches:
// no rule of WCAG 2.2 AA that axe-core can test is broken, no Content
// Security Policy violation shows in the console, and nothing is fetched
// from another origin than the server's.

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Where the screenshots go, for a person to look at. */
export const SHOTS_DIR = '/work/shots';

/**
 * Runs axe-core on the page as it is and expects no violation. The page's
 * policy (`script-src 'self'`) refuses an inline script tag, so axe is not
 * added as one: its source runs through the DevTools protocol
 * (page.evaluate), which the policy does not govern, with the page's own
 * policy left in force.
 */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const { axe, document } = globalThis as any;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map(
      (v: any) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n: any) => `    ${n.target.join(' ')}: ${n.failureSummary}`).join('\n')}`,
    );
  }, AXE_TAGS);
  expect(violations, `axe violations on ${state}:\n${violations.join('\n')}`).toEqual([]);
}

/**
 * Watches a page for the whole test: console messages that report a policy
 * violation, script errors, and any request to another origin than
 * `origin`. `problems` lists them as they happen; a test expects it empty.
 */
export function watchPage(page: Page, origin: string): { problems: string[] } {
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content.Security.Policy|Refused to/i.test(text)) problems.push(`csp: ${text}`);
    else if (message.type() === 'error') problems.push(`console error: ${text} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== origin) problems.push(`left the origin: ${request.method()} ${request.url()}`);
  });
  return { problems };
}

/** What has focus, and whether it shows: a non-none outline of some width. */
export async function focusedOutline(page: Page): Promise<{ element: string; outline: string; visible: boolean }> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as any;
    const el = document.activeElement;
    if (!el || el === document.body) return { element: 'body', outline: '', visible: false };
    const style = getComputedStyle(el);
    const describe = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('href') ? `[href=${el.getAttribute('href')}]` : ''}`;
    const outline = `${style.outlineStyle} ${style.outlineWidth}`;
    return { element: describe, outline, visible: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0 };
  });
}

/** Saves a screenshot of the whole page as /work/shots/<name>.png and returns the path. */
export async function shoot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const path = `${SHOTS_DIR}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}
