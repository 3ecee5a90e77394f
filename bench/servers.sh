#!/usr/bin/env bash
# servers.sh: how fast roomkey's two servers answer, and the helper's proxy
# next to nginx as an HTTPS reverse proxy to the same sandbox, measured in
# the same run, every server with the same keep-alive limit (1000 requests
# per connection: the helper's and the sandbox's, nginx's default).
#
#   requests/s, 8 keep-alive connections (wrk -t2 -c8):
#     sandbox  GET /v2/my/status     roomkey-sandbox (API token, rate limit raised)
#     nginx    GET /api/my/status    nginx proxy_pass https:// -> the sandbox (the reference)
#     helper   GET /api/my/status    roomkey-helper's API proxy -> the sandbox
#     front    GET /api/my/status    nginx as `roomkey-helper nginx-config` writes it
#                                    (./scripts/run.sh --front nginx): the
#                                    helper's checks, allowlist and access log
#   latency p50/p99/p99.9, 1 keep-alive connection (roomkey-latency-probe,
#   bench/latency_probe.cpp), back to back and paced (a random 10-30 ms
#   between an answer and the next request, as the app sends them):
#     sandbox direct vs through each front; the difference is what each
#     proxy adds
#   new upstream connection: the same route through the helper and through
#     nginx to a second sandbox that closes every connection after one
#     request (--keep-alive-requests 1), paced: every request is the first
#     on a fresh upstream connection (both resume TLS sessions if they can)
#
# Throughput is the median of --rounds rounds; latencies are percentiles of
# the samples of all rounds pooled. The servers are taken in turn in every
# round so that all see the same machine load; quote the ratios.
#
#   ./bench/servers.sh [--rounds 5] [--seconds 5] [--paced 250] [--build build/native-release]
#
# --paced N: paced requests per server and round (new connections: N/2).
# --build DIR: the roomkey-helper and roomkey-sandbox measured (e.g. an
# older build for a before/after table); the probe, and the second sandbox
# of the new-connection figure, always come from build/native-release.
#
# Needs wrk and nginx (installed with apt-get when missing) and the release
# build (made when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

rounds=5
seconds=5
paced=250
build=build/native-release
tools=build/native-release
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a number}"; shift 2 ;;
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --paced) paced="${2:?--paced needs a number}"; shift 2 ;;
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) bench_unknown_option "$1" ;;
  esac
done
bench_positive --rounds "$rounds"
bench_positive --seconds "$seconds"
bench_positive --paced "$paced"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need=()
command -v wrk >/dev/null || need+=(wrk)
[ -x /usr/sbin/nginx ] || need+=(nginx-light)
if [ ${#need[@]} -gt 0 ]; then
  echo "bench: installing ${need[*]}" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
bench_release_build "$tools" bin/roomkey-sandbox bin/roomkey-helper bench/roomkey-latency-probe \
  roomkey-sandbox roomkey-helper roomkey-latency-probe
[ -x "$build/bin/roomkey-helper" ] && [ -x "$build/bin/roomkey-sandbox" ] \
  || { echo "servers: no roomkey-helper and roomkey-sandbox in $build/bin" >&2; exit 1; }
probe=$tools/bench/roomkey-latency-probe

chmod 755 "$work"  # nginx's workers read the web root in it

token=sandbox-api-token-alice-1001
state=$work/state
# The rate limit is raised (1,000,000 per 10 s: the load measures the server,
# not its 429 path); with the default 5-minute window a few rounds at ~20k
# requests/s would use it up.
"$build/bin/roomkey-sandbox" --port 0 --state-dir "$state" --no-web-client --quiet --ephemeral \
  --rate-limit 1000000 --rate-window 10 >"$work/sandbox.out" 2>"$work/sandbox.err" &
bench_started $!
wait_for_line "$work/sandbox.out" '^roomkey-sandbox: ready '
base_url=$(sed -E 's/.*base_url=([^ ]+).*/\1/' "$work/sandbox.out")
auth_url=$(sed -E 's/.*auth_url=([^ ]+).*/\1/' "$work/sandbox.out")
consent_url=$(sed -E 's/.*consent_url=([^ ]+).*/\1/' "$work/sandbox.out")

helper_port=$(free_port)
mkdir -p "$work/web" && echo '<!doctype html><title>bench</title>' >"$work/web/index.html"
"$build/bin/roomkey-helper" serve --port "$helper_port" --state-dir "$state" --web-root "$work/web" \
  --base-url "$base_url" --auth-url "$auth_url" --consent-url "$consent_url" --client-id bench \
  >"$work/helper.out" 2>"$work/helper.err" &
bench_started $!
wait_for_line "$work/helper.out" '^roomkey: app at '

# The new-connection pair: a second sandbox that closes every connection
# after its first answer, and a second helper in front of it.
"$tools/bin/roomkey-sandbox" --port 0 --state-dir "$state" --no-web-client --quiet --ephemeral \
  --rate-limit 1000000 --rate-window 10 --keep-alive-requests 1 >"$work/sandbox1.out" 2>"$work/sandbox1.err" &
bench_started $!
wait_for_line "$work/sandbox1.out" '^roomkey-sandbox: ready '
base1_url=$(sed -E 's/.*base_url=([^ ]+).*/\1/' "$work/sandbox1.out")
sandbox1_hostport=${base1_url#https://}; sandbox1_hostport=${sandbox1_hostport%%/*}
helper1_port=$(free_port)
"$build/bin/roomkey-helper" serve --port "$helper1_port" --state-dir "$state" --web-root "$work/web" \
  --base-url "$base1_url" --auth-url "$auth_url" --consent-url "$consent_url" --client-id bench \
  >"$work/helper1.out" 2>"$work/helper1.err" &
bench_started $!
wait_for_line "$work/helper1.out" '^roomkey: app at '

# nginx as an HTTPS reverse proxy to the sandbox: the peer a user would put
# where the helper is. The same certificate, the same route
# (GET /api/my/status -> /v2/my/status), the same TLS versions (1.2 and
# 1.3, both sides), upstream TLS verified against the local CA (name
# "localhost", which the certificate carries), upstream keep-alive
# connections (the helper pools them too).
nginx_port=$(free_port)
nginx1_port=$(free_port)
sandbox_hostport=${base_url#https://}; sandbox_hostport=${sandbox_hostport%%/*}
mkdir -p "$work/nginx/tmp"
# nginx.conf's server {} for one of the two fronts: on `port`, proxying
# GET /api/my/status to the upstream block `upstream` (the sandbox at
# `hostport`, named in Host); the fronts differ only in these.
proxy_server() {  # port upstream hostport
  cat <<EOF
  server {
    listen 127.0.0.1:$1 ssl;
    ssl_certificate $state/server-cert.pem;
    ssl_certificate_key $state/server-key.pem;
    location = /api/my/status {
      proxy_pass https://$2/v2/my/status;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $3;
      proxy_ssl_verify on;
      proxy_ssl_trusted_certificate $state/ca-cert.pem;
      proxy_ssl_name localhost;
      proxy_ssl_session_reuse on;
    }
    location / { return 404; }
  }
EOF
}
cat >"$work/nginx/nginx.conf" <<EOF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $work/nginx/tmp;
  proxy_temp_path $work/nginx/tmp;
  fastcgi_temp_path $work/nginx/tmp;
  uwsgi_temp_path $work/nginx/tmp;
  scgi_temp_path $work/nginx/tmp;
  keepalive_requests 1000;
  # The protocols the helper speaks on both sides (and the generated front:
  # nginx_config.cpp). nginx 1.22's defaults stop at TLS 1.2, whose session
  # resumption skips the key exchange: it made nginx's new upstream
  # connection ~0.4 ms cheaper than a TLS 1.3 one, which resumes with a
  # fresh (EC)DHE (forward secrecy) on both ends.
  ssl_protocols TLSv1.2 TLSv1.3;
  proxy_ssl_protocols TLSv1.2 TLSv1.3;
  upstream sandbox {
    server $sandbox_hostport;
    keepalive 16;
    keepalive_requests 1000;
  }
  upstream sandbox1 {
    server $sandbox1_hostport;
    keepalive 16;
  }
$(proxy_server "$nginx_port" sandbox "$sandbox_hostport")
$(proxy_server "$nginx1_port" sandbox1 "$sandbox1_hostport")
}
EOF
/usr/sbin/nginx -c "$work/nginx/nginx.conf" -e stderr 2>"$work/nginx.err" &
bench_started $!
for _ in $(seq 1 50); do
  curl -sf -o /dev/null --cacert "$state/ca-cert.pem" -H "x-servicetoken: $token" \
    "https://127.0.0.1:$nginx_port/api/my/status" && break
  sleep 0.1
done

# The generated front, started as run.sh starts it.
front_port=$(free_port)
ROOMKEY_HELPER="$build/bin/roomkey-helper" scripts/nginx-front.sh --port "$front_port" --state-dir "$state" \
  --web-root "$work/web" --base-url "$base_url" --auth-url "$auth_url" --consent-url "$consent_url" \
  --client-id bench >"$work/front.out" 2>"$work/front.err" &
bench_started $!
wait_for_line "$work/front.out" '^roomkey: app at '

urls_nginx="https://127.0.0.1:$nginx_port/api/my/status"
urls_front="https://127.0.0.1:$front_port/api/my/status"
urls_sandbox="$base_url/my/status"
urls_helper="https://127.0.0.1:$helper_port/api/my/status"
urls_nginx1="https://127.0.0.1:$nginx1_port/api/my/status"
urls_helper1="https://127.0.0.1:$helper1_port/api/my/status"
# Every target must answer 200 before it is measured: a fast 429 or 403 would
# be a meaningless figure.
for url in "$urls_nginx" "$urls_sandbox" "$urls_helper" "$urls_front" "$urls_nginx1" "$urls_helper1"; do
  code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$state/ca-cert.pem" \
    -H "x-servicetoken: $token" -H 'X-Roomkey-Request: 1' "$url")
  [ "$code" = 200 ] || { echo "bench: $url answered $code, not 200" >&2; cat "$work/nginx.err" "$work/front.err" >&2; exit 1; }
done

# wrk runs; prints "rps non2xx".
throughput() {  # url
  local out
  out=$(wrk -t2 -c8 -d"${seconds}s" -H "x-servicetoken: $token" -H 'X-Roomkey-Request: 1' "$1")
  awk '
    /Requests\/sec:/ { rps = $2 }
    /Non-2xx or 3xx responses:/ { bad = $5 }
    END { printf "%.0f %d\n", rps, bad + 0 }' <<<"$out"
}
# The probe's samples (microseconds) are appended to $work/lat.MODE.NAME.
latency() {  # mode name url probe-args...
  local mode=$1 name=$2 url=$3; shift 3
  "$probe" --url "$url" --ca "$state/ca-cert.pem" --header "x-servicetoken: $token" \
    --header 'X-Roomkey-Request: 1' "$@" >>"$work/lat.$mode.$name" \
    || { echo "bench: the $mode latency run through $name failed" >&2; exit 1; }
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# pct FILE: "p50 p99 p99.9 count" in ms (nearest rank).
pct() {
  sort -n "$1" | awk '{ v[NR] = $1 }
    function at(p) { i = int(p * NR + 0.999999); if (i < 1) i = 1; return v[i] / 1000 }
    END { printf "%.3f %.3f %.3f %d\n", at(0.50), at(0.99), at(0.999), NR }'
}

declare -A rps
names="sandbox nginx helper front"
for round in $(seq 1 "$rounds"); do
  printf 'bench: round %d/%d\r' "$round" "$rounds" >&2
  for name in $names; do
    var=urls_$name
    read -r r bad < <(throughput "${!var}")
    [ "$bad" = 0 ] || { echo "bench: $name gave $bad non-2xx answers" >&2; exit 1; }
    rps[$name]+="$r "
  done
  for name in $names; do
    var=urls_$name
    latency b2b "$name" "${!var}" --seconds "$seconds"
  done
  for name in $names; do
    var=urls_$name
    latency paced "$name" "${!var}" --requests "$paced" --gap-ms 10-30
  done
  for name in nginx1 helper1; do
    var=urls_$name
    latency new "$name" "${!var}" --requests $(( (paced + 1) / 2 )) --gap-ms 10-30
  done
done
echo >&2

calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
med() { tr ' ' '\n' <<<"$1" | grep . | median; }
n_rps=$(med "${rps[nginx]}"); s_rps=$(med "${rps[sandbox]}"); h_rps=$(med "${rps[helper]}")
f_rps=$(med "${rps[front]}")
echo "machine: $(nproc) cores; $rounds rounds; throughput: median of ${seconds} s wrk runs;"
echo "latency: percentiles of all rounds' samples pooled (back to back: ${seconds} s per round, paced: $paced requests per round)"
echo "servers measured: $build; probe and the new-connection sandbox: $tools"
echo
printf '%-42s %10s %10s\n' "requests/s, 8 keep-alive conns" "req/s" "vs nginx"
printf '%-42s %10.0f %10s\n' "sandbox GET /v2/my/status (direct)" "$s_rps" "-"
printf '%-42s %10.0f %10s\n' "nginx proxy GET /api/my/status (ref)" "$n_rps" "1.00"
printf '%-42s %10.0f %10.2f\n' "helper GET /api/my/status" "$h_rps" "$(calc "$h_rps / $n_rps")"
printf '%-42s %10.0f %10.2f\n' "generated nginx front GET /api/my/status" "$f_rps" "$(calc "$f_rps / $n_rps")"
declare -A p50 p99 p999
for mode in b2b paced; do
  echo
  if [ $mode = b2b ]; then title="latency ms, 1 conn, back to back"; else title="latency ms, 1 conn, paced 10-30 ms"; fi
  printf '%-42s %8s %8s %8s %8s %8s %8s %7s\n' "$title" p50 p99 p99.9 +p50 +p99 +p99.9 n
  for name in $names; do
    read -r a b c n < <(pct "$work/lat.$mode.$name")
    p50[$mode.$name]=$a; p99[$mode.$name]=$b; p999[$mode.$name]=$c
    case $name in
      sandbox) label="sandbox direct" ;; nginx) label="through nginx proxy (ref)" ;;
      helper) label="through the helper" ;; front) label="through the generated nginx front" ;;
    esac
    if [ $name = sandbox ]; then
      printf '%-42s %8.3f %8.3f %8.3f %8s %8s %8s %7d\n' "$label" "$a" "$b" "$c" - - - "$n"
    else
      printf '%-42s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %7d\n' "$label" "$a" "$b" "$c" \
        "$(calc "$a - ${p50[$mode.sandbox]}")" "$(calc "$b - ${p99[$mode.sandbox]}")" \
        "$(calc "$c - ${p999[$mode.sandbox]}")" "$n"
    fi
  done
done
echo
printf '%-42s %8s %8s %8s %7s\n' "new upstream connection, paced (ms)" p50 p99 p99.9 n
read -r n1_50 n1_99 n1_999 n1_n < <(pct "$work/lat.new.nginx1")
read -r h1_50 h1_99 h1_999 h1_n < <(pct "$work/lat.new.helper1")
printf '%-42s %8.3f %8.3f %8.3f %7d\n' "through nginx proxy (ref)" "$n1_50" "$n1_99" "$n1_999" "$n1_n"
printf '%-42s %8.3f %8.3f %8.3f %7d\n' "through the helper" "$h1_50" "$h1_99" "$h1_999" "$h1_n"
echo
added() { calc "${p99[$1.$2]} - ${p99[$1.sandbox]}"; }
echo "goals (issue 29):"
echo "  throughput, 8 conns: helper/nginx $(calc "$h_rps / $n_rps") (>= 0.75)"
echo "  added p99, back to back: helper $(added b2b helper) ms vs nginx $(added b2b nginx) ms (<=)"
echo "  added p99, paced: helper $(added paced helper) ms vs nginx $(added paced nginx) ms (<=)"
echo "  new upstream connection p50: helper/nginx $(calc "$h1_50 / $n1_50") (<= 1.20)"
