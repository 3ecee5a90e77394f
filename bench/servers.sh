#!/usr/bin/env bash
# servers.sh: how fast roomkey's two servers answer, and the helper's proxy
# next to nginx as an HTTPS reverse proxy to the same sandbox, measured in
# the same run.
#
#   requests/s, 8 keep-alive connections (wrk -t2 -c8):
#     sandbox  GET /v2/my/status     roomkey-sandbox (API token, rate limit raised)
#     nginx    GET /api/my/status    nginx proxy_pass https:// -> the sandbox (the reference)
#     helper   GET /api/my/status    roomkey-helper's API proxy -> the sandbox
#     front    GET /api/my/status    nginx as `roomkey-helper nginx-config` writes it
#                                    (./scripts/run.sh --front nginx): the
#                                    helper's checks, allowlist and access log
#   latency p50/p99, 1 keep-alive connection (wrk -t1 -c1 --latency):
#     sandbox direct vs through each front; the difference is what each
#     proxy adds
#
# Each figure is the median of --rounds rounds, the servers taken in turn in
# every round so that all see the same machine load; quote the ratios.
#
#   ./bench/servers.sh [--rounds 5] [--seconds 5] [--build build/native-release]
#
# Needs wrk and nginx (installed with apt-get when missing) and the release
# build (made when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

rounds=5
seconds=5
build=build/native-release
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a number}"; shift 2 ;;
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) bench_unknown_option "$1" ;;
  esac
done
bench_positive --rounds "$rounds"
bench_positive --seconds "$seconds"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need=()
command -v wrk >/dev/null || need+=(wrk)
[ -x /usr/sbin/nginx ] || need+=(nginx-light)
if [ ${#need[@]} -gt 0 ]; then
  echo "bench: installing ${need[*]}" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
bench_release_build "$build" bin/roomkey-sandbox bin/roomkey-helper roomkey-sandbox roomkey-helper

chmod 755 "$work"  # nginx's workers read the web root in it

token=sandbox-api-token-alice-1001
state=$work/state
# The rate limit is raised (1,000,000 per 10 s: the load measures the server,
# not its 429 path); with the default 5-minute window a few rounds at ~20k
# requests/s would use it up.
"$build/bin/roomkey-sandbox" --port 0 --state-dir "$state" --no-web-client --quiet \
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

# nginx as an HTTPS reverse proxy to the sandbox: the peer a user would put
# where the helper is. The same certificate, the same route
# (GET /api/my/status -> /v2/my/status), upstream TLS verified against the
# local CA (name "localhost", which the certificate carries), upstream
# keep-alive connections (the helper pools them too).
nginx_port=$(free_port)
sandbox_hostport=${base_url#https://}; sandbox_hostport=${sandbox_hostport%%/*}
mkdir -p "$work/nginx/tmp"
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
  keepalive_requests 1000000;
  upstream sandbox {
    server $sandbox_hostport;
    keepalive 16;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:$nginx_port ssl;
    ssl_certificate $state/server-cert.pem;
    ssl_certificate_key $state/server-key.pem;
    location = /api/my/status {
      proxy_pass https://sandbox/v2/my/status;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $sandbox_hostport;
      proxy_ssl_verify on;
      proxy_ssl_trusted_certificate $state/ca-cert.pem;
      proxy_ssl_name localhost;
      proxy_ssl_session_reuse on;
    }
    location / { return 404; }
  }
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
# Every target must answer 200 before it is measured: a fast 429 or 403 would
# be a meaningless figure.
for url in "$urls_nginx" "$urls_sandbox" "$urls_helper" "$urls_front"; do
  code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$state/ca-cert.pem" \
    -H "x-servicetoken: $token" -H 'X-Roomkey-Request: 1' "$url")
  [ "$code" = 200 ] || { echo "bench: $url answered $code, not 200" >&2; cat "$work/nginx.err" "$work/front.err" >&2; exit 1; }
done

# wrk runs; prints "rps p50_ms p99_ms non2xx".
measure() {  # url connections threads
  local out
  out=$(wrk -t"$3" -c"$2" -d"${seconds}s" --latency -H "x-servicetoken: $token" -H 'X-Roomkey-Request: 1' "$1")
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec:/ { rps = $2 }
    /^ +50%/ { p50 = ms($2) }
    /^ +99%/ { p99 = ms($2) }
    /Non-2xx or 3xx responses:/ { bad = $5 }
    END { printf "%.0f %.3f %.3f %d\n", rps, p50, p99, bad + 0 }' <<<"$out"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A rps lat50 lat99
for round in $(seq 1 "$rounds"); do
  printf 'bench: round %d/%d\r' "$round" "$rounds" >&2
  for name in sandbox nginx helper front; do
    var=urls_$name
    read -r r _ _ bad < <(measure "${!var}" 8 2)
    [ "$bad" = 0 ] || { echo "bench: $name gave $bad non-2xx answers" >&2; exit 1; }
    rps[$name]+="$r "
  done
  for name in sandbox nginx helper front; do
    var=urls_$name
    read -r _ p50 p99 bad < <(measure "${!var}" 1 1)
    [ "$bad" = 0 ] || { echo "bench: $name gave $bad non-2xx answers" >&2; exit 1; }
    lat50[$name]+="$p50 "
    lat99[$name]+="$p99 "
  done
done
echo >&2

calc() { awk "BEGIN { print $1 }"; }
med() { tr ' ' '\n' <<<"$1" | grep . | median; }
n_rps=$(med "${rps[nginx]}"); s_rps=$(med "${rps[sandbox]}"); h_rps=$(med "${rps[helper]}")
s50=$(med "${lat50[sandbox]}"); s99=$(med "${lat99[sandbox]}")
n50=$(med "${lat50[nginx]}"); n99=$(med "${lat99[nginx]}")
h50=$(med "${lat50[helper]}"); h99=$(med "${lat99[helper]}")
f_rps=$(med "${rps[front]}"); f50=$(med "${lat50[front]}"); f99=$(med "${lat99[front]}")
echo "machine: $(nproc) cores; $rounds rounds of ${seconds} s per figure; medians"
echo
printf '%-40s %10s %10s\n' "requests/s, 8 keep-alive conns" "req/s" "vs nginx"
printf '%-40s %10.0f %10s\n' "sandbox GET /v2/my/status (direct)" "$s_rps" "-"
printf '%-40s %10.0f %10s\n' "nginx proxy GET /api/my/status (ref)" "$n_rps" "1.00"
printf '%-40s %10.0f %10.2f\n' "helper GET /api/my/status" "$h_rps" "$(calc "$h_rps / $n_rps")"
printf '%-40s %10.0f %10.2f\n' "generated nginx front GET /api/my/status" "$f_rps" "$(calc "$f_rps / $n_rps")"
echo
printf '%-40s %10s %10s %10s %10s\n' "latency, 1 keep-alive conn" "p50 ms" "p99 ms" "+p50 ms" "+p99 ms"
printf '%-40s %10.3f %10.3f %10s %10s\n' "sandbox direct" "$s50" "$s99" "-" "-"
printf '%-40s %10.3f %10.3f %10.3f %10.3f\n' "through nginx proxy (ref)" "$n50" "$n99" \
  "$(calc "$n50 - $s50")" "$(calc "$n99 - $s99")"
printf '%-40s %10.3f %10.3f %10.3f %10.3f\n' "through the helper" "$h50" "$h99" \
  "$(calc "$h50 - $s50")" "$(calc "$h99 - $s99")"
printf '%-40s %10.3f %10.3f %10.3f %10.3f\n' "through the generated nginx front" "$f50" "$f99" \
  "$(calc "$f50 - $s50")" "$(calc "$f99 - $s99")"
echo
echo "goals: helper/nginx req/s $(calc "$h_rps / $n_rps") (>= 1.00);" \
  "added p99 helper $(calc "$h99 - $s99") ms vs nginx $(calc "$n99 - $s99") ms (<=)"
