#!/usr/bin/env bash
# Builds the web console in release mode and serves it on http://127.0.0.1:8080/ ,
# rebuilding when a source file changes. Extra arguments go to `trunk serve`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

echo
echo "==> trunk serve on http://127.0.0.1:8080/"
exec trunk serve --release --offline --address 127.0.0.1 --port 8080 "$@"
