// The run's files: the bad deploy rolled back at minute 13 and played to minute 30, exported
// from the comparison's module on a screen of pixel ratio 2. The minute records are the ones
// `oncall-sim run` prints for the same run (CSV and JSON lines, byte for byte); the event log's
// CSV has its header and a row per event the command line reports; each chart is a PNG of its
// canvas's size. The run file, opened on another page, replays the same run: its export is
// the same file, byte for byte; the start view of the bare link leads to its import in one step; so does a run of the extended build. A file of a newer format, or not JSON, is refused with words
// that say so, and the page stays where it was.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load, waitForMinute } from './helpers.mjs';
import { serveStatic } from './static-server.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const QUERY = '?scenario=bad-deploy&seed=7&actions=13:rollback&t=30';

/** What `oncall-sim run` prints for the run: records as CSV and JSON lines, and its events. */
function cli() {
  const dir = mkdtempSync(join(tmpdir(), 'oncall-run-files-'));
  const events = join(dir, 'events.jsonl');
  const run = (...extra) => execFileSync(
    'cargo',
    ['run', '-q', '-p', 'oncall-sim', '--', 'run', '--scenario', 'bad-deploy', '--seed', '7',
      '--minutes', '30', '--action', '13:rollback', '--events', events, ...extra],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const csv = run('--format', 'csv');
  const jsonl = run();
  // The last line is the debrief, not an event.
  const eventCount = readFileSync(events, 'utf8').trim().split('\n').length - 1;
  rmSync(dir, { recursive: true, force: true });
  return { csv, jsonl, eventCount };
}

/** The bytes of a download link's `data:` URL (percent-encoded text or base64). */
async function download(page, action) {
  const href = await page.locator(`[data-action="${action}"]`).getAttribute('href');
  const comma = href.indexOf(',');
  if (href.slice(0, comma).endsWith(';base64')) return Buffer.from(href.slice(comma + 1), 'base64');
  return Buffer.from(decodeURIComponent(href.slice(comma + 1)), 'utf8');
}

/** Opens the comparison's module and exports the page's run; returns the download links. */
async function exportRun(page) {
  await page.locator('[data-action="open-compare"]').click();
  await page.locator('[data-run-files]').waitFor({ timeout: 30_000 });
  await page.locator('[data-action="export-run"]').click();
  await page.locator('[data-action="download-run"]').waitFor({ timeout: 60_000 });
  return page.locator('[data-run-files] a[download]').evaluateAll(
    (links) => links.map((a) => ({ action: a.dataset.action, name: a.getAttribute('download') })),
  );
}

/** Width and height of a PNG (its IHDR chunk), after checking its signature. */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Chooses `text` as the run file to open. */
async function importText(page, text, name = 'run.json') {
  await page.locator('[data-field="run-file-input"]').setInputFiles({
    name, mimeType: 'application/json', buffer: Buffer.from(text, 'utf8'),
  });
}

describe('the run\'s files', () => {
  let site;
  let expected;
  let browser;
  before(async () => {
    site = await serveStatic(DIST);
    expected = cli();
    browser = await openBrowser({ width: 1440, height: 900, deviceScaleFactor: 2 });
  });
  after(async () => {
    await browser?.close();
    site.close();
  });

  test('export the records the command line prints, the event log and the charts; import replays the same run', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, QUERY);
    await waitForMinute(page, 30);
    const links = await exportRun(page);
    const names = links.map((l) => l.name);
    const stem = 'oncall-sim-bad-deploy-seed-7-minute-30';
    for (const suffix of ['run.json', 'minutes.csv', 'minutes.jsonl', 'events.csv']) {
      assert.ok(names.includes(`${stem}-${suffix}`), `${suffix} in ${names}`);
    }

    // The records, byte for byte those of `oncall-sim run`.
    const csv = (await download(page, 'download-minutes-csv')).toString('utf8');
    assert.equal(csv, expected.csv);
    assert.match(csv.split('\n')[0], /^minute,clock,requests_per_s,serving,booting,/);
    assert.equal(csv.trim().split('\n').length, 31);
    const jsonl = (await download(page, 'download-minutes-json')).toString('utf8');
    assert.equal(jsonl, expected.jsonl);

    // The event log: its header, and a row per event of the run.
    const events = (await download(page, 'download-events-csv')).toString('utf8');
    const rows = events.trim().split('\n');
    assert.equal(rows[0], 'minute,clock,second,region,event,text');
    assert.equal(rows.length - 1, expected.eventCount);
    assert.ok(rows.some((r) => r.startsWith('13,09:13,,,action,')), events);
    assert.ok(rows.some((r) => r.startsWith('13,09:13,,,rollback_started,"Rollback started:')), events);

    // Each chart: a PNG of its canvas's size, the canvas drawn at the pixel ratio.
    const canvases = await page.locator('figure.chart[data-chart] canvas').evaluateAll(
      (list) => list.map((c) => ({
        id: c.dataset.chart, width: c.width, height: c.height, css: c.getBoundingClientRect().width,
      })),
    );
    assert.ok(canvases.length >= 3, JSON.stringify(canvases));
    for (const canvas of canvases) {
      const action = `download-chart-${canvas.id}`;
      assert.ok(links.some((l) => l.action === action), action);
      const size = pngSize(await download(page, action));
      assert.deepEqual(size, { width: canvas.width, height: canvas.height }, canvas.id);
      assert.ok(Math.abs(canvas.width - 2 * canvas.css) <= 2, JSON.stringify(canvas));
    }

    // The run file: the run's set-up and its records.
    const runFile = (await download(page, 'download-run')).toString('utf8');
    const run = JSON.parse(runFile);
    assert.equal(run.format, 'oncall-sim run');
    assert.equal(run.version, 1);
    assert.equal(run.scenario, 'bad-deploy');
    assert.equal(run.seed, 7);
    assert.equal(run.minutes, 30);
    assert.deepEqual(run.actions, ['13:rollback']);
    assert.equal(run.records.length, 30);
    assert.deepEqual(run.records, jsonl.trim().split('\n').map((line) => JSON.parse(line)));

    // Opened on another page (another scenario), it replays the same run.
    const other = await openPage(browser);
    await load(other.page, site.url, '?scenario=viral-surge&seed=3&t=5');
    await other.page.locator('[data-action="open-compare"]').click();
    await other.page.locator('[data-run-files]').waitFor({ timeout: 30_000 });
    await importText(other.page, runFile);
    await other.page.waitForURL(/scenario=bad-deploy/, { timeout: 30_000 });
    await waitForMinute(other.page, 30);
    const params = new URL(other.page.url()).searchParams;
    assert.equal(params.get('seed'), '7');
    assert.equal(params.get('actions'), '13:rollback');
    await exportRun(other.page);
    assert.equal((await download(other.page, 'download-run')).toString('utf8'), runFile);
    assert.equal((await download(other.page, 'download-minutes-csv')).toString('utf8'), csv);

    // From the start view of the bare link, one button leads to the import, focused (on a
    // phone, where the strip is tallest).
    const fresh = await openPage(browser);
    await fresh.page.setViewportSize({ width: 390, height: 844 });
    await fresh.page.goto(site.url);
    await fresh.page.locator('[data-action="open-run-file"]').click();
    await fresh.page.waitForFunction(
      () => document.activeElement?.id === 'run-file-input',
      null,
      { timeout: 30_000 },
    );
    // In view with its label, below the sticky strip.
    const seen = await fresh.page.evaluate(() => {
      const strip = document.querySelector('.status-strip').getBoundingClientRect();
      const label = document.querySelector('label[for="run-file-input"]').getBoundingClientRect();
      const input = document.activeElement.getBoundingClientRect();
      return { strip: strip.bottom, label: label.top, input: input.bottom, height: innerHeight };
    });
    assert.ok(seen.label >= seen.strip && seen.input <= seen.height, JSON.stringify(seen));
    await importText(fresh.page, runFile);
    await fresh.page.waitForURL(/scenario=bad-deploy/, { timeout: 30_000 });
    await waitForMinute(fresh.page, 30);
    assert.equal(new URL(fresh.page.url()).searchParams.get('actions'), '13:rollback');
    assert.deepEqual(errors, []);
    assert.deepEqual(other.errors, []);
    assert.deepEqual(fresh.errors, []);
  });

  test('a run of the extended build (the request engine) goes out and back the same', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, 'full.html?scenario=hot-key&seed=2&t=8');
    await waitForMinute(page, 8);
    await exportRun(page);
    const runFile = (await download(page, 'download-run')).toString('utf8');
    assert.equal(JSON.parse(runFile).scenario, 'hot-key');
    const other = await openPage(browser);
    await load(other.page, site.url, '?scenario=bad-deploy&seed=1&t=2');
    await other.page.locator('[data-action="open-compare"]').click();
    await other.page.locator('[data-run-files]').waitFor({ timeout: 30_000 });
    await importText(other.page, runFile);
    await other.page.waitForURL(/full\.html\?scenario=hot-key/, { timeout: 30_000 });
    await waitForMinute(other.page, 8);
    await exportRun(other.page);
    assert.equal((await download(other.page, 'download-run')).toString('utf8'), runFile);
    assert.deepEqual(errors, []);
    assert.deepEqual(other.errors, []);
  });

  test('a newer format, or a file that is not JSON, is refused in words and changes nothing', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, QUERY);
    await waitForMinute(page, 30);
    await page.locator('[data-action="open-compare"]').click();
    await page.locator('[data-run-files]').waitFor({ timeout: 30_000 });
    const before = page.url();
    const alert = page.locator('[data-run-files] [role="alert"]');
    await importText(page, JSON.stringify({
      format: 'oncall-sim run', version: 2, scenario: 'bad-deploy', seed: 1, minutes: 3,
    }));
    await alert.filter({ hasText: /newer/ }).waitFor({ timeout: 30_000 });
    assert.match(await alert.textContent(),
      /The run file cannot be opened: line 1, column \d+, version: version 2 is newer than this program reads \(version 1\)/);
    await importText(page, 'minute,clock\n0,09:00\n', 'minutes.csv');
    await alert.filter({ hasText: /line 1, column 1/ }).waitFor({ timeout: 30_000 });
    assert.equal(page.url(), before);
    assert.deepEqual(errors, []);
  });
});
