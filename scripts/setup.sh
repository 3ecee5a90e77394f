#!/usr/bin/env bash
# setup.sh: install everything roomkey needs on a Debian 12 machine.
# Idempotent and non-interactive: each step checks first and does nothing when
# its result is already there, so run.sh and test.sh call it every time.
#   ./scripts/setup.sh          install what is missing
#   ./scripts/setup.sh --check  only report what is missing (exit 1 if any)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
check_only=0
case "${1:-}" in
  --check) check_only=1 ;;
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "setup.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

say() { printf 'setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive

# Debian packages, and a file each one installs (cheaper to test than dpkg -s).
packages=(
  "cmake:/usr/bin/cmake"
  "ninja-build:/usr/bin/ninja"
  "g++:/usr/bin/g++"
  "clang:/usr/bin/clang++"
  "libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a"
  "pkg-config:/usr/bin/pkg-config"
  "libssl-dev:/usr/include/openssl/ssl.h"
  "libjemalloc-dev:/usr/include/jemalloc/jemalloc.h"
  # roomkey-sandbox keeps its state in SQLite (helper/sandbox/store.hpp)
  "libsqlite3-dev:/usr/include/sqlite3.h"
  # cpp-httplib 0.18.7 is compiled from its Debian 13 sources (below) with
  # OpenSSL, zlib and brotli, as Debian 12's libcpp-httplib-dev 0.11.4 was;
  # python3 runs its split.py at configure time.
  "zlib1g-dev:/usr/include/zlib.h"
  "libbrotli-dev:/usr/include/brotli/encode.h"
  "python3:/usr/bin/python3"
  "nlohmann-json3-dev:/usr/include/nlohmann/json.hpp"
  "googletest:/usr/src/googletest/CMakeLists.txt"
  "libgtest-dev:/usr/include/gtest/gtest.h"
  "emscripten:/usr/bin/em++"
  "binaryen:/usr/bin/wasm-opt"
  "chromium:/usr/bin/chromium"
  "libnss3-tools:/usr/bin/certutil"
  "brotli:/usr/bin/brotli"
  "xz-utils:/usr/bin/xz"
  "dpkg-dev:/usr/bin/dpkg-source"
  "curl:/usr/bin/curl"
  "wrk:/usr/bin/wrk"
  # BFF revocations shared by helpers on several machines
  # (--bff-store redis://..., helper/helper/bff_redis_store.hpp) and the
  # redis-server its test starts on a loopback port
  "libhiredis-dev:/usr/include/hiredis/hiredis.h"
  "redis-server:/usr/bin/redis-server"
  # bench/tls_suites.sh: one `openssl s_client` handshake per suite
  "openssl:/usr/bin/openssl"
  # ./scripts/run.sh --front nginx and its tests (roomkey-helper nginx-config)
  "nginx-light:/usr/sbin/nginx"
  "libnginx-mod-http-brotli-static:/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"
  # A CJK and a colour emoji font: the app rasterizes glyphs with the
  # browser's fonts, so the e2e tests see real Japanese, Cyrillic and emoji.
  "fonts-noto-cjk:/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
  "fonts-noto-color-emoji:/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
  # The cross-engine tests (tests/engines): Firefox through WebDriver BiDi,
  # WebKitGTK's WebKitWebDriver and MiniBrowser, and the X server both need
  # (headless Firefox gets no WebGL2 here; MiniBrowser has no headless mode).
  "firefox-esr:/usr/bin/firefox-esr"
  "webkit2gtk-driver:/usr/bin/WebKitWebDriver"
  "xvfb:/usr/bin/xvfb-run"
  # No window manager runs under xvfb-run, so Firefox's window never has the
  # focus and Enter on a focused button clicks nothing: tests/engines/x_focus.mjs
  # gives it the focus with one real X click (BiDi's input cannot).
  "xdotool:/usr/bin/xdotool"
)
missing=()
for entry in "${packages[@]}"; do
  [ -e "${entry#*:}" ] || missing+=("${entry%%:*}")
done
# Node: the machine's NodeSource node is used when present; otherwise the
# nodejs package of whatever archive is configured (it brings npm).
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs)

# Newer libraries from Debian 13's *source* packages (never a trixie binary
# line: those packages need Debian 13's libc). Each entry: the source package,
# the upstream version it must be (the orig tarball's), and a file its folder
# third_party/<package>-<version>/ holds once unpacked.
trixie_sources=(
  "imgui:1.90.1:imgui-1.90.1/imgui.cpp"
  "cpp-httplib:0.18.7:cpp-httplib-0.18.7/httplib.h"
)
npm_ok=1
for module in playwright-core google-closure-compiler puppeteer-core selenium-webdriver; do
  [ -d "node_modules/$module" ] || npm_ok=0
done

if [ "$check_only" = 1 ]; then
  [ ${#missing[@]} = 0 ] || say "missing packages: ${missing[*]}"
  sources_ok=1
  for entry in "${trixie_sources[@]}"; do
    [ -f "$root/third_party/${entry##*:}" ] || { say "missing Debian 13 sources: ${entry%%:*}"; sources_ok=0; }
  done
  [ "$npm_ok" = 1 ] || say "missing npm dev tools (node_modules)"
  [ ${#missing[@]} = 0 ] && [ "$sources_ok" = 1 ] && [ "$npm_ok" = 1 ]
  exit
fi

apt_updated=0
apt_update() { [ "$apt_updated" = 1 ] || { say "apt-get update"; as_root apt-get update -qq; apt_updated=1; }; }

if [ ${#missing[@]} -gt 0 ]; then
  apt_update
  say "installing ${missing[*]}"
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian 13 sources, pinned to the upstream versions above: a deb-src entry
# for trixie beside the bookworm one, then each orig tarball, checked and
# unpacked into third_party/<package>-<version>/.
trixie_missing=()
for entry in "${trixie_sources[@]}"; do
  [ -f "$root/third_party/${entry##*:}" ] || trixie_missing+=("$entry")
done
if [ ${#trixie_missing[@]} -gt 0 ]; then
  trixie_list=/etc/apt/sources.list.d/roomkey-trixie-src.sources
  if [ ! -f "$trixie_list" ]; then
    say "adding a deb-src entry for trixie main ($trixie_list; sources only, no binaries)"
    uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [ -n "$uri" ] || uri=http://deb.debian.org/debian
    printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$uri" \
      | as_root tee "$trixie_list" >/dev/null
    apt_updated=0
  fi
  apt_update
  for entry in "${trixie_missing[@]}"; do
    package=${entry%%:*}; rest=${entry#*:}; version=${rest%%:*}
    tmp=$(mktemp -d)
    say "fetching $package $version sources (apt-get source $package/trixie)"
    (cd "$tmp" && apt-get source --download-only -qq "$package/trixie" >/dev/null 2>&1) \
      || { echo "setup: apt-get source $package/trixie failed; is deb.debian.org reachable?" >&2; exit 1; }
    dsc=$(ls "$tmp/${package}_${version}"[-+]*.dsc 2>/dev/null | head -1)
    if [ -z "$dsc" ]; then
      echo "setup: trixie no longer has $package $version (found: $(cd "$tmp" && ls ./*.dsc 2>/dev/null | tr '\n' ' ')); update the pin in scripts/setup.sh" >&2
      exit 1
    fi
    # dpkg-source applies Debian's patches: cpp-httplib 0.18.7-1+deb13u1
    # carries the fixes for CVE-2025-46728, -52887 and -53629, which the
    # upstream tarball alone lacks. apt already checked every file's hash
    # against the signed index, so the .dsc's own signature is not re-checked.
    dest=$root/third_party/$package-$version
    rm -rf "$dest"
    mkdir -p "$root/third_party"  # ignored by git: absent from a fresh clone
    (cd "$tmp" && dpkg-source --no-check --no-copy -x "$dsc" "$dest" >/dev/null) \
      || { echo "setup: dpkg-source -x $dsc failed" >&2; exit 1; }
    rm -rf "$tmp"
    [ -f "$root/third_party/${entry##*:}" ] || { echo "setup: ${entry##*:} not found in $dsc" >&2; exit 1; }
  done
fi

# npm dev tools from the committed lockfile. No browser is downloaded:
# playwright-core and puppeteer-core never do, and the variable says so to
# any puppeteer package that might; the tests drive Debian's browsers.
if [ "$npm_ok" = 0 ]; then
  export PUPPETEER_SKIP_DOWNLOAD=1
  say "installing npm dev tools (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
say "ready"
