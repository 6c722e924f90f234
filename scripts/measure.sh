#!/usr/bin/env bash
# Builds the console in release mode and measures it in headless Chromium on 127.0.0.1:
# wasm + JS transferred gzipped, time from navigation to the first metrics row (median of 5),
# and the console's own work per frame while playing at the highest speed (95th percentile).
# Extra arguments go to tests/e2e/measure.mjs (--strict: fail when a target is missed).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

echo
echo "==> trunk build --release"
trunk build --release --offline

echo
echo "==> measuring dist/"
node tests/e2e/measure.mjs "$@"
