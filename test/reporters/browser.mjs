// Plain JS so that both the tests and bench/reporters.bench.mjs (which runs on Node without a build) launch the
// browser the same way; types in browser.d.mts.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** Debian's chromium, which `.ci/run` installs with apt-get; the browser tests skip with this reason without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const NO_CHROMIUM = `no browser at ${CHROMIUM} (apt-get install -y chromium)`;

/** Headless flags this machine needs: no sandbox (root in a container), no GPU, and no network chatter of its own. */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
