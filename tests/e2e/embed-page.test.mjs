// End-to-end tests of the sample lesson page itself (docs/embed.html, built into
// dist/embed.html), against hostile links: its `app` parameter names the simulator's address,
// and anyone can write a link to the page. Only an http(s) address (a path on the page's site,
// or another site) may become a frame's address; anything else is refused with a notice and
// the frames show the simulator beside the page. Nothing in the link may run as script, the
// page's Content-Security-Policy is never violated, and commands go to the simulator's origin
// only. The hostile links do not need the simulator to start: only the page's own script and
// the frames' addresses are looked at.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, LOAD_TIMEOUT_MS } from './helpers.mjs';

// Script that would show itself if it ran: a dialog, and an element the test looks for.
const RUN = `alert(origin)`;
const MARKUP = `"><script>${RUN}</script><img src=x onerror=${RUN} data-injected>`;

// `{lesson}` stands for the lesson page's origin (the blob: and view-source: values need one).
const HOSTILE = [
  `javascript:${RUN}//`,
  `JaVaScRiPt:${RUN}//`,
  ` javascript:${RUN}//`,
  `\u0001javascript:${RUN}//`,
  `\u0000javascript:${RUN}//`,
  `java\tscript:${RUN}//`,
  `java\nscript:${RUN}//`,
  `\u2028javascript:${RUN}//`,
  `ｊａｖａｓｃｒｉｐｔ:${RUN}//`,
  `javascript://%0A${RUN}`,
  `data:text/html,<script>${RUN}</script>`,
  `data:text/html;base64,${Buffer.from(`<script>${RUN}</script>`).toString('base64')}`,
  `DATA:text/html,%3Cscript%3E${RUN}%3C/script%3E`,
  'blob:{lesson}/0b4f5b8c-1e2d-4c3b-9a8f-7d6e5c4b3a21',
  'file:///etc/passwd',
  'vbscript:msgbox(1)',
  'about:blank',
  'view-source:{lesson}/embed.html',
  'ftp://127.0.0.1/',
  'ws://127.0.0.1/',
  'chrome://settings/',
  'http://user:secret@127.0.0.1/',
  '\\\\evil.example/',
  `"><script>${RUN}</script>`,
  `'><img src=x onerror=${RUN}>`,
  `<img src=x onerror=${RUN}>`,
  `<svg onload=${RUN}>`,
  '   ',
];

/** `value` quoted, with control characters and letters outside ASCII escaped (for a test's name). */
const shown = (value) =>
  JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Whether `url` is an http(s) address. */
const isHttp = (url) => ['http:', 'https:'].includes(new URL(url).protocol);

describe('the sample lesson page against hostile links', () => {
  let lesson;
  let app;
  let elsewhere;
  let elsewhereRoot;
  let browser;

  before(async () => {
    assert.ok(existsSync(join(DIST, 'embed.html')), 'dist/embed.html is missing: run trunk build');
    // The lesson page's site, the simulator's site (another origin), and a third site that a
    // frame can be sent to.
    lesson = await serveStatic(DIST);
    app = await serveStatic(DIST);
    elsewhereRoot = await mkdtemp(join(tmpdir(), 'oncall-e2e-elsewhere-'));
    await writeFile(join(elsewhereRoot, 'index.html'), '<!doctype html><title>Elsewhere</title><p>Elsewhere</p>\n');
    elsewhere = await serveStatic(elsewhereRoot);
    browser = await openBrowser({ width: 1280, height: 900 });
  });

  after(async () => {
    await browser?.close();
    await lesson?.close();
    await app?.close();
    await elsewhere?.close();
    if (elsewhereRoot) await rm(elsewhereRoot, { recursive: true, force: true });
    assert.deepEqual(browser?.offHost ?? [], [], 'the page tried to reach another host');
    assert.deepEqual(browser?.violations ?? [], [], 'the Content-Security-Policy blocked something');
  });

  /**
   * Opens `url` in a new page that records dialogs (and dismisses them), every frame's
   * navigations, Content-Security-Policy violations in any frame, and, in each frame, the
   * messages it receives.
   */
  async function openWatched(url) {
    const { page, errors } = await openPage(browser);
    const dialogs = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
    const navigations = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    const violations = [];
    await page.exposeFunction('reportViolation', (violation) => violations.push(violation));
    await page.addInitScript(() => {
      window.addEventListener(
        'securitypolicyviolation',
        (e) => window.reportViolation(`${e.effectiveDirective} blocked ${e.blockedURI} in ${location.origin}${location.pathname}`),
        true,
      );
      if (window !== window.top) {
        window.received = [];
        window.addEventListener('message', (e) => window.received.push({ origin: e.origin, data: e.data }));
      }
    });
    await page.goto(url);
    return { page, errors, dialogs, navigations, violations };
  }

  /** The address of each frame element of the page, as its `src` property reads. */
  const frameSources = (page) => page.$$eval('iframe', (frames) => frames.map((f) => f.src));

  /** The notice the page shows when it refuses `app`: its text, or null when hidden. */
  async function refusal(page) {
    const notice = page.locator('#app-refused');
    if ((await notice.count()) === 0 || !(await notice.isVisible())) return null;
    return notice.textContent();
  }

  /** Asserts that both frames show `origin`'s simulator at `/` with the lesson's options. */
  async function assertFramesAt(page, origin) {
    const sources = await frameSources(page);
    assert.equal(sources.length, 2, `frames: ${JSON.stringify(sources)}`);
    for (const src of sources) {
      const url = new URL(src);
      assert.equal(url.origin, origin, `a frame's address: ${src}`);
      assert.equal(url.pathname, '/', `a frame's address: ${src}`);
      assert.equal(url.searchParams.get('embed'), '1', `a frame's address: ${src}`);
      assert.equal(url.searchParams.get('origins'), new URL(lesson.url).origin, `a frame's address: ${src}`);
    }
    assert.deepEqual(
      sources.map((s) => new URL(s).searchParams.get('scenario')),
      ['bad-deploy', 'cache-flush'],
    );
  }

  for (const hostile of HOSTILE) {
    test(`app=${shown(hostile)} is refused, and nothing in the link runs`, async () => {
      const lessonOrigin = new URL(lesson.url).origin;
      const value = hostile.replaceAll('{lesson}', lessonOrigin);
      // Markup in every other part of the link too: parameters the page does not read, a
      // second app after the first, and the fragment.
      const query = new URLSearchParams({ app: value, scenario: MARKUP, origins: MARKUP, note: MARKUP });
      query.append('app', MARKUP);
      const { page, errors, dialogs, navigations, violations } = await openWatched(
        `${lesson.url}embed.html?${query}#${MARKUP}`,
      );
      try {
        // Give a script that the page may have let in (a javascript: frame runs in a task of
        // its own) the time to run.
        await page.waitForTimeout(300);

        assert.deepEqual(dialogs, [], 'a dialog opened: script ran');
        assert.deepEqual(violations, [], 'the Content-Security-Policy was violated');
        assert.deepEqual(errors, [], 'the page reported errors');
        const injected = await page.evaluate(() => ({
          scripts: document.scripts.length,
          images: document.images.length,
          svg: document.querySelectorAll('svg, [data-injected], [onerror], [onload]').length,
        }));
        assert.deepEqual(injected, { scripts: 1, images: 0, svg: 0 }, 'markup from the link was added');

        assert.equal(page.url().startsWith(`${lesson.url}embed.html?`), true, `the page is at ${page.url()}`);
        for (const url of navigations) {
          assert.ok(url === 'about:blank' || isHttp(url), `a frame went to ${url}`);
        }
        for (const frame of page.frames()) {
          assert.ok(isHttp(frame.url()), `a frame is at ${frame.url()}`);
        }
        await assertFramesAt(page, lessonOrigin);

        const notice = await refusal(page);
        assert.ok(notice, 'no notice that app= was refused');
        assert.match(notice, /refused/);
        assert.doesNotMatch(notice, /script|onerror|onload|[<>]/, 'the notice repeats the link');
      } finally {
        await page.close();
      }
    });
  }

  test('without app, or with a path on the site, the frames show the simulator beside the page', async () => {
    const lessonOrigin = new URL(lesson.url).origin;
    for (const query of ['', '?app=', '?app=./', `?app=${encodeURIComponent('/')}`]) {
      const { page, errors, dialogs, violations } = await openWatched(`${lesson.url}embed.html${query}`);
      try {
        await assertFramesAt(page, lessonOrigin);
        assert.equal(await refusal(page), null, `${query}: a notice is shown`);
        assert.deepEqual(dialogs, []);
        assert.deepEqual(violations, [], `${query}: the Content-Security-Policy was violated`);
        assert.deepEqual(errors, [], `${query}: the page reported errors`);
      } finally {
        await page.close();
      }
    }
  });

  test('an address on another origin is framed, and commands are posted to that origin only', async () => {
    const lessonOrigin = new URL(lesson.url).origin;
    const appOrigin = new URL(app.url).origin;
    const { page, errors, dialogs, violations } = await openWatched(
      `${lesson.url}embed.html?app=${encodeURIComponent(app.url)}#${encodeURIComponent(MARKUP)}`,
    );
    await assertFramesAt(page, appOrigin);
    assert.equal(await refusal(page), null, 'a notice is shown');
    const deployFrame = async () => (await page.$('#deploy')).contentFrame();
    const flushFrame = await (await page.$('#flush')).contentFrame();

    // A command goes to the frame it belongs to, from the lesson's origin.
    await page.locator('.commands[data-frame="deploy"] [data-command="step"]').click();
    const deploy = await deployFrame();
    await deploy.waitForFunction(() => window.received.some((m) => m.data?.type === 'step'), null, {
      timeout: LOAD_TIMEOUT_MS,
    });
    const received = await deploy.evaluate(() => window.received.filter((m) => m.data?.type === 'step'));
    assert.deepEqual(received, [{ origin: lessonOrigin, data: { type: 'step' } }]);
    assert.deepEqual(await flushFrame.evaluate(() => window.received.filter((m) => m.data?.type === 'step')), []);

    // The frame goes to another origin: the page's next command is not delivered there (it
    // was addressed to the simulator's origin), while a message addressed to any origin is.
    await deploy.evaluate((url) => {
      location.href = url;
    }, elsewhere.url);
    let moved;
    for (let i = 0; i < 100; i += 1) {
      moved = await deployFrame();
      if (moved && moved.url() === elsewhere.url) break;
      await page.waitForTimeout(100);
    }
    assert.equal(moved.url(), elsewhere.url);
    await moved.waitForFunction(() => Array.isArray(window.received), null, { timeout: LOAD_TIMEOUT_MS });
    await page.locator('.commands[data-frame="deploy"] [data-command="step"]').click();
    await page.evaluate(() => document.getElementById('deploy').contentWindow.postMessage({ type: 'probe' }, '*'));
    await moved.waitForFunction(() => window.received.some((m) => m.data?.type === 'probe'), null, {
      timeout: LOAD_TIMEOUT_MS,
    });
    await page.waitForTimeout(200);
    assert.deepEqual(
      await moved.evaluate(() => window.received.map((m) => m.data?.type)),
      ['probe'],
      'a command reached a frame on another origin than the simulator’s',
    );

    assert.deepEqual(dialogs, []);
    assert.deepEqual(violations, [], 'the Content-Security-Policy was violated');
    // The browser says so when it drops a message addressed to another origin.
    for (const error of errors) assert.match(error, /target origin provided .* does not match the recipient window's origin/);
    await page.close();
  });

  test('a protocol-relative address is an http(s) address: framed on that origin', async () => {
    const appOrigin = new URL(app.url).origin;
    const relative = app.url.replace(/^http:/, '');
    const { page, errors, dialogs, violations } = await openWatched(
      `${lesson.url}embed.html?app=${encodeURIComponent(relative)}`,
    );
    try {
      await assertFramesAt(page, appOrigin);
      assert.equal(await refusal(page), null, 'a notice is shown');
      assert.deepEqual(dialogs, []);
      assert.deepEqual(violations, [], 'the Content-Security-Policy was violated');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('the page has a Content-Security-Policy without inline script or style', async () => {
    const { page } = await openWatched(`${lesson.url}embed.html`);
    try {
      const policy = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
      const directives = Object.fromEntries(
        policy.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]),
      );
      assert.deepEqual(directives['script-src'], ["'self'"]);
      assert.deepEqual(directives['style-src'], ["'self'"]);
      assert.deepEqual(directives['object-src'], ["'none'"]);
      assert.deepEqual(directives['base-uri'], ["'none'"]);
      const inline = await page.evaluate(() => ({
        scripts: [...document.scripts].filter((s) => !s.src).length,
        styles: document.querySelectorAll('style, [style]').length,
        handlers: [...document.querySelectorAll('*')].filter((e) =>
          [...e.attributes].some((a) => a.name.startsWith('on')),
        ).length,
      }));
      assert.deepEqual(inline, { scripts: 0, styles: 0, handlers: 0 });
      // Trusted Types: markup from a string is refused. The refusal is reported as a
      // violation, which this probe expects: it is taken off the browser's list, and only it.
      const reported = browser.violations.length;
      const refused = await page.evaluate(() => {
        try {
          document.getElementById('log').innerHTML = '<li>x</li>';
          return false;
        } catch (e) {
          return e instanceof TypeError;
        }
      });
      assert.equal(refused, true, 'innerHTML accepted a string');
      // The report comes through the page's binding, after the refusal.
      for (let waited = 0; browser.violations.length === reported && waited < 5000; waited += 50) {
        await page.waitForTimeout(50);
      }
      const probe = browser.violations.splice(reported);
      assert.equal(probe.length, 1, `${probe}`);
      assert.match(probe[0], /^require-trusted-types-for /);
    } finally {
      await page.close();
    }
  });
});
