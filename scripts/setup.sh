#!/usr/bin/env bash
# Set-up for building and testing the web console on Debian 12 with rustup, cargo, node and npm.
#
# Idempotent: every step checks first and skips what is already in place, so a second run
# takes a few seconds. Run it directly, or `source` it to also get the tool paths on PATH
# (scripts/serve.sh and scripts/test.sh do that).
#
# Installs:
#   - the wasm32-unknown-unknown Rust target (and rustfmt/clippy when missing);
#   - trunk 0.21.x (0.22 needs a newer rustc than the one pinned here);
#   - wasm-bindgen-cli at exactly the wasm-bindgen version recorded in Cargo.lock
#     (its test runner drives the in-browser tests);
#   - Debian's chromium and chromium-driver when /usr/bin/chromium is missing;
#   - the npm packages in package-lock.json (binaryen's wasm-opt, playwright-core, axe-core).

set -euo pipefail

setup_repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION_REQ="~0.21"
TRUNK_VERSION_PREFIX="0.21."

say() { printf '[setup] %s\n' "$*"; }

setup_with_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        say "need root for: $*" >&2
        return 1
    fi
}

# The version of a package as recorded in Cargo.lock (first match).
setup_locked_version() {
    awk -v name="$1" '
        $0 == "name = \"" name "\"" { found = 1; next }
        found && /^version = / { gsub(/"/, "", $3); print $3; exit }
    ' "$setup_repo_root/Cargo.lock"
}

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# --- Rust target and components -------------------------------------------------------------
if rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
    say "wasm32-unknown-unknown target: present"
else
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi

for component in rustfmt clippy; do
    if rustup component list --installed | grep -q "^${component}"; then
        say "${component}: present"
    else
        say "adding the ${component} component"
        rustup component add "${component}"
    fi
done

# --- trunk --------------------------------------------------------------------------------------
trunk_installed="$(trunk --version 2>/dev/null | awk '{print $2}' || true)"
if [[ "${trunk_installed}" == "${TRUNK_VERSION_PREFIX}"* ]]; then
    say "trunk ${trunk_installed}: present"
else
    say "installing trunk ${TRUNK_VERSION_REQ} (found: ${trunk_installed:-none}); this takes several minutes"
    cargo install trunk --version "${TRUNK_VERSION_REQ}" --locked
fi

# --- wasm-bindgen-cli ---------------------------------------------------------------------------
wasm_bindgen_wanted="$(setup_locked_version wasm-bindgen)"
if [ -z "${wasm_bindgen_wanted}" ]; then
    say "could not read the wasm-bindgen version from Cargo.lock" >&2
    exit 1
fi
wasm_bindgen_installed="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
runner_installed="$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}' || true)"
if [ "${wasm_bindgen_installed}" = "${wasm_bindgen_wanted}" ] \
    && [ "${runner_installed}" = "${wasm_bindgen_wanted}" ]; then
    say "wasm-bindgen-cli ${wasm_bindgen_installed}: present"
else
    # No --locked: the registry copy of its lock file names a dependency version that is gone.
    say "installing wasm-bindgen-cli ${wasm_bindgen_wanted} (found: ${wasm_bindgen_installed:-none})"
    cargo install wasm-bindgen-cli --version "${wasm_bindgen_wanted}"
fi

# --- Chromium and ChromeDriver ------------------------------------------------------------------
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    say "chromium: present ($(/usr/bin/chromium --version 2>/dev/null | head -n 1))"
else
    say "installing chromium and chromium-driver with apt-get"
    setup_with_root env DEBIAN_FRONTEND=noninteractive apt-get update
    setup_with_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi

# --- Fonts for Malayalam and Chinese ------------------------------------------------------------
# The browser tests render the console in Malayalam and Chinese: without a font for each
# script the text would be boxes. Small packages: Manjari (SMC) and WenQuanYi Micro Hei.
if fc-list 2>/dev/null | grep -q "Manjari" && fc-list 2>/dev/null | grep -q "WenQuanYi"; then
    say "fonts for Malayalam and Chinese: present"
else
    say "installing fonts-smc-manjari and fonts-wqy-microhei with apt-get"
    setup_with_root env DEBIAN_FRONTEND=noninteractive apt-get update
    setup_with_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        fonts-smc-manjari fonts-wqy-microhei
fi

# --- npm packages (wasm-opt from binaryen, playwright-core) ---------------------------------------
npm_stamp="${setup_repo_root}/node_modules/.setup-lock-sha256"
npm_lock_sum="$(sha256sum "${setup_repo_root}/package-lock.json" | awk '{print $1}')"
if [ -f "${npm_stamp}" ] && [ "$(cat "${npm_stamp}")" = "${npm_lock_sum}" ] \
    && [ -x "${setup_repo_root}/node_modules/.bin/wasm-opt" ]; then
    say "npm packages: up to date with package-lock.json"
else
    say "installing npm packages with npm ci"
    (cd "${setup_repo_root}" && npm ci --no-audit --no-fund)
    printf '%s\n' "${npm_lock_sum}" >"${npm_stamp}"
fi

# --- crates (the builds run with --offline) ---------------------------------------------------
# Quick when everything is already in the local registry cache.
say "fetching crates named in Cargo.lock"
(cd "${setup_repo_root}" && cargo fetch --quiet)

export PATH="${setup_repo_root}/node_modules/.bin:$PATH"
say "wasm-opt on PATH: $(wasm-opt --version)"
say "done"
