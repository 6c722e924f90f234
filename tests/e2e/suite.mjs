// A test suite's site and browser: dist/ served on 127.0.0.1 and one headless Chromium,
// opened before the suite's tests and closed after them.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from './static-server.mjs';
import { openBrowser } from './browser.mjs';
import { DIST } from './helpers.mjs';

/**
 * Registers the suite's set-up and tear-down; the returned object's `site` and `browser`
 * are there once the suite's tests run.
 */
export function servedSuite(browserOptions = { width: 1280, height: 900 }) {
  const served = { site: null, browser: null };
  before(async () => {
    served.site = await serveStatic(DIST);
    served.browser = await openBrowser(browserOptions);
  });
  after(async () => {
    await served.browser?.close();
    await served.site?.close();
    assert.deepEqual(served.browser?.violations ?? [], [], 'the Content-Security-Policy blocked something');
  });
  return served;
}

/**
 * A suite framing the console in a lesson page: dist/ served twice on 127.0.0.1 (two
 * origins, as a lesson site and the simulator's site) and one headless Chromium. After the
 * suite's tests: nothing was asked of another host and the pages' policy blocked nothing.
 */
export function lessonSuite(browserOptions = { width: 1280, height: 900 }) {
  const served = { app: null, lesson: null, browser: null };
  before(async () => {
    assert.ok(existsSync(join(DIST, 'embed.html')), 'dist/embed.html is missing: run trunk build');
    served.app = await serveStatic(DIST);
    served.lesson = await serveStatic(DIST);
    served.browser = await openBrowser(browserOptions);
  });
  after(async () => {
    await served.browser?.close();
    await served.app?.close();
    await served.lesson?.close();
    assert.deepEqual(served.browser?.offHost ?? [], [], 'the page tried to reach another host');
    assert.deepEqual(served.browser?.violations ?? [], [], 'the Content-Security-Policy blocked something');
  });
  return served;
}
