# lib.sh: what the bench shell scripts share; sourced by servers.sh and
# soak.sh after `cd` to the repository root. Each function's messages start
# with the script's name ($bench_name).

bench_name=$(basename "$0" .sh)

# --help: the script's header comment, after the #! line.
bench_usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

bench_unknown_option() { echo "$bench_name.sh: unknown option '$1' (try --help)" >&2; exit 2; }

# bench_positive OPTION VALUE: VALUE must be a whole number above 0.
bench_positive() {
  case "$2" in ''|*[!0-9]*|0) echo "$bench_name.sh: $1 takes a positive number, not '$2'" >&2; exit 2 ;; esac
}

# bench_release_build BUILD_DIR FILE... TARGET...: builds the targets in the
# native-release preset when one of the files is missing.
bench_release_build() {
  local dir=$1; shift
  local files=() targets=()
  for a in "$@"; do case "$a" in */*) files+=("$dir/$a") ;; *) targets+=("$a") ;; esac; done
  for f in "${files[@]}"; do
    [ -x "$f" ] && continue
    echo "$bench_name: building the native-release preset" >&2
    cmake --preset native-release >/dev/null
    cmake --build --preset native-release --target "${targets[@]}" >/dev/null
    return
  done
}

# The processes the script started (bench_started PID), stopped on exit with
# its scratch folder $work.
work=$(mktemp -d)
bench_pids=()
bench_started() { bench_pids+=("$1"); }
bench_cleanup() {
  for pid in "${bench_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap bench_cleanup EXIT

# free_port: a port nothing listens on, outside the ephemeral range (tests/support/free_port.mjs).
free_port() { node --input-type=module -e "import { freePort } from '$PWD/tests/support/free_port.mjs'; console.log(await freePort());"; }

# wait_for_line FILE PATTERN: until a server printed its ready line (10 s).
wait_for_line() {
  for _ in $(seq 1 100); do grep -qE "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "$bench_name: no ready line in $1:" >&2; cat "$1" >&2; exit 1
}
