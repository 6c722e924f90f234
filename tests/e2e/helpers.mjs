// Shared helpers of the end-to-end tests: reading the console's state through its data-*
// attributes (independent of the wording), stepping deterministically, waiting for conditions.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const DIST = join(here, '..', '..', 'dist');
export const ARTIFACTS = join(here, 'artifacts');

// Loading and compiling the wasm takes well under a second; the margin is for slow CI machines.
export const LOAD_TIMEOUT_MS = 20_000;
// Waiting for a playing clock: generous, since only the condition matters, not the time.
export const PLAY_TIMEOUT_MS = 30_000;

export const metricValue = (page, field) => page.locator(`tr[data-metric="${field}"] .value`);
export const control = (page, name) => page.locator(`[data-control="${name}"]`);
export const timeButton = (page, name) => page.locator(`[data-time="${name}"]`);

/** Parses the leading number of a cell such as "1125 req/s" or "77 %". */
export function leadingNumber(text) {
  const match = text.replace(/[,\u00a0\u202f]/g, '').match(/-?\d+(\.\d+)?/);
  assert.ok(match, `no number in ${JSON.stringify(text)}`);
  return Number(match[0]);
}

/**
 * Opens the console at `query` and waits for its first metrics row (in the page, not
 * necessarily on screen: on a phone the metrics are a tab of their own).
 */
export async function load(page, siteUrl, query = '') {
  await page.goto(`${siteUrl}${query}`);
  await metricValue(page, 'requests_per_s').filter({ hasText: /\d/ }).waitFor({
    state: 'attached',
    timeout: LOAD_TIMEOUT_MS,
  });
}

/** The minutes played, as the status strip shows them. */
export async function shownMinute(page) {
  return Number((await page.locator('[data-field="minute"]').textContent()).trim());
}

/** Waits until the status strip shows `minute` (replays of a link take a frame or more). */
export async function waitForMinute(page, minute, timeout = LOAD_TIMEOUT_MS) {
  await page.waitForFunction(
    (m) => document.querySelector('[data-field="minute"]')?.textContent.trim() === String(m),
    minute,
    { timeout },
  );
}

/** Waits until every chart has been drawn with `minutes` minutes of history. */
export async function waitForCharts(page, minutes) {
  await page.waitForFunction(
    (n) => {
      const canvases = [...document.querySelectorAll('canvas[data-chart]')];
      return canvases.length === 8 && canvases.every((c) => c.dataset.minutes === String(n));
    },
    minutes,
    { timeout: LOAD_TIMEOUT_MS },
  );
}

/** Clicks Step `n` times, waiting for each minute, then for the charts. */
export async function step(page, n = 1) {
  let minute = await shownMinute(page);
  for (let i = 0; i < n; i++) {
    await timeButton(page, 'step').click();
    minute += 1;
    await waitForMinute(page, minute);
  }
  await waitForCharts(page, minute);
}

/** Every metric row: field → shown value. */
export async function readMetrics(page) {
  return page.$$eval('tr[data-metric]', (rows) =>
    Object.fromEntries(
      rows.map((r) => [r.dataset.metric, r.querySelector('.value').textContent.trim()]),
    ),
  );
}

/** Every metric row's level: field → normal | warning | critical. */
export async function readLevels(page) {
  return page.$$eval('tr[data-metric]', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.metric, r.dataset.level])),
  );
}

/** The event log's lines, newest first: "HH:MM kind text". */
export async function readLog(page) {
  return page.$$eval('.event-log li', (items) =>
    items.map((li) => li.textContent.replace(/\s+/g, ' ').trim()),
  );
}

/** A digest of each chart's pixels, by chart id. */
export async function chartDigests(page) {
  const urls = await page.$$eval('canvas[data-chart]', (canvases) =>
    canvases.map((c) => [c.dataset.chart, c.toDataURL('image/png')]),
  );
  return Object.fromEntries(
    urls.map(([id, url]) => [id, createHash('sha256').update(url).digest('hex').slice(0, 16)]),
  );
}

/** The link's query parameters as an object. */
export function linkParams(page) {
  return Object.fromEntries(new URL(page.url()).searchParams.entries());
}

/** Waits until the link's parameter `name` is `value` (the link is rewritten at the next frame). */
export async function waitForLinkParam(page, name, value) {
  await page.waitForFunction(
    ([n, v]) => new URL(location.href).searchParams.get(n) === v,
    [name, value],
    { timeout: 10_000 },
  );
}

/** What a run shows at its minute that a replay of its link must show too. */
export async function playedState(page) {
  return {
    minute: await shownMinute(page),
    clock: (await page.locator('[data-field="clock"]').textContent()).trim(),
    metrics: await readMetrics(page),
    log: await readLog(page),
  };
}
