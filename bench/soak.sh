#!/usr/bin/env bash
# soak.sh: the release roomkey-helper and roomkey-sandbox under long load
# (issue 11 item 7), with bench/soak_load.cpp as the load generator:
#
#   warm-up  --warmup s (30) of the hold load and 5k churn calls (the RSS baseline
#            is taken after it: by then the servers' thread pools, TLS and
#            malloc arenas have been touched; a shorter warm-up shows their
#            first use as "growth")
#   hold     64 keep-alive TLS connections loop GET /api/my/status through the
#            helper for --seconds, while 32 more sit idle or drip a request one
#            byte a second (reconnecting whenever the helper drops them)
#   churn    --requests API calls through the helper with OAuth tokens:
#            sign-ins (consent screen, login, Allow, code for tokens), refreshes,
#            and revocations (a replayed rotated-out refresh token revokes the grant)
#
# Prints errors (goal 0), RSS of both processes at start, after warm-up and at
# the end (goal: growth <= 5 % after warm-up), and p50/p99 in the first and
# last 10 s of each phase (goal: no drift).
#
#   ./bench/soak.sh [--seconds 60] [--requests 200000] [--warmup 30] [--build build/native-release]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

seconds=60
requests=200000
warmup=30
build=build/native-release
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --requests) requests="${2:?--requests needs a number}"; shift 2 ;;
    --warmup) warmup="${2:?--warmup needs a number}"; shift 2 ;;
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) bench_unknown_option "$1" ;;
  esac
done
bench_positive --seconds "$seconds"
bench_positive --requests "$requests"
bench_positive --warmup "$warmup"

load=$build/bench/roomkey-soak-load
bench_release_build "$build" bin/roomkey-sandbox bin/roomkey-helper bench/roomkey-soak-load \
  roomkey-sandbox roomkey-helper roomkey-soak-load
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

helper_port=$(free_port)
state=$work/state
# The rate limit is raised so that the soak measures the servers, not 429s;
# every other limit (sizes, timeouts, memory caps) is the default.
"$build/bin/roomkey-sandbox" --port 0 --state-dir "$state" --web-port "$helper_port" --quiet --ephemeral \
  --rate-limit 1000000 --rate-window 1 >"$work/sandbox.out" 2>"$work/sandbox.err" &
sandbox_pid=$!
bench_started "$sandbox_pid"
wait_for_line "$work/sandbox.out" '^roomkey-sandbox: ready '
base_url=$(sed -E 's/.*base_url=([^ ]+).*/\1/' "$work/sandbox.out")
auth_url=$(sed -E 's/.*auth_url=([^ ]+).*/\1/' "$work/sandbox.out")
consent_url=$(sed -E 's/.*consent_url=([^ ]+).*/\1/' "$work/sandbox.out")
sandbox_port=${base_url#https://127.0.0.1:}; sandbox_port=${sandbox_port%%/*}

mkdir -p "$work/web" && echo '<!doctype html><title>soak</title>' >"$work/web/index.html"
# The helper's request log goes to a file, as a terminal would take it.
"$build/bin/roomkey-helper" serve --port "$helper_port" --state-dir "$state" --web-root "$work/web" \
  --base-url "$base_url" --auth-url "$auth_url" --consent-url "$consent_url" --client-id roomkey-web \
  >"$work/helper.out" 2>"$work/helper.err" &
helper_pid=$!
bench_started "$helper_pid"
wait_for_line "$work/helper.out" '^roomkey: app at '

h_start=$(rss_kb "$helper_pid"); s_start=$(rss_kb "$sandbox_pid")
common=(--helper-port "$helper_port" --sandbox-port "$sandbox_port" --ca "$state/ca-cert.pem")
status=0
echo "soak: warm-up ${warmup} s" >&2
"$load" --phase hold --seconds "$warmup" "${common[@]}" >"$work/warmup.txt" || status=1
# A little churn in the warm-up too, so that the token tables exist before the baseline.
"$load" --phase churn --requests 5000 "${common[@]}" >>"$work/warmup.txt" || status=1
h_warm=$(rss_kb "$helper_pid"); s_warm=$(rss_kb "$sandbox_pid")
echo "soak: hold ${seconds} s" >&2
"$load" --phase hold --seconds "$seconds" "${common[@]}" >"$work/hold.txt" || status=1
h_hold=$(rss_kb "$helper_pid"); s_hold=$(rss_kb "$sandbox_pid")
echo "soak: churn ${requests} requests" >&2
"$load" --phase churn --requests "$requests" "${common[@]}" >"$work/churn.txt" || status=1
h_end=$(rss_kb "$helper_pid"); s_end=$(rss_kb "$sandbox_pid")
# Both still up, and they still answer.
for pid in "$helper_pid" "$sandbox_pid"; do kill -0 "$pid" || { echo "soak: a server died" >&2; status=1; }; done

field() { sed -nE "s/.* $2=([^ ]+).*/\1/p" "$work/$1.txt" | tail -1; }
calc() { awk "BEGIN { printf \"%+.1f\", $1 }"; }
echo "machine: $(nproc) cores; helper and sandbox: $build (release)"
echo
printf '%-8s %9s %8s %8s %12s %12s %12s %12s %s\n' phase requests errors "req/s" "first10 p50" "first10 p99" \
  "last10 p50" "last10 p99" "(ms)"
for phase in warmup hold churn; do
  [ -s "$work/$phase.txt" ] || continue
  while read -r line; do
    get() { sed -nE "s/.* $1=([^ ]+).*/\1/p" <<<" $line"; }
    printf '%-8s %9s %8s %8s %12s %12s %12s %12s\n' "$(get phase)" "$(get requests)" "$(get errors)" \
      "$(get req_per_s)" "$(get first10_p50_ms)" "$(get first10_p99_ms)" "$(get last10_p50_ms)" "$(get last10_p99_ms)"
  done <"$work/$phase.txt"
done
echo "hold: idle/drip connections reopened after the helper ended them: $(field hold idle_or_drip_reopened)"
echo "churn: sign-ins $(field churn sign_ins), refreshes $(field churn refreshes), revocations $(field churn revocations)"
echo
printf '%-8s %10s %12s %10s %10s %18s\n' process "start KB" "after warm-up" "after hold" "end KB" "growth after warm-up"
printf '%-8s %10s %12s %10s %10s %17s%%\n' helper "$h_start" "$h_warm" "$h_hold" "$h_end" "$(calc "($h_end - $h_warm) * 100 / $h_warm")"
printf '%-8s %10s %12s %10s %10s %17s%%\n' sandbox "$s_start" "$s_warm" "$s_hold" "$s_end" "$(calc "($s_end - $s_warm) * 100 / $s_warm")"
exit "$status"
