#!/usr/bin/env bash
# Prints what each part of the code costs in the console's transfer: the simulation core, the
# Leptos family, plotters, serde, the standard library, the page's own code, the data segments
# and wasm-bindgen's JavaScript glue, raw and gzipped (tests/e2e/size-report.mjs explains how
# bytes are attributed).
#
# It builds the same release module as `trunk build --release` (cargo reuses that build), runs
# wasm-bindgen and wasm-opt as Trunk does but keeps the function names (`wasm-opt -g`), and
# compares the result with dist/ when dist/ holds a build. Set SIZE_TOP=<n> for the n largest
# functions.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh >/dev/null

out="target/size-report"
rm -rf "${out}"
mkdir -p "${out}"

cargo build --release --target wasm32-unknown-unknown --bin oncall-sim-web --offline --quiet
wasm-bindgen --target web --no-typescript --out-dir "${out}" --out-name oncall-sim-web \
    target/wasm32-unknown-unknown/release/oncall-sim-web.wasm
# The same flags as index.html's data-wasm-opt-params, plus -g to keep the names.
wasm-opt -Oz -g --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-multivalue --low-memory-unused --zero-filled-memory \
    "${out}/oncall-sim-web_bg.wasm" -o "${out}/named.wasm"

node tests/e2e/size-report.mjs "${out}/named.wasm" "${out}/oncall-sim-web.js"

# The table's total leaves the names section out; dist/ (Trunk's build, measured the same way
# as tests/e2e/measure.mjs) should agree with it to a few hundred bytes.
if compgen -G "dist/*.wasm" >/dev/null; then
    echo
    echo "Shipped (dist/, gzip level 6 as tests/e2e/measure.mjs computes it):"
    node -e '
        const { readFileSync } = require("node:fs");
        const { gzipSync } = require("node:zlib");
        let total = 0;
        for (const f of process.argv.slice(1)) {
            const kb = gzipSync(readFileSync(f)).length / 1024;
            total += kb;
            console.log(`  ${f}: ${kb.toFixed(1)} KB`);
        }
        console.log(`  wasm + JS: ${total.toFixed(1)} KB`);
    ' dist/*.wasm dist/*.js
fi
