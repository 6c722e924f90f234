// Measures the built console (dist/) and prints the figures against their targets:
//
//   1. bytes transferred for the wasm module and the scripts the first page loads until its
//      first metrics row (as the browser asks for them), gzipped (target ≤ 300 KB;
//      scripts/size-report.sh shows what each part of the code costs); the modules in lazy/,
//      loaded only when a part of the page is opened, are listed apart;
//   2. time from navigation to the first metrics row in headless Chromium on 127.0.0.1,
//      median of 5 fresh browsers (target ≤ 500 ms);
//   3. the console's own work per frame while playing at the highest speed: the frame loop
//      wraps its work in performance.mark/measure "frame" (simulation steps, the reactive DOM
//      updates, the chart redraw); 95th percentile (target ≤ 16 ms).
//
// Usage: node tests/e2e/measure.mjs [--strict | --strict-size]
//   --strict: exit 1 when any target is missed;
//   --strict-size: exit 1 only when the transfer size is over its target (timings depend on the
//   machine).
// Everything talks to 127.0.0.1 only.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, LOAD_TIMEOUT_MS } from './helpers.mjs';
import { median, percentile } from './stats.mjs';

const TARGETS = { transferKB: 300, firstRowMs: 500, frameP95Ms: 16 };
const LOAD_RUNS = 5;
const PLAY_MS = 6000;

const strict = process.argv.includes('--strict');
const strictSize = process.argv.includes('--strict-size');
const kb = (bytes) => bytes / 1024;
const verdict = (ok) => (ok ? 'ok' : 'OVER TARGET');

/** The modules the page loads only when a part of it is opened (Trunk's `lazy/` folder). */
async function deferredSizes() {
  const dir = join(DIST, 'lazy');
  const files = (await readdir(dir).catch(() => [])).filter((f) => /\.(wasm|js)$/.test(f));
  const rows = [];
  for (const file of files) {
    const body = await readFile(join(dir, file));
    rows.push({ file: `lazy/${file}`, raw: body.length, gzip: gzipSync(body).length });
  }
  return rows;
}

/**
 * The scripts and modules the first page loads until its first metrics row shows, as the
 * browser asks for them (relative to dist/): the start-up, the redirect check, the glue, its
 * snippets and the wasm. The sample lesson page's and full.html's own scripts are not among
 * them.
 */
async function firstPageFiles(siteUrl) {
  const browser = await openBrowser({ width: 1440, height: 900 });
  try {
    const { page } = await openPage(browser);
    const files = new Set();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.href.startsWith(siteUrl) && /\.(wasm|js)$/.test(url.pathname)) {
        files.add(decodeURIComponent(url.pathname.replace(/^\//, '')));
      }
    });
    await page.goto(`${siteUrl}?scenario=bad-deploy&seed=7`);
    await page.locator('tr[data-metric="requests_per_s"] .value').filter({ hasText: /\d/ }).waitFor({
      state: 'attached',
      timeout: LOAD_TIMEOUT_MS,
    });
    return [...files].sort();
  } finally {
    await browser.close();
  }
}

async function transferSizes(siteUrl) {
  const files = await firstPageFiles(siteUrl);
  const rows = [];
  for (const file of files) {
    const body = await readFile(join(DIST, file));
    rows.push({ file, raw: body.length, gzip: gzipSync(body).length, gzip9: gzipSync(body, { level: 9 }).length });
  }
  return rows;
}

async function firstRowTimes(siteUrl) {
  const times = [];
  for (let i = 0; i < LOAD_RUNS; i++) {
    const browser = await openBrowser({ width: 1440, height: 900 });
    try {
      const { page, errors } = await openPage(browser);
      // Records, relative to the navigation's start, when the first metrics row shows a value.
      await page.addInitScript(() => {
        const seen = () => {
          const cell = document.querySelector('tr[data-metric="requests_per_s"] .value');
          if (cell && /\d/.test(cell.textContent) && window.__firstRowMs === undefined) {
            window.__firstRowMs = performance.now();
          }
        };
        new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true });
      });
      await page.goto(`${siteUrl}?scenario=bad-deploy&seed=7`);
      await page.waitForFunction(() => window.__firstRowMs !== undefined, null, { timeout: LOAD_TIMEOUT_MS });
      times.push(await page.evaluate(() => window.__firstRowMs));
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    } finally {
      await browser.close();
    }
  }
  return times;
}

async function frameTimes(siteUrl) {
  const browser = await openBrowser({ width: 1440, height: 900 });
  try {
    const { page, errors } = await openPage(browser);
    await page.goto(`${siteUrl}?scenario=free-play&seed=42`);
    await page.locator('tr[data-metric="requests_per_s"] .value').filter({ hasText: /\d/ }).waitFor();
    const speed = page.locator('[data-time="speed"]');
    const fastest = await speed.evaluate((s) => s.options[s.options.length - 1].value);
    await speed.selectOption(fastest);
    const label = await speed.evaluate((s) => s.options[s.selectedIndex].textContent);
    await page.evaluate(() => performance.clearMeasures('frame'));
    await page.locator('[data-time="play"]').click();
    await page.waitForTimeout(PLAY_MS);
    await page.locator('[data-time="play"]').click();
    const minute = Number(await page.locator('[data-field="minute"]').textContent());
    const durations = await page.evaluate(() =>
      performance.getEntriesByName('frame').map((e) => e.duration),
    );
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return { durations, minute, label };
  } finally {
    await browser.close();
  }
}

const site = await serveStatic(DIST);
let missed = 0;
try {
  const sizes = await transferSizes(site.url);
  const total = sizes.reduce((sum, r) => sum + r.gzip, 0);
  console.log('Transfer (gzip, default level 6):');
  for (const r of sizes) {
    console.log(`  ${r.file}: ${kb(r.raw).toFixed(1)} KB raw, ${kb(r.gzip).toFixed(1)} KB gzip (${kb(r.gzip9).toFixed(1)} KB at level 9)`);
  }
  const sizeOk = kb(total) <= TARGETS.transferKB;
  missed += sizeOk ? 0 : 1;
  if (strictSize && !sizeOk) process.exitCode = 1;
  console.log(`  wasm + JS: ${kb(total).toFixed(1)} KB (target ≤ ${TARGETS.transferKB} KB): ${verdict(sizeOk)}`);
  const deferred = await deferredSizes();
  if (deferred.length) {
    console.log('Loaded only when opened (not part of the first transfer):');
    for (const r of deferred) {
      console.log(`  ${r.file}: ${kb(r.raw).toFixed(1)} KB raw, ${kb(r.gzip).toFixed(1)} KB gzip`);
    }
  }

  const loads = await firstRowTimes(site.url);
  const loadMedian = median(loads);
  const loadOk = loadMedian <= TARGETS.firstRowMs;
  missed += loadOk ? 0 : 1;
  console.log('Navigation to the first metrics row (headless Chromium, 127.0.0.1):');
  console.log(`  runs: ${loads.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(`  median: ${loadMedian.toFixed(0)} ms (target ≤ ${TARGETS.firstRowMs} ms): ${verdict(loadOk)}`);

  const { durations, minute, label } = await frameTimes(site.url);
  const p95 = percentile(durations, 95);
  const frameOk = durations.length > 0 && p95 <= TARGETS.frameP95Ms;
  missed += frameOk ? 0 : 1;
  console.log(`Frame work while playing at ${label} (${(PLAY_MS / 1000).toFixed(0)} s, to minute ${minute}):`);
  console.log(
    `  frames: ${durations.length}, median ${median(durations).toFixed(2)} ms, ` +
      `p95 ${p95.toFixed(2)} ms, max ${Math.max(...durations).toFixed(2)} ms ` +
      `(target p95 ≤ ${TARGETS.frameP95Ms} ms): ${verdict(frameOk)}`,
  );
} finally {
  await site.close();
}
if (strict && missed > 0) {
  console.error(`${missed} target(s) missed`);
  process.exit(1);
}
