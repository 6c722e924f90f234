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

// Only the loopback is reachable: every name fails to resolve (but 127.0.0.1's), and every
// address is sent to a proxy on a port nobody listens on (the loopback bypasses proxies).
const NETWORK_GUARD = [
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--proxy-server=http://127.0.0.1:9',
];

/**
 * Opens a browser context with its own temporary profile (a fresh browser: nothing shared
 * with any other context). Every request not addressed to 127.0.0.1 is aborted and recorded
 * in `offHost`. `options` go to Playwright's context (deviceScaleFactor, colorScheme,
 * reducedMotion, permissions…).
 *
 * With `guard: 'network'` (the timing scripts) the browser's network stack refuses every
 * other host instead: names resolve to nothing and every address but the loopback goes to a
 * proxy that does not exist. Nothing is recorded, but no request waits on the test process
 * as an intercepted one does (which adds tens to hundreds of milliseconds to a page load on a
 * busy machine).
 */
export async function openBrowser({ width = 1280, height = 800, guard = 'intercept', ...options } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'oncall-e2e-profile-'));
  const network = guard === 'network';
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: network ? [...ARGS, ...NETWORK_GUARD] : ARGS,
    viewport: { width, height },
    serviceWorkers: 'block',
    ...options,
  });
  const offHost = [];
  if (!network) await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
    offHost.push(url.href);
    return route.abort('blockedbyclient');
  });
  // Every page and frame reports what its Content-Security-Policy blocked, in `violations`:
  // the suites assert it empty after their tests (the built pages run whole under their
  // policy).
  const violations = [];
  await context.exposeBinding('__oncallCspViolation', (_source, text) => violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const where = `${e.sourceFile || location.href}:${e.lineNumber}`;
      globalThis.__oncallCspViolation?.(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${where}) on ${location.pathname}`);
    });
  });
  return {
    context,
    offHost,
    violations,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Launches one headless Chromium guarded as `guard: 'network'` above, for timing a page's
 * first visit in a browser that is already running: each `openContext` is a fresh context
 * (its own empty cache and storage, as a first visit has), without the cost of starting a
 * browser inside the time measured.
 */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, ...NETWORK_GUARD],
  });
  return {
    async openContext({ width = 1280, height = 800, ...options } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, serviceWorkers: 'block', ...options });
      return { context, close: () => context.close() };
    },
    close: () => browser.close(),
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
