// The console in its five languages: each opens from the link's lang= and from the browser's
// preferred language; an unknown lang= gets a notice naming the five; the header's picker
// reopens the same run (minute, actions, link) in another language; numbers follow the
// language (checked against the browser's Intl.NumberFormat); and the test build's
// pseudo-locale (?lang=xx-long: every text 40 % longer, between ⟦ ⟧) shows no text that
// overflows its box at 390 and 1440 px and no text that escaped the catalog.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { openBrowser, openPage } from './browser.mjs';
import { servedSuite } from './suite.mjs';
import { serveStatic } from './static-server.mjs';
import { DIST, load, linkParams, readLog, shownMinute, step, waitForMinute, control, LOAD_TIMEOUT_MS } from './helpers.mjs';

if (!existsSync(join(DIST, 'index.html'))) {
  throw new Error('dist/index.html is missing: run `trunk build --release` first');
}

const LANGUAGES = ['en', 'es', 'zh', 'it', 'ml'];
const catalog = (lang) =>
  JSON.parse(readFileSync(new URL(`../../locales/${lang}/console.json`, import.meta.url), 'utf8'));

/** The page's language and its title as shown. */
async function spoken(page) {
  return {
    lang: await page.evaluate(() => document.documentElement.lang),
    title: (await page.locator('.app-header h1').textContent()).trim(),
  };
}

describe('languages', () => {
  const suite = servedSuite({ width: 1440, height: 900 });

  test('each language opens from lang= in the link, in its own words', async () => {
    for (const lang of LANGUAGES) {
      const { page, errors } = await openPage(suite.browser);
      await load(page, suite.site.url, `?scenario=bad-deploy&seed=7&lang=${lang}`);
      assert.deepEqual(await spoken(page), { lang, title: catalog(lang).AppTitle }, lang);
      const picked = await page.locator('select[data-action="language"]').inputValue();
      assert.equal(picked, lang);
      // The briefing is the scenario's, in the language.
      if (lang !== 'en') {
        const briefing = JSON.parse(readFileSync(new URL(`../../locales/${lang}/scenarios.json`, import.meta.url), 'utf8'))['briefing.BadDeploy'];
        assert.ok((await page.locator('body').textContent()).includes(briefing.slice(0, 20)), lang);
      }
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test("each language opens from the browser's preferred language, English otherwise", async () => {
    const site = await serveStatic(DIST);
    try {
      for (const [locale, lang] of [['es-ES', 'es'], ['zh-CN', 'zh'], ['it-IT', 'it'], ['ml-IN', 'ml'], ['fr-FR', 'en'], ['en-GB', 'en']]) {
        const browser = await openBrowser({ width: 1280, height: 800, locale });
        const { page, errors } = await openPage(browser);
        await load(page, site.url, '?scenario=bad-deploy&seed=7');
        assert.deepEqual(await spoken(page), { lang, title: catalog(lang).AppTitle }, locale);
        // English stays on the first build; another language opens the extended one.
        assert.equal(new URL(page.url()).pathname.endsWith('full.html'), lang !== 'en', locale);
        assert.deepEqual(errors, []);
        await browser.close();
      }
    } finally {
      await site.close();
    }
  });

  test('an unknown lang= is named with the five, and the page speaks the browser\'s language', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=bad-deploy&seed=7&lang=fr');
    const notices = await page.locator('.notices').textContent();
    assert.match(notices, /“fr” is not a language of the console: lang takes en, es, zh, it, ml\./);
    assert.equal((await spoken(page)).lang, 'en');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the picker reopens the same run in another language: same minute, actions and link but lang', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=bad-deploy&seed=7');
    await step(page, 12);
    await control(page, 'rollback').locator('button').click();
    await step(page, 3);
    const minute = await shownMinute(page);
    const before = linkParams(page);
    const log = (await readLog(page)).length;
    for (const lang of ['ml', 'es', 'en']) {
      await Promise.all([
        page.waitForURL((url) => url.searchParams.get('lang') === lang, { timeout: LOAD_TIMEOUT_MS }),
        page.locator('select[data-action="language"]').selectOption(lang),
      ]);
      await waitForMinute(page, minute);
      assert.equal((await spoken(page)).lang, lang);
      const { lang: picked, ...after } = linkParams(page);
      assert.equal(picked, lang);
      const { lang: _, ...expected } = before;
      assert.deepEqual(after, expected, lang);
      assert.equal((await readLog(page)).length, log, lang);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("the policy panel's module, downloaded when opened, speaks the page's language", async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=bad-deploy&seed=7&t=10&lang=es');
    await page.locator('[data-action="open-policy"]').click();
    await page.locator('[data-panel="policy"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
    const panels = JSON.parse(readFileSync(new URL('../../locales/es/panels.json', import.meta.url), 'utf8'));
    const prefix = panels.PolicyActiveDriver.split('{')[0];
    const driver = (await page.locator('[data-field="active-driver"]').textContent()).trim();
    assert.ok(driver.startsWith(prefix), driver);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("numbers use the language's separators, as the browser's Intl.NumberFormat writes them", async () => {
    const { page, errors } = await openPage(suite.browser);
    // The figures src/format.rs pins for each language are CLDR's, as the browser has them.
    const pinned = {
      es: ['1234', '12.345', '1.234.567', '0,5'],
      it: ['1234', '12.345', '1.234.567', '0,5'],
      zh: ['1,234', '12,345', '1,234,567', '0.5'],
      ml: ['1,234', '12,345', '12,34,567', '0.5'],
      en: ['1,234', '12,345', '1,234,567', '0.5'],
    };
    await page.goto(suite.site.url);
    for (const [lang, figures] of Object.entries(pinned)) {
      const intl = await page.evaluate((l) => [1234, 12345, 1234567, 0.5].map((n) => new Intl.NumberFormat(l).format(n)), lang);
      assert.deepEqual(intl, figures, lang);
    }
    for (const [lang, decimal] of [['es', ','], ['it', ','], ['zh', '.'], ['ml', '.']]) {
      await load(page, suite.site.url, `?scenario=bad-deploy&seed=7&t=20&lang=${lang}`);
      const rate = (await page.locator('tr[data-metric="error_rate"] .value').textContent()).trim();
      const other = decimal === ',' ? '.' : ',';
      assert.match(rate, new RegExp(`^\\d+\\${decimal}\\d+`), `${lang}: ${rate}`);
      assert.ok(!rate.includes(other), `${lang}: ${rate}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  // The pseudo-locale, and Malayalam, the longest of the five.
  for (const [lang, width] of [['xx-long', 390], ['xx-long', 1440], ['ml', 390], ['ml', 1440]]) {
    const what = lang === 'xx-long' ? 'the pseudo-locale' : lang;
    test(`${what} at ${width} px: no text overflows its box${lang === 'xx-long' ? ', none escaped the catalog' : ''}`, async () => {
      const browser = await openBrowser({ width, height: width > 500 ? 900 : 844 });
      const site = await serveStatic(DIST);
      try {
        const { page, errors } = await openPage(browser);
        await load(page, site.url, `?scenario=bad-deploy&seed=7&t=30&lang=${lang}`);
        assert.equal((await spoken(page)).lang, lang);
        // Every panel shown (on a phone the tabs show one at a time).
        const tabs = page.locator('.phone-tabs button');
        const report = { overflow: [], unmarked: [] };
        const count = width < 700 ? await tabs.count() : 1;
        assert.ok(count >= 1);
        for (let i = 0; i < count; i++) {
          if (width < 700) await tabs.nth(i).click();
          const found = await page.evaluate(() => {
            const visible = (el) => {
              const r = el.getBoundingClientRect();
              const s = getComputedStyle(el);
              return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
            };
            // Each text's box: the nearest ancestor that is not inline (an inline element has
            // no width of its own). Scrolling boxes are meant to scroll.
            const overflow = [];
            const boxes = new Set();
            const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = texts.nextNode(); n; n = texts.nextNode()) {
              if (!n.textContent.trim() || n.parentElement?.closest('noscript')) continue;
              let el = n.parentElement;
              while (el && getComputedStyle(el).display === 'inline') el = el.parentElement;
              if (el && visible(el)) boxes.add(el);
            }
            for (const el of boxes) {
              if (['SELECT', 'OPTION', 'INPUT', 'TEXTAREA', 'SCRIPT', 'STYLE'].includes(el.tagName)) continue;
              if (el.closest('[translate="no"], .visually-hidden, .skip-link')) continue;
              const s = getComputedStyle(el);
              if (['auto', 'scroll'].includes(s.overflowX)) continue;
              if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 2) {
                overflow.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 60)} (${el.scrollWidth} > ${el.clientWidth})`);
              }
            }
            const unmarked = [];
            let checked = 0;
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const el = n.parentElement;
              if (!el || !visible(el)) continue;
              if (el.closest('[translate="no"], script, style, code, kbd, select[data-action="language"], noscript')) continue;
              if (n.textContent.trim()) checked += 1;
              // What is left outside the markers: letters there came from elsewhere.
              let outside = n.textContent;
              for (let before = ''; before !== outside; ) {
                before = outside;
                outside = outside.replace(/⟦[^⟦⟧]*⟧/g, ' ');
              }
              if (/\p{L}{2,}/u.test(outside)) unmarked.push(`${el.tagName.toLowerCase()}.${el.className}: ${n.textContent.trim().slice(0, 80)}`);
            }
            return { overflow, unmarked, checked };
          });
          // The panel shown has texts, and they were read.
          assert.ok(found.checked > 20, `tab ${i}: only ${found.checked} texts`);
          report.overflow.push(...found.overflow);
          report.unmarked.push(...found.unmarked);
        }
        assert.deepEqual([...new Set(report.overflow)], [], 'text wider than its box');
        if (lang === 'xx-long') assert.deepEqual([...new Set(report.unmarked)], [], 'text not from the catalog');
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
        await site.close();
      }
    });
  }
});
