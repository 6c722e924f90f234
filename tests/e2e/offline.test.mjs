// Offline after the first visit: the service worker (sw.js, written into the build by
// scripts/precache.mjs) precaches every built file; with the server gone the console still
// opens and plays, the extended build too; a new build is installed whole and served whole
// from the next page on, never a mix of two builds.
//
// Each test serves a copy of dist/ (the second one changes it as a rebuild would), on a port
// of its own (an origin of its own, so a registration of its own).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load, shownMinute, step } from './helpers.mjs';
import { serveStatic } from './static-server.mjs';
import { builtFiles, writeServiceWorker } from '../../scripts/precache.mjs';

if (!existsSync(join(DIST, 'sw.js'))) {
  throw new Error('dist/sw.js is missing: run `trunk build --release` first');
}

/** Polls `check` (an async function evaluated in the page, with `arg`) until it is true. */
async function poll(page, check, arg, what) {
  const deadline = Date.now() + 60_000;
  while (!(await page.evaluate(check, arg))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
}

/** Waits until the service worker controls the page and cache `name` holds `count` files. */
async function waitForCache(page, name, count) {
  await poll(
    page,
    async ([cacheName, n]) => {
      if (!navigator.serviceWorker.controller) return false;
      if (!(await caches.keys()).includes(cacheName)) return false;
      return (await (await caches.open(cacheName)).keys()).length === n;
    },
    [name, count],
    `cache ${name} with ${count} files`,
  );
}

/** SHA-256 (hex) of each file in cache `name`, by path. */
function cachedDigests(page, name) {
  return page.evaluate(async (cacheName) => {
    const cache = await caches.open(cacheName);
    const out = {};
    for (const request of await cache.keys()) {
      const body = await (await cache.match(request)).arrayBuffer();
      const digest = await crypto.subtle.digest('SHA-256', body);
      const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
      out[new URL(request.url).pathname.slice(1)] = hex;
    }
    return out;
  }, name);
}

function diskDigests(folder) {
  const out = {};
  for (const file of builtFiles(folder)) {
    out[file] = createHash('sha256').update(readFileSync(join(folder, file))).digest('hex');
  }
  return out;
}

describe('offline after the first visit', () => {
  let folder;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'oncall-offline-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  test('with the server stopped, the console opens and plays, the extended build too', async () => {
    const copy = join(folder, 'a');
    cpSync(DIST, copy, { recursive: true });
    const { version, files } = writeServiceWorker(copy);
    assert.ok(files.some((f) => f.endsWith('.wasm') && f.startsWith('full/')), 'the extended build is precached');
    const site = await serveStatic(copy);
    const browser = await openBrowser({ serviceWorkers: 'allow' });
    try {
      const { page, errors } = await openPage(browser);
      await load(page, site.url, '?scenario=bad-deploy&seed=7');
      await waitForCache(page, `oncall-sim-${version}`, files.length);
      await site.close();

      await load(page, site.url, '?scenario=bad-deploy&seed=7');
      const start = await shownMinute(page);
      await step(page, 3);
      assert.equal(await shownMinute(page), start + 3);
      // The extended build (request engine), from the cache as well.
      await load(page, site.url, 'full.html?scenario=hot-key&seed=3');
      const extendedStart = await shownMinute(page);
      await step(page, 2);
      assert.equal(await shownMinute(page), extendedStart + 2);
      assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
      assert.deepEqual(browser.violations, []);
    } finally {
      await browser.close();
      await site.close().catch(() => {});
    }
  });

  test('a new build is installed whole and served whole from the next page on', async () => {
    const copy = join(folder, 'b');
    cpSync(DIST, copy, { recursive: true });
    const first = writeServiceWorker(copy);
    const site = await serveStatic(copy);
    const browser = await openBrowser({ serviceWorkers: 'allow' });
    try {
      const { page } = await openPage(browser);
      await load(page, site.url, '?scenario=bad-deploy&seed=7');
      await waitForCache(page, `oncall-sim-${first.version}`, first.files.length);
      assert.deepEqual(await cachedDigests(page, `oncall-sim-${first.version}`), diskDigests(copy));

      // A rebuild: the page and one of its scripts change, and sw.js lists the new build.
      const index = join(copy, 'index.html');
      writeFileSync(index, readFileSync(index, 'utf8').replace('<head>', '<head><meta name="build" content="second">'));
      const script = join(copy, 'open-extended.js');
      writeFileSync(script, `${readFileSync(script, 'utf8')}\n/* second build */\n`);
      const second = writeServiceWorker(copy);
      assert.notEqual(second.version, first.version);

      // The next page still comes whole from the first build, while the second installs.
      await load(page, site.url, '?scenario=bad-deploy&seed=7');
      assert.equal(await page.locator('meta[name="build"]').count(), 0);
      await waitForCache(page, `oncall-sim-${second.version}`, second.files.length);
      await poll(
        page,
        async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL.endsWith('sw.js')
          && !(await navigator.serviceWorker.getRegistration()).installing
          && !(await navigator.serviceWorker.getRegistration()).waiting,
        null,
        'the second build\'s worker to take over',
      );
      // The page after: the second build, every file of it, and nothing of the first.
      await load(page, site.url, '?scenario=bad-deploy&seed=7');
      assert.equal(await page.locator('meta[name="build"]').getAttribute('content'), 'second');
      const served = await page.evaluate(async () => (await fetch('open-extended.js')).text());
      assert.match(served, /second build/);
      assert.deepEqual(await cachedDigests(page, `oncall-sim-${second.version}`), diskDigests(copy));
      // The first build's cache stays for pages still open on it; the one before it would go.
      const names = await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('oncall-sim-')));
      assert.deepEqual(names, [`oncall-sim-${first.version}`, `oncall-sim-${second.version}`]);
      const start = await shownMinute(page);
      await step(page, 2);
      assert.equal(await shownMinute(page), start + 2);
    } finally {
      await browser.close();
      await site.close();
    }
  });
});

// The registration waits for the page to settle: nothing of the precache competes with the
// first view (the first transfer is measured by measure.mjs).
test('the service worker registers after the page has loaded', () => {
  const script = readFileSync(join(DIST, 'page.js'), 'utf8');
  assert.match(script, /addEventListener\('load'/);
  assert.match(script, /register\('sw\.js'\)/);
  for (const page of ['index.html', 'full.html']) {
    assert.match(readFileSync(join(DIST, page), 'utf8'), /<script src="page.js" defer><\/script>/, page);
  }
});
