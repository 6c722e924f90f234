// Measures request mode in the built console (dist/) and prints the figures against their
// targets, for each load-balancing policy named:
//
//   1. replay of a 120-minute request-mode link: from the navigation to the link until the
//      strip shows minute 120, for the link as the console shares it (full.html, the page with
//      the extended models; judged against the target) and for the same query on the main
//      page (which forwards it to full.html first), median of RUNS first visits (each in a fresh browser context, nothing
//      cached, in a browser already running) (target ≤ 2 s);
//   2. play at 60 simulated minutes a second at the opening load of free play: the engine's
//      time per simulated minute (the extended build measures each step as "minute" in the
//      page's performance timeline), median and p95 (a minute must fit in 1/60 s, 16.7 ms, for
//      play to keep up), and how many minutes the clock advanced per second.
//
// Usage: node tests/e2e/measure-requests.mjs [--strict] [--runs N] [--lb a,b,...]
// Everything talks to 127.0.0.1 only: the browsers refuse every other host in their network
// stack (`guard: 'network'`), so no request waits on this process as an intercepted one would.

import { serveStatic } from './static-server.mjs';
import { launchBrowser, openBrowser, openPage } from './browser.mjs';
import { DIST, LOAD_TIMEOUT_MS } from './helpers.mjs';
import { median, percentile } from './stats.mjs';

const TARGETS = { replayMs: 2000, minuteMs: 1000 / 60 };
const REPLAY_MINUTES = 120;
const PLAY_MS = 6000;
// Where a request-mode link may point: the link the console shares (its page with the
// extended models), judged against the target, and the same query on the main page, which
// forwards it there before loading its own module.
const ENTRIES = [
  ['full.html', 'as the console shares it (full.html?…)', true],
  ['', 'on the main page (?…, forwarded)', false],
];

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
};
const strict = process.argv.includes('--strict');
const runs = Number(arg('--runs', '5'));
const policies = arg('--lb', 'least-request,round-robin').split(',');
const verdict = (ok) => (ok ? 'ok' : 'OVER TARGET');

async function shownMinute(page) {
  return Number(await page.locator('[data-field="minute"]').textContent().catch(() => 'NaN'));
}

/**
 * Milliseconds from navigating to the link to the strip's minute 120: a first visit (a fresh
 * context, nothing cached) in a running browser.
 */
async function replayTime(running, siteUrl, page_, lb, seed) {
  const browser = await running.openContext({ width: 1440, height: 900 });
  try {
    const { page, errors } = await openPage(browser);
    const query = `?scenario=free-play&seed=${seed}&engine=requests&lb=${lb}&t=${REPLAY_MINUTES}`;
    const started = Date.now();
    await page.goto(`${siteUrl}${page_}${query}`);
    await page.waitForFunction(
      (minute) => document.querySelector('[data-field="minute"]')?.textContent?.trim() === String(minute),
      REPLAY_MINUTES,
      { timeout: LOAD_TIMEOUT_MS * 3, polling: 'raf' },
    );
    const elapsed = Date.now() - started;
    if (!page.url().includes('full.html')) throw new Error(`request mode did not open full.html: ${page.url()}`);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return elapsed;
  } finally {
    await browser.close();
  }
}

/** Plays at 60 min/s for PLAY_MS; the engine's "minute" measures and the clock's advance. */
async function playMinutes(siteUrl, lb) {
  const browser = await openBrowser({ width: 1440, height: 900, guard: 'network' });
  try {
    const { page, errors } = await openPage(browser);
    await page.goto(`${siteUrl}?scenario=free-play&seed=42&engine=requests&lb=${lb}`);
    await page.locator('tr[data-metric="requests_per_s"] .value').filter({ hasText: /\d/ }).waitFor();
    const speed = page.locator('[data-time="speed"]');
    const value = await speed.evaluate((s) => {
      const option = [...s.options].find((o) => /^\s*60\b/.test(o.textContent));
      return option ? option.value : null;
    });
    if (value === null) throw new Error('no 60 min/s speed in the speed list');
    await speed.selectOption(value);
    const before = await shownMinute(page);
    await page.evaluate(() => performance.clearMeasures('minute'));
    await page.locator('[data-time="play"]').click();
    await page.waitForTimeout(PLAY_MS);
    await page.locator('[data-time="play"]').click();
    const after = await shownMinute(page);
    const minutes = await page.evaluate(() => performance.getEntriesByName('minute').map((e) => e.duration));
    const frames = await page.evaluate(() => performance.getEntriesByName('frame').map((e) => e.duration));
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return { minutes, frames, advanced: after - before };
  } finally {
    await browser.close();
  }
}

const site = await serveStatic(process.env.MEASURE_DIST ?? DIST);
let missed = 0;
try {
  for (const lb of policies) {
    console.log(`lb=${lb}`);
    const running = await launchBrowser();
    try {
      for (const [entry, label, judged] of ENTRIES) {
        const times = [];
        for (let i = 0; i < runs; i++) times.push(await replayTime(running, site.url, entry, lb, i + 1));
        const replayMedian = median(times);
        const replayOk = replayMedian <= TARGETS.replayMs;
        if (judged) missed += replayOk ? 0 : 1;
        console.log(`  replay of a ${REPLAY_MINUTES}-minute link, ${label} (seeds 1–${runs}): ${times.join(', ')} ms`);
        console.log(
          `    median ${replayMedian} ms` +
            (judged ? ` (target ≤ ${TARGETS.replayMs} ms): ${verdict(replayOk)}` : ' (for comparison)'),
        );
      }
    } finally {
      await running.close();
    }

    const { minutes, frames, advanced } = await playMinutes(site.url, lb);
    if (minutes.length === 0) throw new Error('no "minute" measures: is this the extended build?');
    const p95 = percentile(minutes, 95);
    const minuteOk = p95 <= TARGETS.minuteMs;
    missed += minuteOk ? 0 : 1;
    console.log(`  play at 60 min/s for ${PLAY_MS / 1000} s: the clock advanced ${advanced} minutes (${(advanced / (PLAY_MS / 1000)).toFixed(1)} a second)`);
    console.log(
      `    engine per simulated minute: ${minutes.length} minutes, median ${median(minutes).toFixed(2)} ms, ` +
        `p95 ${p95.toFixed(2)} ms (target p95 ≤ ${TARGETS.minuteMs.toFixed(1)} ms): ${verdict(minuteOk)}`,
    );
    if (frames.length) {
      console.log(`    frames: ${frames.length}, median ${median(frames).toFixed(2)} ms, p95 ${percentile(frames, 95).toFixed(2)} ms`);
    }
  }
} finally {
  await site.close();
}
if (strict && missed > 0) {
  console.error(`${missed} target(s) missed`);
  process.exit(1);
}
