#!/usr/bin/env bash
# tls_audit.sh: testssl.sh (Debian's package, 3.0.x) against roomkey-helper,
# roomkey-sandbox and the generated nginx front (scripts/nginx-front.sh), all
# on loopback, and a compact table of what it found, one column per server:
# protocols, the TLS 1.2 and 1.3 suites offered, whether the server's order
# wins, each vulnerability check that did not say "not vulnerable", and the
# HTTP headers testssl.sh looks at. With --before DIR the same is run against
# the binaries of another build (e.g. a commit from before a TLS change, built
# in its own worktree) and printed beside, columns "before/…".
#
#   ./bench/tls_audit.sh [--build build/native] [--before OTHER/build/native] [--keep DIR]
#
# testssl.sh is a measurement tool, not a build dependency: when it is
# missing, this script installs Debian's `testssl.sh` package (as root) or
# says how to. A run takes a few minutes per server (about 2 on this machine).
# --keep DIR keeps each server's JSON findings (testssl.sh --jsonfile) there.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build=build/native before= keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) bench_unknown_option "$1" ;;
  esac
done

if ! command -v testssl >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "tls_audit: installing testssl.sh (Debian's package)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq testssl.sh >/dev/null
  else
    echo "tls_audit: testssl.sh is missing: sudo apt-get install testssl.sh" >&2; exit 2
  fi
fi
for b in "$build" ${before:+"$before"}; do
  for bin in roomkey-helper roomkey-sandbox; do
    [ -x "$b/bin/$bin" ] || { echo "tls_audit: $b/bin/$bin is missing: build it" >&2; exit 2; }
  done
done
web=$work/web; mkdir -p "$web"; echo '<!doctype html>' >"$web/index.html"
chmod 755 "$work" "$web"  # nginx's workers (nobody, when run as root) read the web root
out=${keep:-$work/json}; mkdir -p "$out"

# audit LABEL BUILD: starts the three servers of BUILD, runs testssl.sh
# against each in turn, stops them; leaves $out/LABEL-<server>.json.
audit() {
  local label=$1 b=$2 state=$work/state-$1 pids=()
  local hp sp np; hp=$(free_port); sp=$(free_port); np=$(free_port)
  mkdir -p "$state"
  "$b/bin/roomkey-helper" serve --port "$hp" --state-dir "$state" --web-root "$web" >"$work/$label-helper.log" 2>&1 &
  pids+=($!); bench_started $!
  "$b/bin/roomkey-sandbox" --port "$sp" --state-dir "$state" --ephemeral >"$work/$label-sandbox.log" 2>&1 &
  pids+=($!); bench_started $!
  ROOMKEY_HELPER=$b/bin/roomkey-helper scripts/nginx-front.sh --port "$np" --state-dir "$state" --web-root "$web" \
    >"$work/$label-nginx.log" 2>&1 &
  pids+=($!); bench_started $!
  wait_for_line "$work/$label-helper.log" '^roomkey: app at'
  wait_for_line "$work/$label-sandbox.log" 'roomkey-sandbox: ready'
  wait_for_line "$work/$label-nginx.log" '^roomkey: app at'
  local name port
  for pair in helper:$hp sandbox:$sp nginx:$np; do
    name=${pair%%:*} port=${pair#*:}
    echo "tls_audit: testssl.sh on $label $name (127.0.0.1:$port)" >&2
    rm -f "$out/$label-$name.json"
    # -p protocols, -P the server's order, -E each suite per protocol,
    # -U vulnerabilities, -h headers. Exit codes count findings: not a failure.
    testssl --quiet --color 0 --warnings off --ip one -p -P -E -U -h \
      --jsonfile "$out/$label-$name.json" "127.0.0.1:$port" >"$work/$label-$name.txt" 2>&1 || true
    [ -s "$out/$label-$name.json" ] || { echo "tls_audit: testssl.sh wrote no findings:" >&2; cat "$work/$label-$name.txt" >&2; exit 1; }
  done
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}

columns=()
if [ -n "$before" ]; then audit before "$before"; columns+=(before-helper before-sandbox before-nginx); fi
audit after "$build"
columns+=(after-helper after-sandbox after-nginx)
node bench/tls_audit_table.mjs "$out" "${columns[@]}"
