// Measures what speaking another language costs: each language's catalog and reference sheet
// (gzipped, as the page downloads them), and the time from picking a language in the header
// to the first metrics row of the same run in it, on Chrome DevTools' Fast 3G profile
// (562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up), the site served gzipped and cacheable
// as a web host would. Two switches: English (the first build) to Spanish, which downloads the
// extended build and the Spanish catalog; and Spanish to Italian, which downloads the Italian
// catalog (the build is in the cache). Median of 3 fresh browsers each.
//
// Usage: node tests/e2e/measure-language.mjs. Everything talks to 127.0.0.1 only.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load, shownMinute, waitForMinute, LOAD_TIMEOUT_MS } from './helpers.mjs';
import { median } from './stats.mjs';

const RUNS = 3;
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.44 * 1000 * 1000) / 8,
  uploadThroughput: (675 * 1000) / 8,
};

console.log('Downloaded for a language (gzip, default level 6):');
for (const lang of ['es', 'zh', 'it', 'ml']) {
  const sizes = [];
  for (const file of [`catalog-${lang}.json`, `reference-${lang}.json`]) {
    const body = await readFile(join(DIST, file));
    sizes.push(`${file} ${(gzipSync(body).length / 1024).toFixed(1)} KB`);
  }
  console.log(`  ${lang}: ${sizes.join(', ')}`);
}

const site = await serveStatic(DIST, { host: true });
try {
  for (const [from, to] of [['en', 'es'], ['es', 'it']]) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      // Guarded by the network stack, not by intercepting requests (which would turn the
      // browser's cache off).
      const browser = await openBrowser({ width: 1440, height: 900, guard: 'network' });
      try {
        const { page } = await openPage(browser);
        await load(page, site.url, `?scenario=bad-deploy&seed=7&t=20&lang=${from}`);
        const minute = await shownMinute(page);
        const cdp = await browser.context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', FAST_3G);
        const started = Date.now();
        await Promise.all([
          page.waitForURL((url) => url.searchParams.get('lang') === to, { timeout: 60_000 }),
          page.locator('select[data-action="language"]').selectOption(to),
        ]);
        await waitForMinute(page, minute, 60_000);
        await page.locator('tr[data-metric="requests_per_s"] .value').filter({ hasText: /\d/ })
          .waitFor({ state: 'attached', timeout: LOAD_TIMEOUT_MS });
        times.push(Date.now() - started);
      } finally {
        await browser.close();
      }
    }
    console.log(`Switch ${from} → ${to} on Fast 3G: runs ${times.join(', ')} ms; median ${median(times)} ms`);
  }
} finally {
  await site.close();
}
