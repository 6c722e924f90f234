// Measures how the console answers while it plays request mode at its highest speed (720
// simulated minutes a second), with Maglev, hedging and three regions by default, in the
// built console (dist/), and prints the figures against their targets:
//
//   - the longest task of the page while it plays (the Long Tasks API: every task over 50 ms);
//   - the input delay of key presses sent while it plays (from the key event's time stamp to
//     its first handler), every PRESS_EVERY_MS, median and longest;
//   - Space to pause: from the key event's time stamp to the frame in which the play button
//     shows "Play" again, over PAUSES presses, each after PLAY_MS of play.
//
// Targets: each ≤ 200 ms. Usage:
//   node tests/e2e/measure-responsiveness.mjs [--strict] [--query 'scenario=…&…']
// Everything talks to 127.0.0.1 only (`guard: 'network'`).

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, LOAD_TIMEOUT_MS } from './helpers.mjs';
import { median } from './stats.mjs';

const TARGET_MS = 200;
const PLAY_MS = 4000;
const PRESS_EVERY_MS = 250;
const PAUSES = 3;

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
};
const strict = process.argv.includes('--strict');
const query = arg(
  '--query',
  'scenario=free-play&seed=7&engine=requests&lb=maglev&hedge=on&regions=3&speed=720',
);
const verdict = (ok) => (ok ? 'ok' : 'OVER TARGET');

// Installed before the page's own scripts: long tasks, key delays and the play button's
// flips, all in the page's clock.
function instrument() {
  const seen = { longTasks: [], keyDelays: [], spaceAt: [], pausedAt: [] };
  globalThis.__responsiveness = seen;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  addEventListener(
    'keydown',
    (e) => {
      seen.keyDelays.push(performance.now() - e.timeStamp);
      if (e.key === ' ') seen.spaceAt.push(e.timeStamp);
    },
    { capture: true },
  );
  let wasPlaying = false;
  const watch = () => {
    const label = document.querySelector('[data-time="play"] span')?.textContent ?? '';
    const playing = /pause/i.test(label);
    if (wasPlaying && !playing) seen.pausedAt.push(performance.now());
    wasPlaying = playing;
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}

const site = await serveStatic(process.env.MEASURE_DIST ?? DIST);
const browser = await openBrowser({ width: 1440, height: 900, guard: 'network' });
let missed = 0;
try {
  const { page, errors } = await openPage(browser);
  await page.addInitScript(instrument);
  await page.goto(`${site.url}full.html?${query}`);
  await page.locator('tr[data-metric="requests_per_s"] .value').filter({ hasText: /\d/ }).waitFor({
    timeout: LOAD_TIMEOUT_MS,
  });
  await page.locator('[data-time="play"]:not([disabled])').waitFor({ timeout: LOAD_TIMEOUT_MS });
  // The link must be taken whole (a notice would mean a setting fell back to its default).
  const notices = await page.locator('.notices .notice p').allTextContents();
  if (notices.length) throw new Error(`the link was not taken whole: ${notices.join(' | ')}`);
  if (/regions=[23]/.test(query)) await page.locator('[data-panel="regions"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
  // The start-up's tasks are not play's.
  await page.evaluate(() => {
    const seen = globalThis.__responsiveness;
    seen.longTasks.length = 0;
    seen.keyDelays.length = 0;
  });
  const startMinute = Number(await page.locator('[data-field="minute"]').textContent());
  for (let pause = 0; pause < PAUSES; pause++) {
    // Space as a shortcut, with no control focused.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press(' ');
    await page.locator('[data-time="play"]', { hasText: /pause/i }).waitFor({ timeout: LOAD_TIMEOUT_MS });
    const until = Date.now() + PLAY_MS;
    while (Date.now() < until) {
      await page.waitForTimeout(PRESS_EVERY_MS);
      // A key that is no shortcut: its delay is the page's answer time, nothing else.
      await page.keyboard.press('Shift');
    }
    await page.keyboard.press(' ');
    await page.locator('[data-time="play"]', { hasText: /play/i }).waitFor({ timeout: LOAD_TIMEOUT_MS });
  }
  await page.waitForTimeout(200);
  const seen = await page.evaluate(() => globalThis.__responsiveness);
  const endMinute = Number(await page.locator('[data-field="minute"]').textContent());
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

  const spaces = seen.spaceAt.filter((_, i) => i % 2 === 1);
  const pauses = spaces.map((at) => (seen.pausedAt.find((t) => t >= at) ?? Infinity) - at);
  const longest = Math.max(0, ...seen.longTasks);
  const delays = seen.keyDelays;
  const report = [
    ['longest task while playing', longest, `${seen.longTasks.length} tasks over 50 ms`],
    ['longest input delay', Math.max(...delays), `median ${median(delays).toFixed(1)} ms over ${delays.length} key presses`],
    ['Space to paused (longest)', Math.max(...pauses), `each: ${pauses.map((p) => p.toFixed(0)).join(', ')} ms`],
  ];
  console.log(`full.html?${query}: ${PAUSES} × ${PLAY_MS / 1000} s of play, minute ${startMinute} → ${endMinute}`);
  for (const [label, value, detail] of report) {
    const ok = value <= TARGET_MS;
    missed += ok ? 0 : 1;
    console.log(`  ${label}: ${value.toFixed(0)} ms (target ≤ ${TARGET_MS} ms): ${verdict(ok)}; ${detail}`);
  }
} finally {
  await browser.close();
  await site.close();
}
if (strict && missed > 0) {
  console.error(`${missed} target(s) missed`);
  process.exit(1);
}
