#!/usr/bin/env bash
# sandbox_state.sh: what the sandbox's state file costs, with the large
# account (`roomkey-sandbox generate`, the defaults: 300 rooms, a long room of
# 100 messages): the time to the ready line on a first start (the fixture
# parsed and written whole), on a restart (read back from sandbox.db) and
# with --ephemeral (the reference: parsed only); the file's size; and the
# median time of 50 POSTs of a message to the long room on one keep-alive
# connection, persistent against --ephemeral, in the same run.
#
#   ./bench/sandbox_state.sh [--build DIR]   (default build/native-release; built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=build/native-release
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) bench_unknown_option "$1" ;;
  esac
done
bench_release_build "$build" bin/roomkey-sandbox roomkey-sandbox
bin="$build/bin/roomkey-sandbox"
"$bin" generate --out "$work/large.json"
state="$work/state"
mkdir -p "$state"
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# start NAME ARGS...: starts the sandbox, waits for its ready line; sets pid, port, ready_ms.
start() {
  local name=$1 t; shift; t=$(date +%s%N)
  "$bin" --port 0 --state-dir "$state" --quiet --rate-limit 1000000 --room-post-limit 1000000 "$@" \
    >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!; bench_started "$pid"
  until grep -qs '^roomkey-sandbox: ready ' "$work/$name.out"; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/$name.err" >&2; exit 1; }
    sleep 0.01
  done
  ready_ms=$(ms "$t")
  port=$(sed -E 's/.*127\.0\.0\.1:([0-9]+)\/v2.*/\1/' "$work/$name.out")
}
# posts: the median seconds of 50 POSTs (after one that opens the connection).
posts() {
  local args=() i
  for i in $(seq 51); do
    [ "$i" -gt 1 ] && args+=(--next)
    args+=(-sk -o /dev/null -w '%{http_code} %{time_total}\n' -H 'x-servicetoken: sandbox-api-token-alice-1001'
      -d "body=message $i [To:1002] 日本語" "https://127.0.0.1:$port/v2/rooms/2002/messages")
  done
  curl "${args[@]}" | tail -n +2 >"$work/times"
  [ "$(grep -c '^200 ' "$work/times")" = 50 ] || { echo "$bench_name.sh: a POST failed" >&2; exit 1; }
  cut -d' ' -f2 "$work/times" | sort -n | sed -n 25p
}
stop() { kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; }

printf '%-44s %10s %14s\n' "start" "ready (ms)" "POST p50 (ms)"
start first --fixture "$work/large.json"; p=$(posts); stop
printf '%-44s %10s %14.3f\n' "persistent, first start (fixture, write all)" "$ready_ms" "$(echo "$p*1000" | bc -l)"
size=$(du -cb "$state"/sandbox.db* | tail -1 | cut -f1)
start again --fixture "$work/large.json"; p=$(posts); stop
printf '%-44s %10s %14.3f\n' "persistent, restart (read back)" "$ready_ms" "$(echo "$p*1000" | bc -l)"
start ephemeral --fixture "$work/large.json" --ephemeral; p=$(posts); stop
printf '%-44s %10s %14.3f\n' "--ephemeral (reference)" "$ready_ms" "$(echo "$p*1000" | bc -l)"
echo "fixture $(stat -c %s "$work/large.json") bytes, state file $size bytes"
