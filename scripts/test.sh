#!/usr/bin/env bash
# test.sh: set up what is missing, build the wasm and native presets, and run
# every test with ctest: native GoogleTest (unit + integration + fuzz corpora),
# the same unit suite compiled to wasm under Node, the end-to-end tests in
# headless Chromium, and the web build's size budget. Exits non-zero if
# anything fails.
#   ./scripts/test.sh            everything
#   ./scripts/test.sh -R regex   only tests whose name matches (passed to ctest)
# Each step prints the seconds since the start, so a slow step shows itself.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

./scripts/setup.sh --check >/dev/null 2>&1 || ./scripts/setup.sh

. scripts/build_jobs.sh
start=$(date +%s)
step() { printf '\n== [%3d s] %s\n' "$(( $(date +%s) - start ))" "$*"; }

# Configure a preset only when its tree is missing or CMakePresets.json is
# newer than its cache: `cmake --build` re-runs CMake by itself whenever a
# CMakeLists.txt or a globbed directory changed, and a full configure costs
# seconds even when nothing changed.
configure() {
  local dir=build/$1
  if [ -f "$dir/build.ninja" ] && [ "$dir/CMakeCache.txt" -nt CMakePresets.json ]; then return; fi
  cmake --preset "$1" >/dev/null
}

step "configure + build: wasm (web app, the bare reference build for the size budget, unit tests for Node)"
configure wasm
cmake --build --preset wasm --target all roomkey_web_bare
step "configure + build: native (helper, sandbox, tests)"
configure native
cmake --build --preset native

status=0
# The Node suite is one process on one core: it runs beside the native tests
# (which ctest spreads over the rest), and its output is shown after them.
# -V: its own summary line ("N tests from M test suites ran", "PASSED") shows
# what ran under Node. The size budget only reads the built files, so it
# runs beside them too.
wasm_log=build/wasm/test-wasm.log
size_log=build/wasm/size-budget.log
step "tests: wasm (Node) and the web build's size budget (bench/web_size.mjs --check), in the background"
ctest --preset wasm -V "$@" >"$wasm_log" 2>&1 &
wasm_pid=$!
node bench/web_size.mjs --check >"$size_log" 2>&1 &
size_pid=$!
step "tests: native (unit, integration, fuzz corpora, e2e in Chromium)"
ctest --preset native "$@" || status=1
step "tests: wasm (Node) output"
if wait "$wasm_pid"; then grep -E '^(\[==========\]|\[  PASSED  \]|[0-9]+% tests passed|Total Test time)' "$wasm_log" || true
else cat "$wasm_log"; status=1; fi

step "size budget: wasm build against the bare build"
wait "$size_pid" || status=1
cat "$size_log"

step "done: $([ $status = 0 ] && echo 'all tests passed' || echo 'FAILURES above')"
exit $status
