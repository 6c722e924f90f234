#!/usr/bin/env bash
# Side-by-side speed of the request-level engine: the same M/M/14 workload at a = 10
# (arrival rate 10/s, mean service 1 s) through `oncall-sim des` (release build), SimPy and Ciw,
# customers per second for each (median of RUNS runs) and the ratios. SimPy and Ciw are
# installed from PyPI into a virtual environment under the target directory.
#
# Environment: RUNS (default 3), DES_CUSTOMERS (default 10000000), SIMPY_CUSTOMERS (default
# 300000), CIW_CUSTOMERS (default 50000). Each engine is timed over its own count; customers
# per second makes them comparable.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
target="${CARGO_TARGET_DIR:-target}"
venv="$target/bench-venv"

if [ ! -x "$venv/bin/python" ]; then
    echo "==> creating $venv"
    python3 -m venv "$venv"
fi
echo "==> pip install simpy ciw"
if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check simpy ciw; then
    echo "bench-des: PyPI is unreachable (pip install simpy ciw failed); no comparison" >&2
    exit 1
fi
"$venv/bin/python" -m pip list --disable-pip-version-check 2>/dev/null | grep -Ei '^(simpy|ciw) '

echo "==> cargo build --release -p oncall-sim"
cargo build --release -p oncall-sim --bin oncall-sim

echo "==> M/M/14, a = 10"
"$venv/bin/python" scripts/bench/compare.py "$target/release/oncall-sim" 14 10 1 \
    "${RUNS:-3}" "${DES_CUSTOMERS:-10000000}" "${SIMPY_CUSTOMERS:-300000}" "${CIW_CUSTOMERS:-50000}"
