#!/usr/bin/env bash
# fuzz.sh: run libFuzzer targets of tests/fuzz/ under ASan + UBSan (the
# "fuzz" preset, clang), each until a time or an execution budget runs out,
# and print a table of what each did.
#
#   ./scripts/fuzz.sh [--time N] [--runs N] [--jobs N] [--merge] [--all | TARGET...]
#     --time N      seconds per target (default 60; --seconds N is the same)
#     --runs N      stop a target after N executions first (default 10000000)
#     --jobs N      targets run at once (default 1; each takes one core)
#     --merge       afterwards, add to tests/fuzz/corpus/<target>/ the inputs
#                   of the run that reach new edges (-merge=1 -use_counters=0,
#                   so the committed corpus stays small); review, then commit
#     --all         every tests/fuzz/*_fuzz.cpp (also the default)
#     TARGET        e.g. url, api_readers
#   The issue 11 budget: ./scripts/fuzz.sh --all --time 600 --jobs 2
#
# Each run starts from the committed corpus (tests/fuzz/corpus/<target>/,
# which ctest replays on every test run) and works in a scratch copy under
# build/fuzz/runs/<target>/, so the repository only changes when you choose
# to keep inputs (--merge). A crash leaves build/fuzz/runs/<target>/crash-*
# and the script exits 1; copy that file into the corpus once the bug is
# fixed, so the replay test keeps it fixed. UBSan findings abort
# (-fno-sanitize-recover), so they count as crashes too.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
runs=10000000
jobs=1
merge=0
targets=()
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
number() { case "$2" in ''|*[!0-9]*|0) echo "fuzz.sh: $1 must be a positive number, not '$2'" >&2; exit 2 ;; esac; }
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds|--time) number "$1" "${2:-}"; seconds="$2"; shift 2 ;;
    --runs) number "$1" "${2:-}"; runs="$2"; shift 2 ;;
    --jobs) number "$1" "${2:-}"; jobs="$2"; shift 2 ;;
    --merge) merge=1; shift ;;
    --all) targets=(); shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for source in tests/fuzz/*_fuzz.cpp; do
    targets+=("$(basename "$source" _fuzz.cpp)")
  done
fi
for name in "${targets[@]}"; do
  [ -f "tests/fuzz/${name}_fuzz.cpp" ] || { echo "fuzz.sh: no target '$name' (tests/fuzz/${name}_fuzz.cpp)" >&2; exit 2; }
done

./scripts/setup.sh --check >/dev/null 2>&1 || ./scripts/setup.sh
echo "fuzz: building the fuzz preset (clang, libFuzzer, ASan + UBSan)" >&2
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target $(printf '%s_fuzz ' "${targets[@]}") >/dev/null

# One target: fuzz, then write its row to build/fuzz/runs/<target>/row.
run_one() {
  local name="$1" run_dir="build/fuzz/runs/$1" status=0
  rm -rf "$run_dir"
  mkdir -p "$run_dir/corpus"
  cp -r "tests/fuzz/corpus/$name/." "$run_dir/corpus/" 2>/dev/null || true
  local log="$run_dir/fuzz.log"
  # -rss_limit_mb: parsers of small inputs have no business near 1 GB (ASan's
  # quarantine alone holds ~250 MB).
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build/fuzz/tests/fuzz/${name}_fuzz" "$run_dir/corpus" \
      -max_total_time="$seconds" -runs="$runs" -rss_limit_mb=1024 -print_final_stats=1 \
      -artifact_prefix="$run_dir/" >"$log" 2>&1 || status=$?
  local execs rate secs last cov ft files result
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | cut -d' ' -f2 || true)
  ft=$(echo "$last" | grep -oE 'ft: [0-9]+' | cut -d' ' -f2 || true)
  files=$(find "$run_dir/corpus" -type f | wc -l)
  if [ "$status" = 0 ]; then result="no crash"; else result="FAILED (exit $status): see $log"; fi
  if [ "$status" = 0 ] && [ "$merge" = 1 ]; then
    "build/fuzz/tests/fuzz/${name}_fuzz" -merge=1 -use_counters=0 "tests/fuzz/corpus/$name" "$run_dir/corpus" \
      >"$run_dir/merge.log" 2>&1 || result="merge FAILED: see $run_dir/merge.log"
  fi
  printf '%-22s %12s %8s %9s %6s %7s %8s  %s\n' "$name" "${execs:-?}" "${secs:-?}" "${rate:-?}" "${cov:-?}" \
    "${ft:-?}" "$files" "$result" >"$run_dir/row"
  [ "$status" = 0 ]
}

printf '%-22s %12s %8s %9s %6s %7s %8s  %s\n' target executions seconds exec/s cov ft corpus result
for name in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  rm -f "build/fuzz/runs/$name/row"
  run_one "$name" &
done
wait || true
# The rows, in the order asked; a target failed unless its row says so.
failed=0
for name in "${targets[@]}"; do
  row="build/fuzz/runs/$name/row"
  if [ -f "$row" ]; then cat "$row"; else echo "$name: no result (see build/fuzz/runs/$name/)"; fi
  grep -q '  no crash$' "$row" 2>/dev/null || failed=1
done
exit "$failed"
