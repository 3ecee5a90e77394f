#!/usr/bin/env bash
# flake_hunt.sh: look for tests that fail only sometimes (issue 11). Builds
# nothing: run ./scripts/test.sh (or build both presets) first.
#   1. the whole native suite (unit, integration, fuzz corpora, e2e) and the
#      wasm suite, N rounds in a row: ctest --repeat until-fail:N, so a test
#      that fails once is reported with the round it failed in;
#   2. the e2e files alone, N rounds, while a parallel build loads every core
#      (a scratch copy of the native tree rebuilt from scratch with ccache
#      off, started again whenever it finishes), so timing races show up.
# Prints, per phase, how many tests ran and which failed in how many rounds,
# then exits non-zero if any failed. Logs go to build/flake-hunt/.
#   ./scripts/flake_hunt.sh                 5 rounds of both phases
#   ./scripts/flake_hunt.sh --rounds 3      fewer rounds
#   ./scripts/flake_hunt.sh --only e2e      phase 2 only (or --only suite)
#   ./scripts/flake_hunt.sh -R regex        only tests matching (both phases)
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=5; only=""; filter=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -R) filter=(-R "$2"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "flake_hunt.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
for tree in build/native build/wasm; do
  [ -f "$tree/CTestTestfile.cmake" ] || { echo "flake_hunt.sh: $tree is not built: run ./scripts/test.sh first" >&2; exit 2; }
done

logs=build/flake-hunt
mkdir -p "$logs"
failed_any=0

# One ctest run per round (not --repeat): a failing test must not stop the
# other tests' later rounds, and each round's failures are counted apart.
# Prints "<tests run> <failures>" and the per-test failure counts.
hunt() {  # name, ctest arguments...
  local name=$1; shift
  local ran=0 failures=0 log
  : >"$logs/$name.failed"
  for round in $(seq 1 "$rounds"); do
    log=$logs/$name.round$round.log
    if ctest "$@" >"$log" 2>&1; then :; else :; fi
    ran=$(( ran + $(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$log" || true) ))
    grep -E '^ *[0-9]+/[0-9]+ Test +#.*(\*\*\*|Not Run)' "$log" \
      | sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+).*/\1/' >>"$logs/$name.failed" || true
    if grep -q 'No tests were found' "$log"; then echo "flake_hunt.sh: no tests matched in $name" >&2; exit 2; fi
    printf '  %s round %d/%d: %s\n' "$name" "$round" "$rounds" "$(grep -E 'tests passed' "$log" || echo 'no summary: see '"$log")"
  done
  failures=$(wc -l <"$logs/$name.failed")
  printf '%s: %d test runs in %d rounds, %d failed\n' "$name" "$ran" "$rounds" "$failures"
  if [ "$failures" -gt 0 ]; then
    sort "$logs/$name.failed" | uniq -c | sort -rn | sed 's/^/    failed rounds: /'
    failed_any=1
  fi
}

if [ "$only" != e2e ]; then
  echo "== phase 1: the whole suite, $rounds rounds (logs in $logs/)"
  hunt native --preset native "${filter[@]}"
  [ ${#filter[@]} -gt 0 ] || hunt wasm --preset wasm
fi

if [ "$only" != suite ]; then
  echo "== phase 2: the e2e files alone, $rounds rounds, while a parallel build loads the machine"
  load_tree=$logs/load-build
  # A scratch native tree: configuring it is cheap, building it from scratch
  # (ccache disabled) keeps every core busy for minutes.
  cmake --preset native -B "$load_tree" >/dev/null
  # Its own process group (setsid), so that stopping it stops the build too.
  setsid bash -c 'while true; do CCACHE_DISABLE=1 cmake --build "$1" --clean-first -j "$(nproc)" >/dev/null 2>&1 || true; done' \
    load "$load_tree" &
  loader=$!
  trap 'kill -- "-$loader" 2>/dev/null || true' EXIT
  sleep 5  # the build is under way before the first round
  hunt e2e --preset native -L e2e "${filter[@]}"
  kill -- "-$loader" 2>/dev/null || true
  trap - EXIT
fi

[ $failed_any = 0 ] && echo "flake_hunt: no failures" || echo "flake_hunt: FAILURES (counts above)"
exit $failed_any
