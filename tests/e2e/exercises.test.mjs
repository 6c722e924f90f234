// End-to-end tests of an author's exercise in the page: opening its file (the picker and a
// drop), the link that carries it in its fragment (replayed in a fresh browser), the notices
// for a bad file and a broken link, and the postmortem draft of a finished run.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { openBrowser, openPage } from './browser.mjs';
import { load, playedState, readLog, shownMinute, step, waitForMinute } from './helpers.mjs';
import { servedSuite } from './suite.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const EXERCISES = join(here, '..', '..', 'sim', 'tests', 'data', 'exercises');
const GOOD = join(EXERCISES, 'good', 'cache-flush-at-14.json');
const BAD = join(EXERCISES, 'bad', 'unknown-fault.json');

const TITLE = 'Cache flush at 14:00, half a database';

/** What the page shows of the exercise and the run. */
async function shown(page) {
  return {
    custom: (await page.locator('[data-field="custom-title"]').textContent()).trim(),
    briefing: (await page.locator('[data-field="briefing"]').textContent()).trim(),
    ...(await playedState(page)),
  };
}

async function chooseFile(page, path, name) {
  const buffer = await readFile(path);
  await page.locator('[data-field="exercise-file"]').setInputFiles({ name, mimeType: 'application/json', buffer });
}

async function status(page) {
  const s = page.locator('.exercise-status');
  await s.waitFor();
  return { kind: await s.getAttribute('data-status'), text: (await s.textContent()).trim() };
}

describe('an author\'s exercise in the page', () => {
  const served = servedSuite();

  test('a file opened with the picker runs as a custom exercise, and its link replays the same run elsewhere', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.site.url, 'full.html?scenario=bad-deploy&seed=5');
    await chooseFile(page, GOOD, 'cache-flush-at-14.json');
    const said = await status(page);
    assert.equal(said.kind, 'ok', said.text);
    assert.match(said.text, /Opened “Cache flush at 14:00, half a database” from cache-flush-at-14\.json/);
    await page.locator('[data-field="custom-title"]').waitFor();
    const url = new URL(page.url());
    assert.match(url.hash, /^#exercise=[A-Za-z0-9_-]+$/, 'the address carries the exercise');
    assert.ok(url.hash.length < 2500, `fragment of ${url.hash.length} characters`);
    assert.equal(url.searchParams.get('scenario'), null, 'a custom exercise names no built-in scenario');
    assert.equal(url.searchParams.get('seed'), '5', 'the seed is kept');
    // The author's words, and the picker says it is custom.
    const selected = await page.locator('#scenario-select option:checked').textContent();
    assert.equal(selected.trim(), `Custom: ${TITLE}`);
    assert.match(await page.locator('[data-field="briefing"]').textContent(), /maintenance script flushes 60 % to 100 %/);
    // The exercise starts at 13:45.
    assert.match(await page.locator('[data-field="clock"]').textContent(), /13:4[5-9]/);
    await step(page, 3);
    const here = await shown(page);
    // The shared link replays the same run in a browser that never saw the file.
    const link = page.url();
    const fresh = await openBrowser({ width: 1280, height: 900 });
    try {
      const { page: other, errors: otherErrors } = await openPage(fresh);
      await load(other, '', link);
      await waitForMinute(other, here.minute);
      assert.deepEqual(await shown(other), here);
      // The first page sends such a link to the page that reads exercises.
      const first = link.replace('full.html', '');
      await load(other, '', first);
      await waitForMinute(other, here.minute);
      assert.ok(other.url().includes('full.html'), other.url());
      assert.deepEqual(await shown(other), here);
      assert.deepEqual(otherErrors, []);
    } finally {
      await fresh.close();
    }
    // Choosing a built-in scenario closes the exercise and drops the fragment.
    await page.locator('#scenario-select').selectOption('bad-deploy');
    await page.locator('[data-field="custom-title"]').waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).hash, '');
    // Back returns to the exercise's run.
    await page.goBack();
    await page.locator('[data-field="custom-title"]').waitFor();
    assert.match(new URL(page.url()).hash, /^#exercise=/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a file dropped on the page opens the same run as the picker', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.site.url, 'full.html?scenario=free-play&seed=5');
    const text = await readFile(GOOD, 'utf8');
    await page.evaluate((content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], 'dropped.json', { type: 'application/json' }));
      const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
      document.body.dispatchEvent(over);
      const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
      document.body.dispatchEvent(drop);
    }, text);
    const said = await status(page);
    assert.equal(said.kind, 'ok', said.text);
    assert.match(said.text, /from dropped\.json/);
    const dropped = await shown(page);
    assert.equal(dropped.custom, TITLE);
    const dropLink = new URL(page.url());
    // The picker's run of the same file, same seed: the same link and the same minute.
    await load(page, served.site.url, 'full.html?scenario=free-play&seed=5');
    await chooseFile(page, GOOD, 'cache-flush-at-14.json');
    await page.locator('[data-field="custom-title"]').waitFor();
    assert.equal(new URL(page.url()).hash, dropLink.hash);
    assert.deepEqual(await shown(page), dropped);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('an exercise written in the editor previews, plays, and replays from its link and its file in a fresh browser', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.site.url, 'full.html?scenario=cache-flush&seed=3');
    await page.locator('[data-action="open-editor"]').click();
    const editor = page.locator('[data-panel="editor"]');
    await editor.waitFor();
    const ok = () => editor.locator('.editor-status[data-status="ok"]').waitFor();
    await ok();
    await editor.locator('[data-field="editor-title"]').fill('Flush, then a slow dependency');
    await editor.locator('[data-field="editor-briefing"]').fill('The cache empties, and later every request waits on a slower dependency.');
    // A mistake is named by the reader, with its field.
    await editor.locator('[data-list="timeline"] [data-field="inject-at"]').first().fill('soon');
    await editor.locator('.editor-status[data-status="error"]').waitFor();
    assert.match(await editor.locator('.editor-status').textContent(), /timeline\[0\]\.at: must be a number/);
    await editor.locator('[data-list="timeline"] [data-field="inject-at"]').first().fill('20, 30');
    await ok();
    // A second inject: added, turned into a slower dependency, moved first, its fields set.
    await editor.locator('[data-action="add-inject"]').click();
    const second = editor.locator('[data-list="timeline"] li[data-inject="1"]');
    await second.locator('[data-field="inject-fault"]').selectOption('dependency_latency');
    await editor.locator('[data-list="timeline"] li[data-inject="1"] [data-field="inject-extra_ms"]').waitFor();
    await editor.locator('[data-list="timeline"] li[data-inject="1"] [data-action="move-up"]').click();
    const first = editor.locator('[data-list="timeline"] li[data-inject="0"]');
    assert.equal(await first.locator('[data-field="inject-fault"]').inputValue(), 'dependency_latency');
    await first.locator('[data-field="inject-at"]').fill('60');
    await first.locator('[data-field="inject-minutes"]').fill('20');
    await first.locator('[data-field="inject-extra_ms"]').fill('150, 250');
    await editor.locator('[data-field="editor-minutes_paging_at_most"]').fill('30');
    await ok();
    // The preview: both budgets drawn.
    await editor.locator('[data-action="editor-preview"]').click();
    const preview = editor.locator('[data-field="editor-preview"]');
    await preview.waitFor();
    assert.equal(await preview.locator('polyline').count(), 2);
    assert.match(await preview.locator('[data-field="editor-preview-summary"]').textContent(), /Left alone the run spends [\d.]+ % .* with the expected response, [\d.]+ %/);
    // Its link and its file.
    await editor.locator('[data-action="editor-link"]').click();
    const link = await editor.locator('[data-field="editor-link"]').inputValue();
    assert.match(link, /full\.html\?seed=3#exercise=[A-Za-z0-9_-]+$/);
    const href = await editor.locator('[data-action="editor-download"]').getAttribute('href');
    const fileText = decodeURIComponent(href.slice(href.indexOf(',') + 1));
    assert.match(fileText, /"title": "Flush, then a slow dependency"/);
    // Played here, five minutes.
    await editor.locator('[data-action="editor-play"]').click();
    await page.locator('[data-field="custom-title"]', { hasText: 'Flush, then a slow dependency' }).waitFor();
    await step(page, 5);
    const here = await shown(page);
    // The link in a fresh browser: the same run.
    const fresh = await openBrowser({ width: 1280, height: 900 });
    try {
      const { page: other, errors: otherErrors } = await openPage(fresh);
      await load(other, '', link);
      await step(other, 5);
      assert.deepEqual(await shown(other), here);
      // The file, imported there: the same exercise, the same link.
      await load(other, '', link.replace(/#.*$/, '').replace('seed=3', 'scenario=free-play&seed=3'));
      await other.locator('[data-field="exercise-file"]').setInputFiles({
        name: 'flush-then-dependency.json',
        mimeType: 'application/json',
        buffer: Buffer.from(fileText),
      });
      await other.locator('[data-field="custom-title"]').waitFor();
      assert.equal(new URL(other.url()).hash, new URL(link).hash);
      await step(other, 5);
      assert.deepEqual(await shown(other), here);
      assert.deepEqual(otherErrors, []);
    } finally {
      await fresh.close();
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("an exercise's hint shows at its minute until dismissed", async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.site.url, 'full.html?scenario=free-play&seed=5');
    await chooseFile(page, GOOD, 'cache-flush-at-14.json');
    await page.locator('[data-field="custom-title"]').waitFor();
    await step(page, 8);
    assert.equal(await page.locator('.hint').count(), 0, 'no hint before minute 10');
    await step(page, 2);
    const hint = page.locator('.hint[data-hint="0"]');
    await hint.waitFor();
    assert.match(await hint.textContent(), /^Hint: The database has half its usual capacity today/);
    await hint.locator('[data-action="dismiss-hint"]').click();
    await hint.waitFor({ state: 'detached' });
    await step(page, 1);
    assert.equal(await page.locator('.hint').count(), 0, 'a dismissed hint stays dismissed');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a bad file is refused with its line, column and field, and the run goes on', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.site.url, 'full.html?scenario=bad-deploy&seed=5');
    await step(page, 2);
    const before = await readLog(page);
    await chooseFile(page, BAD, 'unknown-fault.json');
    const said = await status(page);
    assert.equal(said.kind, 'error');
    assert.match(said.text, /^unknown-fault\.json was not opened: line \d+, column \d+, timeline\[0\]\.fault: unknown fault kind/);
    assert.match(said.text, /allowed: bad_deploy, /);
    assert.equal(await shownMinute(page), 3);
    assert.deepEqual(await readLog(page), before);
    assert.equal(await page.locator('[data-field="custom-title"]').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a broken exercise in a link gets a notice and the rest of the link opens', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.site.url, 'full.html?scenario=viral-surge&seed=9#exercise=AAAA');
    const notices = await page.$$eval('.notice p', (ps) => ps.map((p) => p.textContent));
    assert.ok(
      notices.some((n) => /The exercise in this link was not opened: .*not DEFLATE data/.test(n)),
      JSON.stringify(notices),
    );
    assert.equal(await page.locator('#scenario-select').inputValue(), 'viral-surge');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the postmortem of the bad deploy, seed 7, rolled back at 09:26, has the right times', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.site.url, 'full.html?scenario=bad-deploy&seed=7&actions=26:rollback&t=120');
    const write = page.locator('[data-action="write-postmortem"]');
    await write.waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-action="write-postmortem"]').disabled, null, {
      timeout: 30_000,
    });
    await write.click();
    const draft = await page.locator('[data-field="postmortem"]').inputValue();
    assert.match(draft, /^# /);
    for (const heading of ['## Summary', '## Impact', '## Detection', '## Timeline', '## Action items']) {
      assert.ok(draft.includes(heading), `${heading} in\n${draft}`);
    }
    assert.match(draft, /\*\*09:08\*\* Build 2, a bad build, started rolling out/);
    assert.match(draft, /\*\*09:25\*\* The page fired/);
    assert.match(draft, /\*\*09:26\*\* Action: `rollback`/);
    const href = await page.locator('[data-action="download-postmortem"]').getAttribute('href');
    assert.ok(href.startsWith('data:text/markdown;charset=utf-8,'), href.slice(0, 60));
    assert.equal(decodeURIComponent(href.slice(href.indexOf(',') + 1)), draft);
    assert.equal(
      await page.locator('[data-action="download-postmortem"]').getAttribute('download'),
      'postmortem-bad-deploy-seed-7.md',
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
});
