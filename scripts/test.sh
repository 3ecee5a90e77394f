#!/usr/bin/env bash
# test.sh: set up what is missing, build the wasm and native presets, and run
# every test with ctest: native GoogleTest (unit + integration + fuzz corpora),
# the same unit suite compiled to wasm under Node, and the end-to-end tests in
# headless Chromium. Exits non-zero if anything fails.
#   ./scripts/test.sh            everything
#   ./scripts/test.sh -R regex   only tests whose name matches (passed to ctest)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

./scripts/setup.sh --check >/dev/null 2>&1 || ./scripts/setup.sh

step() { printf '\n== %s\n' "$*"; }
start=$(date +%s)

step "configure + build: wasm (web app + unit tests for Node)"
cmake --preset wasm >/dev/null
cmake --build --preset wasm
step "configure + build: native (helper, sandbox, tests)"
cmake --preset native >/dev/null
cmake --build --preset native

status=0
step "tests: wasm (Node)"
# -V: the suite is one ctest entry (one Node process); its own summary line
# ("N tests from M test suites ran", "PASSED") shows what ran under Node.
ctest --preset wasm -V "$@" || status=1
step "tests: native (unit, integration, fuzz corpora, e2e in Chromium)"
ctest --preset native "$@" || status=1

step "done in $(( $(date +%s) - start )) s: $([ $status = 0 ] && echo 'all tests passed' || echo 'FAILURES above')"
exit $status
