// options_usage.cpp: the --help texts of roomkey-helper's commands
// (usage(), options.hpp), with the limits and presets filled in from where
// they are defined.
#include <string>
#include <string_view>

#include "helper/options.hpp"
#include "helper/service_presets.hpp"
#include "roomkey/upload_limits.hpp"

namespace roomkey::helper {

namespace {

// "1 MiB (1048576 bytes)", "5550080 bytes": for the limits in --help.
std::string describe_bytes(std::size_t bytes) {
    const std::string exact = std::to_string(bytes) + " bytes";
    if (bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + " MiB (" + exact + ")";
    return exact;
}

}  // namespace

std::string usage(std::string_view subcommand) {
    if (subcommand == "serve") {
        std::string text = R"(Usage: roomkey-helper [serve] [options]

Serves the web build over HTTPS on 127.0.0.1, is the OAuth redirect URI
(/callback), and forwards token requests (POST /oauth/token) and API calls
(/api/...) to the upstream. Prints one line when ready:
  roomkey: app at https://127.0.0.1:PORT/

Server:
  --port N              port on 127.0.0.1 (default 8443; 0 = any free port)
  --ipv6                also listen on [::1] with the same port (for browsers
                        that resolve localhost to ::1); the redirect URI and
                        the ready line stay on 127.0.0.1 ("ipv6": true in the
                        config file; --host ::1 means the same)
  --web-root DIR        the web build (default: $ROOMKEY_WEB_ROOT, else
                        build/wasm/web/dist next to this program's build tree)
  --state-dir DIR       local CA + server certificate (default: $ROOMKEY_STATE_DIR,
                        $XDG_STATE_HOME/roomkey or ~/.local/state/roomkey)
  --cert FILE --key FILE
                        serve this certificate chain and key instead of the
                        generated ones
Upstream (default: none; ./scripts/run.sh passes the sandbox's addresses):
  --config FILE         JSON file with any of: service, base_url, auth_url,
                        consent_url, client_id, client_type, client_secret_file,
                        token_header, scope, upstream_ca_file, port, host,
                        web_root, state_dir, cert_file, key_file, session,
                        front_origin
                        (default: $ROOMKEY_CONFIG)
  --service NAME        fill in a known service's published addresses and
                        API-token header; any of them given as a flag,
                        variable or config key still wins ($ROOMKEY_SERVICE):
@SERVICE_PRESETS@  --base-url URL        REST API base, ends in /v2           ($ROOMKEY_BASE_URL)
  --auth-url URL        token endpoint host ({auth_url}/token) ($ROOMKEY_AUTH_URL)
  --consent-url URL     consent screen address               ($ROOMKEY_CONSENT_URL)
  --client-id ID        OAuth client ID                      ($ROOMKEY_CLIENT_ID)
  --client-type TYPE    public (default) or confidential     ($ROOMKEY_CLIENT_TYPE)
  --client-secret-file FILE
                        confidential client secret, first line of FILE
                        ($ROOMKEY_CLIENT_SECRET_FILE, or the secret itself in
                        $ROOMKEY_CLIENT_SECRET; never a flag)
  --token-header NAME   API-token header name (default x-servicetoken) ($ROOMKEY_TOKEN_HEADER)
  --scope SCOPES        scopes the app asks for by default  ($ROOMKEY_SCOPE)
  --upstream-ca FILE    another CA to trust for the upstream (repeatable); the
                        system CAs and the local CA are always trusted
  --session MODE        who holds the tokens: browser (default: the page, in
                        wasm memory) or bff (the helper: it runs the sign-in,
                        keeps the tokens in an encrypted cookie and attaches
                        them to /api/...; needs --client-type confidential and
                        its secret; docs/bff.md)          ($ROOMKEY_SESSION)
  --front-origin URL    behind a front (nginx) at this origin, e.g.
                        https://127.0.0.1:8443: Host and Origin may name it,
                        and the redirect URI is on it     ($ROOMKEY_FRONT_ORIGIN)
  --bff-store STORE     --session bff: where signed-out sessions are kept for
                        every helper sharing the cookie key: state-dir (the
                        default; helpers on this machine) or
                        redis://HOST:PORT[/DB] (helpers on several machines;
                        docs/deploy.md step 7)            ($ROOMKEY_BFF_STORE)
  --no-preconnect       do not open upstream connections ahead of need (by
                        default the browser's return to /callback with a
                        code opens the connections its token request and the
                        dashboard's reads will use; unused ones close after 2 s)
  -h, --help            this text

Limits (fixed): request body @BODY_LIMIT@ (413),
except the file upload, POST /api/rooms/{room_id}/files: @UPLOAD_LIMIT@
(the file and its multipart envelope), as multipart/form-data with a
boundary (415 otherwise); no other route takes multipart/form-data (415).
A body over its route's limit is refused from its Content-Length before it
is read, and the connection ends.
Request-target 4 KiB (414), header section 16 KiB (431); a single header
line over 8 KiB is refused with 400 (cpp-httplib's compiled limit). Bodies
must come with Content-Length: Transfer-Encoding gets 411, Content-Encoding
415. The generated certificate is checked hourly while serving and renewed
30 days before it expires.
)";
        // The values live in service_presets.cpp and upload_limits.hpp.
        const auto fill = [&text](const std::string& placeholder, const std::string& value) {
            text.replace(text.find(placeholder), placeholder.size(), value);
        };
        fill("@SERVICE_PRESETS@", service_presets_help(24));
        fill("@BODY_LIMIT@", describe_bytes(kMaxRequestBodyBytes));
        fill("@UPLOAD_LIMIT@", describe_bytes(kMaxUploadRequestBytes));
        return text;
    }
    if (subcommand == "nginx-config") {
        return R"(Usage: roomkey-helper nginx-config [serve's options] [--out DIR] [--server-name NAME]
                                   [--access-log FILE] [--standalone] [--brotli auto|on|off]

Writes an nginx configuration that serves the app with the helper's own
guarantees (security headers, caching, limits, Host and Origin checks, the
API allowlist of shared/'s endpoint table, upstream TLS against the same
CAs, logs without queries or credentials), generated from the code the
helper runs on. Takes serve's flags, environment and config file (see
`roomkey-helper serve --help`); --port is the port nginx listens on.

Files written to DIR (default: state dir/nginx):
  roomkey.conf        maps + upstreams + the server block; include it in http {}
  upstream-ca.pem     the CAs trusted for the upstream (system + --upstream-ca + local CA)
  client-secret.conf  confidential clients only, mode 0600: the Basic header
                      roomkey.conf includes (the secret is in no other file)
  nginx.conf          with --standalone: a whole nginx.conf for
                      `nginx -p DIR -c DIR/nginx.conf` (pid, logs, temp under DIR)

  --out DIR           where the files go
  --server-name NAME  the public host name (Host and Origin must name it;
                      listens on all addresses; needs --cert/--key). Default:
                      127.0.0.1/localhost on 127.0.0.1, as the helper
  --access-log FILE   default DIR/access.log
  --standalone        also write DIR/nginx.conf (./scripts/run.sh --front nginx)
  --brotli MODE       brotli_static: auto (when the module is installed), on, off
  --bff-helper PORT   with --session bff: a BFF helper on 127.0.0.1:PORT (repeat
                      for each; started with --front-origin naming nginx).
                      nginx sends the BFF routes, the callback and /api/... to
                      them, each session to one of them (docs/bff.md)
  -h, --help          this text
Step by step: docs/deploy.md.
)";
    }
    if (subcommand == "trust") {
        return R"(Usage: roomkey-helper trust [--state-dir DIR] [--nssdb DIR] [--no-system-store]

Adds the local CA (state dir/ca-cert.pem, created if missing) to the NSS
database Chromium uses (~/.pki/nssdb) and to every Firefox profile found, with
certutil (Debian package libnss3-tools), so the browser trusts
https://127.0.0.1:PORT/ without warnings. Run as root (or with write access to
/usr/local/share/ca-certificates), it also adds it to the system store with
update-ca-certificates, which WebKitGTK (GNOME Web, MiniBrowser) and curl
read; otherwise it prints the commands an administrator runs for that. Each
replaces an older roomkey CA. Undo with `roomkey-helper untrust`.

  --state-dir DIR     where the CA lives (default as for serve)
  --nssdb DIR         only this NSS database (a directory holding cert9.db)
  --no-system-store   leave the system store alone
  -h, --help          this text
)";
    }
    if (subcommand == "untrust") {
        return R"(Usage: roomkey-helper untrust [--state-dir DIR] [--nssdb DIR] [--no-system-store]

Removes the local CA that `roomkey-helper trust` added from ~/.pki/nssdb and
the Firefox profiles (or only from --nssdb DIR), and from the system store
(as root; otherwise it prints the commands an administrator runs).

  --state-dir DIR     where the CA lives (default as for serve)
  --nssdb DIR         only this NSS database
  --no-system-store   leave the system store alone
  -h, --help          this text
)";
    }
    if (subcommand == "rotate-bff-key") {
        return R"(Usage: roomkey-helper rotate-bff-key [--state-dir DIR]

For the BFF mode (serve --session bff, docs/bff.md): renames state
dir/bff-key to bff-key.previous (dropping the one before, whose sessions then
end) and writes a new bff-key (0600). Restart the helpers that use these
files: they seal with the new key and still open cookies sealed with the
previous one, re-sealing them with the new key on their next answer.

  --state-dir DIR   where the keys live (default as for serve)
  -h, --help        this text
)";
    }
    return R"(Usage: roomkey-helper [COMMAND] [options]

The HTTPS loopback dev server for the roomkey web app.

Commands:
  serve      serve the web build and proxy token + API calls (the default)
  nginx-config
             write an nginx configuration with the same guarantees (docs/deploy.md)
  trust      make Chromium/Firefox trust the local CA (needs certutil)
  untrust    remove the local CA again
  rotate-bff-key
             a new key for the BFF mode's session cookies (docs/bff.md)
  help       this text; `roomkey-helper COMMAND --help` for a command's options
)";
}

}  // namespace roomkey::helper
