import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

// Debian's Chromium, driven headless by playwright-core (no browser download:
// the machine reaches only the npm registry and Debian's packages).

const CHROMIUM = '/usr/bin/chromium';
/** The machine has no internet: without the background-networking flags Chromium keeps dialling out and logging refusals. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts Chromium; not a skip when it is missing: CI installs it (.ci/run), and a missing browser must not pass silently. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
