#!/bin/sh
# Checks every figure README.md quotes from the simulation against the code, and prints them
# (sim/tests/readme_figures.rs). With --write, rewrites the drifted figures in README.md.
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--write" ]; then
  export README_FIGURES=write
fi
exec cargo test -p oncall-sim --release --test readme_figures -- --nocapture
