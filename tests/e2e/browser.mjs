// Headless Chromium for the end-to-end tests: the system's Chromium, a fresh profile per
// launch, and a guard that lets the page talk to 127.0.0.1 only.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Keep Chromium quiet: without the background-networking flags it keeps trying to reach
// outside services.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Opens a browser context with its own temporary profile (a fresh browser: nothing shared
 * with any other context). Every request not addressed to 127.0.0.1 is aborted and recorded
 * in `offHost`. `options` go to Playwright's context (deviceScaleFactor, colorScheme,
 * reducedMotion, permissions…).
 */
export async function openBrowser({ width = 1280, height = 800, ...options } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'oncall-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width, height },
    serviceWorkers: 'block',
    ...options,
  });
  const offHost = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
    offHost.push(url.href);
    return route.abort('blockedbyclient');
  });
  return {
    context,
    offHost,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a page and records what it reports as an error: console errors and uncaught exceptions.
 */
export async function openPage(browser) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return { page, errors };
}
