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
    --enable-sign-ext --enable-mutable-globals --enable-multivalue \
    "${out}/oncall-sim-web_bg.wasm" -o "${out}/named.wasm"

node tests/e2e/size-report.mjs "${out}/named.wasm" "${out}/oncall-sim-web.js"

# The shipped module has no names section, so it is a little smaller than the one above.
if compgen -G "dist/*.wasm" >/dev/null; then
    echo
    echo "Shipped (dist/, gzip level 6):"
    for f in dist/*.wasm dist/*.js; do
        printf '  %-48s %7.1f KB\n' "$(basename "$f")" "$(gzip -6 -c "$f" | wc -c | awk '{print $1 / 1024}')"
    done
fi
