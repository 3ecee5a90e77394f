#!/usr/bin/env bash
# fuzz.sh: run every libFuzzer target of tests/fuzz/ under ASan + UBSan (the
# "fuzz" preset, clang) for a time budget each, and print what each did.
#
#   ./scripts/fuzz.sh [--seconds N] [TARGET...]
#     --seconds N   time per target (default 60)
#     TARGET        e.g. url, token_response (default: every tests/fuzz/*_fuzz.cpp)
#
# Each run starts from the committed corpus (tests/fuzz/corpus/<target>/,
# which ctest replays on every test run) and works in a scratch copy under
# build/fuzz/runs/<target>/, so the repository only changes when you choose
# to keep an input: a crash leaves build/fuzz/runs/<target>/crash-* and the
# script exits 1; copy that file into the corpus once the bug is fixed, so the
# replay test keeps it fixed. UBSan findings abort (-fno-sanitize-recover), so
# they count as crashes too.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
targets=()
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
case "$seconds" in ''|*[!0-9]*|0) echo "fuzz.sh: --seconds must be a positive number, not '$seconds'" >&2; exit 2 ;; esac
if [ ${#targets[@]} -eq 0 ]; then
  for source in tests/fuzz/*_fuzz.cpp; do
    name=$(basename "$source" _fuzz.cpp)
    targets+=("$name")
  done
fi
for name in "${targets[@]}"; do
  [ -f "tests/fuzz/${name}_fuzz.cpp" ] || { echo "fuzz.sh: no target '$name' (tests/fuzz/${name}_fuzz.cpp)" >&2; exit 2; }
done

./scripts/setup.sh --check >/dev/null 2>&1 || ./scripts/setup.sh
echo "fuzz: building the fuzz preset (clang, libFuzzer, ASan + UBSan)" >&2
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target $(printf '%s_fuzz ' "${targets[@]}") >/dev/null

printf '%-20s %8s %12s %10s %8s %8s  %s\n' target seconds executions exec/s cov corpus result
failed=0
for name in "${targets[@]}"; do
  run_dir="build/fuzz/runs/$name"
  rm -rf "$run_dir"
  mkdir -p "$run_dir/corpus"
  cp -r "tests/fuzz/corpus/$name/." "$run_dir/corpus/" 2>/dev/null || true
  log="$run_dir/fuzz.log"
  status=0
  # -rss_limit_mb: parsers of small inputs have no business near 1 GB.
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build/fuzz/tests/fuzz/${name}_fuzz" "$run_dir/corpus" \
      -max_total_time="$seconds" -rss_limit_mb=1024 -print_final_stats=1 \
      -artifact_prefix="$run_dir/" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  files=$(find "$run_dir/corpus" -type f | wc -l)
  if [ "$status" = 0 ]; then result="no crash"; else result="FAILED (exit $status): see $log"; failed=1; fi
  printf '%-20s %8s %12s %10s %8s %8s  %s\n' "$name" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "$files" "$result"
done
exit "$failed"
