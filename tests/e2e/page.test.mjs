// End-to-end tests of the built site (dist/, from `trunk build --release`) in headless Chromium.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', '..', 'dist');
const artifacts = join(here, 'artifacts');

// Loading and compiling the wasm takes well under a second; the margin is for slow CI machines.
const LOAD_TIMEOUT_MS = 20_000;

const metricCell = (page, field) => page.locator(`tr[data-metric="${field}"] td`);
const runFact = (page, field) => page.locator(`[data-field="${field}"]`);

/** Parses the leading number of a cell such as "1,125 req/s" or "77 %". */
function leadingNumber(text) {
  const match = text.replace(/[,\u00a0\u202f]/g, '').match(/-?\d+(\.\d+)?/);
  assert.ok(match, `no number in ${JSON.stringify(text)}`);
  return Number(match[0]);
}

async function waitForFirstRow(page) {
  await metricCell(page, 'requests_per_s').filter({ hasText: /\d/ }).waitFor({
    timeout: LOAD_TIMEOUT_MS,
  });
}

describe('web console', () => {
  let site;
  let browser;

  before(async () => {
    assert.ok(existsSync(join(dist, 'index.html')), 'dist/index.html is missing: run trunk build');
    site = await serveStatic(dist);
    browser = await openBrowser();
    await mkdir(artifacts, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    assert.deepEqual(browser?.offHost ?? [], [], 'the page tried to reach another host');
  });

  test('free play with ?seed=42 shows that seed and plausible metrics', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${site.url}?seed=42`);
    await waitForFirstRow(page);

    assert.equal((await runFact(page, 'seed').textContent()).trim(), '42');
    assert.equal(new URL(page.url()).searchParams.get('seed'), '42');

    const requests = leadingNumber(await metricCell(page, 'requests_per_s').textContent());
    // Free play opens around 1,125 req/s (base 900 req/s at the midday peak); the diurnal swing
    // is ±25 % and the minute noise a few per cent.
    assert.ok(requests > 300 && requests < 3000, `requests: ${requests}`);

    const serving = leadingNumber(await metricCell(page, 'serving').textContent());
    assert.ok(Number.isInteger(serving) && serving >= 1 && serving <= 40, `serving: ${serving}`);

    assert.equal(await page.locator('.notice').count(), 0, 'no notice for a valid seed');
    assert.deepEqual(errors, []);
  });

  test('the clock advances one simulated minute per second', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${site.url}?seed=7`);
    await waitForFirstRow(page);
    const first = leadingNumber(await runFact(page, 'minute').textContent());
    await page.waitForFunction(
      (before) => {
        const text = document.querySelector('[data-field="minute"]')?.textContent ?? '';
        return Number(text.replace(/\D/g, '')) >= before + 2;
      },
      first,
      { timeout: 10_000 },
    );
    assert.deepEqual(errors, []);
  });

  test('a malformed seed is reported, named, and replaced by a random one', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${site.url}?seed=forty-two`);
    await waitForFirstRow(page);

    const notice = (await page.locator('.notice').textContent()) ?? '';
    assert.match(notice, /seed/);
    assert.match(notice, /0 to 4294967295/);

    const shown = (await runFact(page, 'seed').textContent()).trim();
    assert.match(shown, /^\d+$/);
    assert.ok(Number(shown) <= 4294967295);
    assert.equal(new URL(page.url()).searchParams.get('seed'), shown);
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: join(artifacts, 'console-390-bad-seed.png') });
    assert.deepEqual(errors, []);
  });

  test('without a seed a random one is drawn and written into the link', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${site.url}?other=kept#frag`);
    await waitForFirstRow(page);

    const shown = (await runFact(page, 'seed').textContent()).trim();
    assert.match(shown, /^\d+$/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('seed'), shown);
    assert.equal(url.searchParams.get('other'), 'kept');
    assert.equal(url.hash, '#frag');
    assert.deepEqual(errors, []);
  });

  for (const width of [390, 1440]) {
    test(`renders at ${width} px without horizontal overflow (screenshot)`, async () => {
      const { page, errors } = await openPage(browser);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${site.url}?seed=42`);
      await waitForFirstRow(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `page is ${overflow} px wider than the viewport`);
      await page.screenshot({ path: join(artifacts, `console-${width}.png`), fullPage: true });
      assert.deepEqual(errors, []);
    });
  }
});
