#!/usr/bin/env bash
# run.sh: set up what is missing, build, and start roomkey on this machine:
# roomkey-sandbox (the local stand-in for the chat service) and roomkey-helper
# (serves the app over HTTPS on 127.0.0.1, is its redirect URI, proxies token
# and API calls to the sandbox), or nginx configured by `roomkey-helper
# nginx-config` in its place. Both servers are release builds (the
# native-release preset). Prints, once ready:
#   roomkey: app at https://127.0.0.1:PORT/
# and runs until Ctrl-C.
#
#   ./scripts/run.sh [--port N] [--sandbox-port N] [--state-dir DIR] [--fixture FILE] [--front F] [--bff [--helpers N] [--redis]] [--no-build]
#     --port N          the app's port (default 8443; 0 = any free port)
#     --sandbox-port N  the sandbox's port (default 0 = any free port)
#     --state-dir DIR   certificates, local CA and logs/ (default ~/.local/state/roomkey)
#     --fixture FILE    the sandbox's data from a JSON fixture instead of the demo data
#                       (docs/sandbox.md "Fixtures"; a large one: roomkey-sandbox generate)
#     --front F         helper (default) or nginx (unprivileged, files in STATE_DIR/nginx)
#     --bff             the BFF mode (docs/bff.md): a confidential client "roomkey-bff"
#                       (its secret in STATE_DIR/bff-client-secret), the helper keeps the tokens
#     --helpers N       with --front nginx --bff: N BFF helpers on loopback behind nginx,
#                       sharing STATE_DIR's key (default 1)
#     --redis           with --bff: signed-out sessions shared through a redis-server
#                       on a free loopback port (nothing saved), as helpers on several
#                       machines share one (--bff-store, docs/deploy.md step 7)
#     --no-build        start what is already built
set -euo pipefail
cd "$(dirname "$0")/.."

port=8443
sandbox_port=0
state_dir="${XDG_STATE_HOME:-$HOME/.local/state}/roomkey"
build=1
front=helper
bff=0
helpers=1
fixture=
redis=0
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="${2:?--port needs a number}"; shift 2 ;;
    --sandbox-port) sandbox_port="${2:?--sandbox-port needs a number}"; shift 2 ;;
    --state-dir) state_dir="${2:?--state-dir needs a folder}"; shift 2 ;;
    --fixture) fixture="${2:?--fixture needs a file}"; shift 2 ;;
    --front) front="${2:?--front needs helper or nginx}"; shift 2 ;;
    --bff) bff=1; shift ;;
    --helpers) helpers="${2:?--helpers needs a number}"; shift 2 ;;
    --redis) redis=1; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case "$port" in ''|*[!0-9]*) echo "run.sh: --port must be a number 0-65535, not '$port'" >&2; exit 2 ;; esac
case "$front" in helper|nginx) ;; *) echo "run.sh: --front must be helper or nginx, not '$front'" >&2; exit 2 ;; esac
case "$helpers" in ''|*[!0-9]*|0) echo "run.sh: --helpers must be a number 1-16, not '$helpers'" >&2; exit 2 ;; esac
if [ "$helpers" -gt 16 ]; then echo "run.sh: --helpers must be a number 1-16, not '$helpers'" >&2; exit 2; fi
if [ "$helpers" != 1 ] && { [ "$front" != nginx ] || [ "$bff" != 1 ]; }; then
  echo "run.sh: --helpers N is for --front nginx --bff (several BFF helpers behind nginx)" >&2; exit 2
fi

if [ "$redis" = 1 ] && [ "$bff" != 1 ]; then
  echo "run.sh: --redis is for --bff (where the helpers keep signed-out sessions)" >&2; exit 2
fi

if [ "$build" = 1 ]; then
  . scripts/build_jobs.sh
  ./scripts/setup.sh --check >/dev/null 2>&1 || ./scripts/setup.sh
  echo "run: building (wasm: web app; native-release: helper + sandbox)" >&2
  { cmake --preset wasm && cmake --build --preset wasm --target roomkey_web_dist &&
    cmake --preset native-release && cmake --build --preset native-release --target roomkey-helper roomkey-sandbox; } >build-run.log 2>&1 \
    || { tail -30 build-run.log >&2; echo "run.sh: the build failed (full log: build-run.log)" >&2; exit 1; }
fi
# Users run the optimized servers; the Debug/asan/fuzz presets are for tests.
bin=build/native-release/bin
web=build/wasm/web/dist

# The sandbox registers the app's redirect URI, so the app's port must be known
# before either starts: with --port 0, ask the OS for a free one now.
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
if [ "$port" = 0 ]; then
  port=$(free_port)
fi

pids=()
# Each server's output (its log lines: redacted, no secret) stays in the
# state dir after the run, one folder per run, to read after a problem.
log_dir="$state_dir/logs/$(date -u +%Y%m%dT%H%M%SZ)-$$"
mkdir -p "$log_dir" && chmod 700 "$state_dir" "$state_dir/logs"
echo "run: logs in $log_dir" >&2
cleanup() {
  trap - INT TERM EXIT
  # Every background job: both servers and the log follower.
  for pid in $(jobs -p); do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "run: the servers' logs are kept in $log_dir" >&2
}
trap cleanup EXIT
trap 'echo "run.sh: stopping" >&2; exit 130' INT TERM

# Starts a program in the background (in this shell, not a subshell, so that
# its pid is ours to wait for and to stop), waits for its ready line (matching
# $2) and leaves it in $ready_line.
ready_line=
start_and_wait() {
  local name=$1 pattern=$2; shift 2
  local out="$log_dir/$name.out"
  "$@" >"$out" 2>"$log_dir/$name.err" &
  pids+=($!)
  for _ in $(seq 1 200); do
    if grep -qE "$pattern" "$out" 2>/dev/null; then ready_line=$(grep -E "$pattern" "$out" | head -1); return 0; fi
    if ! kill -0 "${pids[-1]}" 2>/dev/null; then
      cat "$log_dir/$name.err" "$out" >&2; echo "run.sh: $name did not start (see above)" >&2; exit 1
    fi
    sleep 0.1
  done
  echo "run.sh: $name was not ready after 20 s" >&2; exit 1
}

sandbox_args=(--port "$sandbox_port" --state-dir "$state_dir" --web-port "$port")
if [ -n "$fixture" ]; then sandbox_args+=(--fixture "$fixture"); fi
if [ "$bff" = 1 ]; then
  # The BFF mode's confidential client: its secret made once, kept 0600 in
  # the state dir, registered with the sandbox from a 0600 clients file (a
  # secret never goes on a command line).
  mkdir -p "$state_dir" && chmod 700 "$state_dir"
  secret_file="$state_dir/bff-client-secret"
  if [ ! -s "$secret_file" ]; then
    (umask 077; head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' >"$secret_file")
  fi
  clients_file="$state_dir/bff-clients.json"
  (umask 077; printf '{"clients": [{"client_id": "roomkey-bff", "name": "roomkey (BFF)", "type": "confidential", "client_secret": "%s", "redirect_uri": "https://127.0.0.1:%s/callback", "scopes": ["users.all:read", "rooms.all:read_write", "contacts.all:read_write", "offline_access"]}]}\n' \
    "$(cat "$secret_file")" "$port" >"$clients_file")
  sandbox_args+=(--clients "$clients_file")
fi
start_and_wait sandbox '^roomkey-sandbox: ready ' "$bin/roomkey-sandbox" "${sandbox_args[@]}"
base_url=$(sed -E 's/.*base_url=([^ ]+).*/\1/' <<<"$ready_line")
auth_url=$(sed -E 's/.*auth_url=([^ ]+).*/\1/' <<<"$ready_line")
consent_url=$(sed -E 's/.*consent_url=([^ ]+).*/\1/' <<<"$ready_line")
echo "run: sandbox at ${base_url%/v2}/ (demo users and clients: docs/sandbox.md)" >&2

front_args=(--port "$port" --state-dir "$state_dir" --web-root "$web"
  --base-url "$base_url" --auth-url "$auth_url" --consent-url "$consent_url")
if [ "$bff" = 1 ]; then
  front_args+=(--client-id roomkey-bff --client-type confidential --client-secret-file "$secret_file"
    --session bff --scope "users.all:read rooms.all:read_write")
else
  front_args+=(--client-id roomkey-web --client-type public)
fi
if [ "$redis" = 1 ]; then
  redis_port=$(free_port)
  start_and_wait redis 'Ready to accept connections' \
    /usr/bin/redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$log_dir"
  front_args+=(--bff-store "redis://127.0.0.1:$redis_port")
  echo "run: redis-server at 127.0.0.1:$redis_port keeps the signed-out sessions (nothing saved)" >&2
fi
if [ "$front" = nginx ] && [ "$bff" = 1 ]; then
  # The BFF helpers on loopback, one state dir (so one key) for all; the
  # browser sees nginx's origin, which they accept (--front-origin).
  helper_ports=()
  for i in $(seq 1 "$helpers"); do
    helper_port=$(free_port)
    helper_ports+=(--bff-helper "$helper_port")
    bff_args=("${front_args[@]}")
    bff_args[1]=$helper_port  # --port
    start_and_wait "bff$i" '^roomkey: app at ' \
      "$bin/roomkey-helper" serve "${bff_args[@]}" --front-origin "https://127.0.0.1:$port"
    echo "run: BFF helper $i at https://127.0.0.1:$helper_port/ (behind nginx)" >&2
  done
  start_and_wait helper '^roomkey: app at ' \
    env ROOMKEY_HELPER="$bin/roomkey-helper" ./scripts/nginx-front.sh "${front_args[@]}" "${helper_ports[@]}"
elif [ "$front" = nginx ]; then
  # The same flags; nginx-front.sh generates the configuration from them.
  start_and_wait helper '^roomkey: app at ' \
    env ROOMKEY_HELPER="$bin/roomkey-helper" ./scripts/nginx-front.sh "${front_args[@]}"
else
  start_and_wait helper '^roomkey: app at ' "$bin/roomkey-helper" serve "${front_args[@]}"
fi
# The helper's full ready output (the app line, and how to trust the local CA
# when the browser does not yet) is the one thing on stdout.
cat "$log_dir/helper.out"
# Its notes (the local CA, and how to trust it if the browser does not yet).
cat "$log_dir/helper.err" >&2
echo "run: press Ctrl-C to stop" >&2
# The servers' logs (method, path, status, time; secrets redacted) go on
# stderr so that stdout holds only the ready lines.
logs=("$log_dir/sandbox.out" "$log_dir/sandbox.err" "$log_dir/helper.out" "$log_dir/helper.err")
for f in "$log_dir"/bff*.err; do [ -e "$f" ] && logs+=("$f"); done
# nginx writes its access log (redacted like the helper's) to a file.
[ "$front" = nginx ] && logs+=("$state_dir/nginx/access.log")
[ "$front" = nginx ] && echo "run: nginx's own logs in $state_dir/nginx/ (access.log, error.log)" >&2
tail -q -n 0 -F "${logs[@]}" 2>/dev/null >&2 &
# Until Ctrl-C (the trap stops both) or until either server stops on its own,
# which stops the other: a helper without its sandbox is of no use.
status=0
wait -n "${pids[@]}" || status=$?
echo "run.sh: a server stopped (exit status $status); stopping the other" >&2
exit "$status"
