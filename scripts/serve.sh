#!/usr/bin/env bash
# Builds the web console in release mode and serves it on http://127.0.0.1:8080/ ,
# rebuilding when a source file changes (reload the page to see a rebuild). Extra arguments go to `trunk serve`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

echo
echo "==> trunk serve on http://127.0.0.1:8080/"
# Without Trunk's live reload: its script is written into the page at serving time, inline,
# which the page's Content-Security-Policy refuses (reload the page after a rebuild).
exec trunk serve --release --offline --no-autoreload --address 127.0.0.1 --port 8080 "$@"
