#!/usr/bin/env bash
# tls_suites.sh: which TLS versions and suites roomkey-helper and the nginx
# front (scripts/nginx-front.sh) accept, probed one suite at a time with
# `openssl s_client` (a quick check of the suites a scanner flagged;
# bench/tls_audit.sh runs testssl.sh itself), then
# which suite each server picks when the client lists AES-128-GCM first
# (the server's order wins when that is not AES-128). Prints one line per
# suite: "suite  helper  nginx".
#
#   ./bench/tls_suites.sh [--build build/native]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build=build/native
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) bench_unknown_option "$1" ;;
  esac
done
helper=$build/bin/roomkey-helper
[ -x "$helper" ] || { echo "tls_suites: $helper is missing: build roomkey-helper" >&2; exit 2; }
web=$work/web; mkdir -p "$web"; echo '<!doctype html>' >"$web/index.html"
hp=$(free_port); np=$(free_port)
"$helper" serve --port "$hp" --state-dir "$work/state" --web-root "$web" >"$work/helper.log" 2>&1 &
bench_started $!
ROOMKEY_HELPER=$helper scripts/nginx-front.sh --port "$np" --state-dir "$work/state" --web-root "$web" \
  >"$work/nginx.log" 2>&1 &
bench_started $!
wait_for_line "$work/helper.log" '^roomkey: app at'
wait_for_line "$work/nginx.log" '^roomkey: app at'

probe() {  # probe PORT VERSION SUITE -> accepted|refused
  local opt=(-cipher "$3:@SECLEVEL=0")
  [ "$2" = tls1_3 ] && opt=(-ciphersuites "$3")
  if timeout 5 openssl s_client -connect "127.0.0.1:$1" "-$2" "${opt[@]}" </dev/null >/dev/null 2>&1; then
    echo accepted; else echo refused; fi
}
printf '%-40s %-9s %s\n' suite helper nginx
for c in ECDHE-ECDSA-AES256-GCM-SHA384 ECDHE-ECDSA-CHACHA20-POLY1305 ECDHE-ECDSA-AES128-GCM-SHA256 \
  ECDHE-ECDSA-AES128-SHA ECDHE-ECDSA-AES256-SHA ECDHE-ECDSA-AES128-SHA256 ECDHE-ECDSA-AES256-SHA384 \
  ECDHE-ECDSA-AES128-CCM8 ECDHE-ECDSA-AES256-CCM ECDHE-ECDSA-CAMELLIA128-SHA256 ECDHE-ECDSA-ARIA128-GCM-SHA256; do
  printf 'TLSv1.2 %-32s %-9s %s\n' "$c" "$(probe "$hp" tls1_2 "$c")" "$(probe "$np" tls1_2 "$c")"
done
for s in TLS_AES_256_GCM_SHA384 TLS_CHACHA20_POLY1305_SHA256 TLS_AES_128_GCM_SHA256 TLS_AES_128_CCM_SHA256; do
  printf 'TLSv1.3 %-32s %-9s %s\n' "$s" "$(probe "$hp" tls1_3 "$s")" "$(probe "$np" tls1_3 "$s")"
done
for v in tls1 tls1_1; do
  printf '%-40s %-9s %s\n' "$v (any suite)" "$(probe "$hp" "$v" ALL)" "$(probe "$np" "$v" ALL)"
done
chosen() {
  timeout 5 openssl s_client -connect "127.0.0.1:$1" -tls1_2 \
    -cipher 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES256-GCM-SHA384' \
    </dev/null 2>/dev/null | sed -n 's/.*Cipher is //p' | head -1
}
printf '%-40s %-9s %s\n' "chosen (client: AES128 first)" "$(chosen "$hp")" "$(chosen "$np")"
