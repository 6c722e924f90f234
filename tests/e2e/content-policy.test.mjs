// The built pages carry a Content-Security-Policy without inline script: index.html and
// full.html get theirs from scripts/content-policy.mjs after each build, embed.html is written
// with its own. (Every browser suite also fails on any violation the pages report: see
// browser.mjs.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DIST } from './helpers.mjs';
import { policyFor, withPolicy } from '../../scripts/content-policy.mjs';

/** The policy of a page, directive by directive. */
function policyOf(html) {
  const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/);
  assert.ok(meta, 'the page has no policy');
  return Object.fromEntries(
    meta[1].split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
  );
}

for (const name of ['index.html', 'full.html', 'embed.html']) {
  test(`${name} is built with a policy that allows no inline script`, () => {
    const html = readFileSync(join(DIST, name), 'utf8');
    const policy = policyOf(html);
    const scripts = policy['script-src'] ?? policy['default-src'];
    assert.ok(scripts.includes("'self'"));
    for (const value of scripts) {
      const allowed = value === "'self'" || value === "'wasm-unsafe-eval'";
      assert.ok(allowed, `script-src ${value}`);
    }
    assert.deepEqual(policy['object-src'], ["'none'"]);
    assert.deepEqual(policy['base-uri'], ["'none'"]);
    assert.ok(!(policy['style-src'] ?? []).includes("'unsafe-inline'"));
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes, body]) => !/\bsrc=/.test(attributes) || body.trim() !== '',
    );
    assert.deepEqual(inline.map((m) => m[0]), [], 'an inline script');
    assert.ok(!/\son[a-z]+=/i.test(html.replace(/<!--[\s\S]*?-->/g, '')), 'an inline event handler');
  });
}

test('the policy script moves inline scripts out and hashes each inline style', () => {
  const page = [
    '<html><head><meta charset="utf-8" />',
    '<style>a{color:red}</style>',
    '<script type="module">import init from "./x.js"; init();</script>',
    '<script src="kept.js"></script>',
    '</head><body></body></html>',
  ].join('\n');
  const { page: out, files } = withPolicy(page);
  assert.equal(files.length, 1);
  assert.equal(files[0].body, 'import init from "./x.js"; init();');
  assert.ok(out.includes(`<script type="module" src="./${files[0].name}"></script>`));
  assert.ok(out.includes('<script src="kept.js"></script>'));
  // SHA-256 of "a{color:red}" in base64 (as `openssl dgst -sha256 -binary | base64` gives it).
  assert.ok(out.includes("style-src 'self' 'sha256-6hWWMOcF+mJesSJGYhmK2lkIIEw9Xc5XKGLPVzh8yxs='"));
  // Run again on its own output: the policy is replaced, not repeated.
  const again = withPolicy(out).page;
  assert.equal(again.match(/Content-Security-Policy/g).length, 1);
  assert.throws(() => withPolicy('<meta charset="utf-8" /><body onload="x()">'), /event handler/);
});
