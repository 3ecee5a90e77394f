#!/usr/bin/env bash
# nginx-front.sh: nginx in place of roomkey-helper, for ./scripts/run.sh
# --front nginx and the e2e/parity tests. Takes `roomkey-helper serve`'s
# flags, generates the configuration with `roomkey-helper nginx-config
# --standalone` under STATE_DIR/nginx (prefix, pid, logs, temp files), runs
# nginx in the foreground as this user, and prints the helper's ready line:
#   roomkey: app at https://127.0.0.1:PORT/
# SIGINT/SIGTERM stop nginx gracefully (QUIT) and end this script.
#
#   ROOMKEY_HELPER=build/.../roomkey-helper scripts/nginx-front.sh --port N --state-dir DIR [serve flags]
set -euo pipefail
helper=${ROOMKEY_HELPER:-$(dirname "$0")/../build/native-release/bin/roomkey-helper}
nginx_bin=${ROOMKEY_NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
[ -x "$nginx_bin" ] || { echo "nginx-front: nginx is missing: ./scripts/setup.sh installs it (nginx-light)" >&2; exit 2; }
[ -x "$helper" ] || { echo "nginx-front: $helper is missing: build roomkey-helper first" >&2; exit 2; }

# The port and state dir the generator will use (the rest is its business).
port= state_dir=
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --port) port=${args[i+1]:-} ;;
    --port=*) port=${args[i]#--port=} ;;
    --state-dir) state_dir=${args[i+1]:-} ;;
    --state-dir=*) state_dir=${args[i]#--state-dir=} ;;
  esac
done
[ -n "$port" ] && [ "$port" != 0 ] || { echo "nginx-front: --port N (a fixed port) is required" >&2; exit 2; }
[ -n "$state_dir" ] || { echo "nginx-front: --state-dir DIR is required" >&2; exit 2; }
out="$state_dir/nginx"

"$helper" nginx-config "$@" --out "$out" --standalone >/dev/null
rm -f "$out/error.log"
"$nginx_bin" -p "$out" -c "$out/nginx.conf" -e "$out/error.log" &
nginx_pid=$!
stop() { kill -QUIT "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; exit 0; }
trap stop INT TERM

# Ready once the port accepts a TLS connection's TCP handshake.
for _ in $(seq 1 200); do
  if ! kill -0 "$nginx_pid" 2>/dev/null; then
    cat "$out/error.log" >&2 2>/dev/null || true
    echo "nginx-front: nginx did not start (see above)" >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.05
done
echo "roomkey-nginx: config $out/nginx.conf, access log $out/access.log, error log $out/error.log" >&2
echo "roomkey: app at https://127.0.0.1:$port/"
# Until a signal, or until nginx stops on its own.
wait "$nginx_pid"
