// options.cpp: flags, environment and config file for roomkey-helper.
//
// [SECTION] usage texts
// [SECTION] sources: config file, environment, flags
// [SECTION] parse_command_line
#include "helper/options.hpp"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "common/state_dir.hpp"
#include "helper/service_presets.hpp"
#include "roomkey/token.hpp"

namespace roomkey::helper {

EnvLookup process_environment() {
    return [](std::string_view name) -> std::optional<std::string> {
        const char* value = std::getenv(std::string(name).c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
    };
}

// [SECTION] usage texts -------------------------------------------------------

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
        return R"(Usage: roomkey-helper trust [--state-dir DIR] [--nssdb DIR]

Adds the local CA (state dir/ca-cert.pem, created if missing) to the NSS
database Chromium uses (~/.pki/nssdb) and to every Firefox profile found, with
certutil (Debian package libnss3-tools), so the browser trusts
https://127.0.0.1:PORT/ without warnings. Undo with `roomkey-helper untrust`.

  --state-dir DIR   where the CA lives (default as for serve)
  --nssdb DIR       only this NSS database (a directory holding cert9.db)
  -h, --help        this text
)";
    }
    if (subcommand == "untrust") {
        return R"(Usage: roomkey-helper untrust [--state-dir DIR] [--nssdb DIR]

Removes the local CA that `roomkey-helper trust` added from ~/.pki/nssdb and
the Firefox profiles (or only from --nssdb DIR).

  --state-dir DIR   where the CA lives (default as for serve)
  --nssdb DIR       only this NSS database
  -h, --help        this text
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

namespace {

// [SECTION] sources: config file, environment, flags ---------------------------

std::string self_dir() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    std::string path(buf, static_cast<std::size_t>(n));
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// build/<preset>/bin/roomkey-helper -> build/wasm/web/dist, where the wasm
// preset puts the web build.
std::string default_web_root() {
    const std::string dir = self_dir();
    if (dir.empty()) return "web/dist";
    return dir + "/../../wasm/web/dist";
}

std::string first_line(const std::string& text) {
    const auto end = text.find_first_of("\r\n");
    return end == std::string::npos ? text : text.substr(0, end);
}

Result<int, std::string> parse_port(const std::string& text, std::string_view where) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos) {
        return Err{std::string(where) + ": not a port number: " + text};
    }
    const int port = std::atoi(text.c_str());
    if (port > 65535) return Err{std::string(where) + ": port out of range: " + text};
    return port;
}

Result<ClientType, std::string> parse_client_type(const std::string& text, std::string_view where) {
    if (const auto type = roomkey::parse_client_type(text)) return *type;
    return Err{std::string(where) + ": client type must be public or confidential, not " + text};
}

// The settings as strings, before validation; later sources overwrite earlier ones.
using Settings = std::map<std::string, std::string>;

const char* const kFileKeys[] = {
    "base_url",     "auth_url",  "consent_url",      "client_id", "client_type", "client_secret_file",
    "token_header", "scope",     "upstream_ca_file", "port",      "host",        "web_root",
    "state_dir",    "cert_file", "key_file",         "ipv6",      "service",     "session",
    "front_origin"};

Result<Unit, std::string> read_config_file(const std::string& path, Settings& out) {
    auto text = native::read_whole_file(path);
    if (!text) return Err{"config file: " + text.error()};
    const auto json = nlohmann::json::parse(*text, nullptr, false);
    if (json.is_discarded() || !json.is_object()) return Err{"config file " + path + ": not a JSON object"};
    for (const auto& [key, value] : json.items()) {
        if (key == "client_secret") {
            return Err{"config file " + path +
                       ": put the secret in its own file and name it with \"client_secret_file\" (or use "
                       "$ROOMKEY_CLIENT_SECRET), so the config can be shared without it"};
        }
        bool known = false;
        for (const char* k : kFileKeys) known = known || key == k;
        if (!known) return Err{"config file " + path + ": unknown key \"" + key + "\""};
        if (value.is_string()) {
            out[key] = value.get<std::string>();
        } else if (key == "port" && value.is_number_integer()) {
            out[key] = std::to_string(value.get<long long>());
        } else if (key == "ipv6" && value.is_boolean()) {
            out[key] = value.get<bool>() ? "true" : "false";
        } else {
            return Err{"config file " + path + ": \"" + key + "\" must be a string"};
        }
    }
    return Unit{};
}

struct EnvName {
    const char* env;
    const char* key;
};
const EnvName kEnvNames[] = {
    {"ROOMKEY_BASE_URL", "base_url"},         {"ROOMKEY_AUTH_URL", "auth_url"},
    {"ROOMKEY_CONSENT_URL", "consent_url"},   {"ROOMKEY_CLIENT_ID", "client_id"},
    {"ROOMKEY_CLIENT_TYPE", "client_type"},   {"ROOMKEY_CLIENT_SECRET_FILE", "client_secret_file"},
    {"ROOMKEY_TOKEN_HEADER", "token_header"}, {"ROOMKEY_SCOPE", "scope"},
    {"ROOMKEY_WEB_ROOT", "web_root"},         {"ROOMKEY_STATE_DIR", "state_dir"},
    {"ROOMKEY_SERVICE", "service"},           {"ROOMKEY_SESSION", "session"},
    {"ROOMKEY_FRONT_ORIGIN", "front_origin"},
};

struct FlagName {
    const char* flag;
    const char* key;
};
const FlagName kServeFlags[] = {
    {"--port", "port"},
    {"--host", "host"},
    {"--web-root", "web_root"},
    {"--state-dir", "state_dir"},
    {"--cert", "cert_file"},
    {"--key", "key_file"},
    {"--config", "config"},
    {"--service", "service"},
    {"--base-url", "base_url"},
    {"--auth-url", "auth_url"},
    {"--consent-url", "consent_url"},
    {"--client-id", "client_id"},
    {"--client-type", "client_type"},
    {"--client-secret-file", "client_secret_file"},
    {"--token-header", "token_header"},
    {"--scope", "scope"},
    {"--session", "session"},
    {"--front-origin", "front_origin"},
};

// Header names are tokens (RFC 9110 5.6.2).
bool is_token(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
        if (!ok) return false;
    }
    return true;
}

bool is_https_url(const std::string& s) {
    return s.rfind("https://", 0) == 0 && s.size() > 8;
}

Result<Command, std::string> resolve_serve(const Settings& flags, const std::vector<std::string>& flag_cas,
                                           const EnvLookup& env) {
    Settings s;
    std::string config_path;
    if (auto it = flags.find("config"); it != flags.end()) {
        config_path = it->second;
    } else if (auto e = env("ROOMKEY_CONFIG")) {
        config_path = *e;
    }
    if (!config_path.empty()) {
        if (auto r = read_config_file(config_path, s); !r) return Err{r.error()};
    }
    for (const auto& n : kEnvNames) {
        if (auto e = env(n.env); e && !e->empty()) s[n.key] = *e;
    }
    for (const auto& [key, value] : flags) s[key] = value;

    auto get = [&](const char* key) -> std::string {
        auto it = s.find(key);
        return it == s.end() ? std::string() : it->second;
    };
    // A named service fills in only what no flag, variable or config key
    // gave, so one address can still be pointed elsewhere (a proxy, a mirror).
    if (!get("service").empty()) {
        const ServicePreset* preset = find_service_preset(get("service"));
        if (preset == nullptr) {
            return Err{"service: unknown service \"" + get("service") + "\"; use one of: " + service_preset_names() +
                       " (or give the addresses yourself: --base-url, --auth-url, --consent-url)"};
        }
        for (const auto& [key, value] : {std::pair{"base_url", preset->base_url}, std::pair{"auth_url", preset->auth_url},
                                         std::pair{"consent_url", preset->consent_url},
                                         std::pair{"token_header", preset->token_header}}) {
            if (!value.empty() && get(key).empty()) s[key] = std::string(value);
        }
    }

    Command cmd;
    cmd.subcommand = Subcommand::serve;
    HelperConfig& c = cmd.serve;
    if (!get("port").empty()) {
        auto port = parse_port(get("port"), "--port");
        if (!port) return Err{port.error()};
        c.port = *port;
    }
    if (!get("host").empty()) c.host = get("host");
    if (c.host != "127.0.0.1" && c.host != "::1") {
        return Err{"--host: only 127.0.0.1 or ::1 (the helper is a loopback server), not " + c.host};
    }
    // [::1] is always in addition to 127.0.0.1, where the redirect URI is.
    if (c.host == "::1") c.ipv6 = true;
    c.host = "127.0.0.1";
    if (get("ipv6") == "true") c.ipv6 = true;
    if (!get("ipv6").empty() && get("ipv6") != "true" && get("ipv6") != "false") {
        return Err{"ipv6: true or false, not " + get("ipv6")};
    }
    c.preconnect = get("preconnect") != "false";
    c.web_root = get("web_root").empty() ? default_web_root() : get("web_root");
    c.state_dir = get("state_dir").empty() ? native::default_state_dir() : get("state_dir");
    c.cert_file = get("cert_file");
    c.key_file = get("key_file");
    if (c.cert_file.empty() != c.key_file.empty()) return Err{"--cert and --key go together"};

    UpstreamConfig& u = c.upstream;
    u.base_url = get("base_url");
    u.auth_url = get("auth_url");
    u.consent_url = get("consent_url");
    u.client_id = get("client_id");
    u.scope = get("scope");
    for (const char* key : {"base_url", "auth_url", "consent_url"}) {
        if (!get(key).empty() && !is_https_url(get(key))) {
            return Err{std::string(key) + ": must be an https:// URL (spec 4.1), not " + get(key)};
        }
    }
    // A trailing slash would make "{base_url}/me" a "//me".
    while (!u.base_url.empty() && u.base_url.back() == '/') u.base_url.pop_back();
    while (!u.auth_url.empty() && u.auth_url.back() == '/') u.auth_url.pop_back();
    if (!get("client_type").empty()) {
        auto type = parse_client_type(get("client_type"), "client type");
        if (!type) return Err{type.error()};
        u.client_type = *type;
    }
    if (!get("token_header").empty()) {
        if (!is_token(get("token_header"))) return Err{"token header: not a header name: " + get("token_header")};
        u.token_header = get("token_header");
    }
    if (!get("upstream_ca_file").empty()) u.extra_ca_files.push_back(get("upstream_ca_file"));
    for (const auto& ca : flag_cas) u.extra_ca_files.push_back(ca);

    // The secret: a file (flag, env or config) or the environment variable itself.
    if (!get("client_secret_file").empty()) {
        auto text = native::read_whole_file(get("client_secret_file"));
        if (!text) return Err{"client secret file: " + text.error()};
        u.client_secret = first_line(*text);
    } else if (auto e = env("ROOMKEY_CLIENT_SECRET"); e && !e->empty()) {
        u.client_secret = *e;
    }
    if (u.client_type == ClientType::confidential && u.client_secret.empty()) {
        return Err{"a confidential client needs its secret: --client-secret-file FILE or $ROOMKEY_CLIENT_SECRET"};
    }
    if (u.client_type == ClientType::confidential && !usable_with_basic_authentication(u.client_id)) {
        return Err{"the client ID '" + u.client_id + "' has a ':', which Basic authentication cannot carry " +
                   "(RFC 7617); a confidential client needs an ID without one"};
    }
    if (u.client_type == ClientType::public_client && !u.client_secret.empty()) {
        return Err{"a public client has no secret (spec 2.1); drop it or use --client-type confidential"};
    }
    if (u.base_url.empty() != u.auth_url.empty()) {
        return Err{"--base-url and --auth-url go together (the API and the token endpoint)"};
    }
    c.front_origin = get("front_origin");
    while (!c.front_origin.empty() && c.front_origin.back() == '/') c.front_origin.pop_back();
    if (!c.front_origin.empty()) {
        const auto rest = c.front_origin.substr(std::min<std::size_t>(8, c.front_origin.size()));
        if (!is_https_url(c.front_origin) || rest.find_first_of("/?#@") != std::string::npos) {
            return Err{"front origin: https://HOST[:PORT] with nothing after it, not " + c.front_origin};
        }
    }
    const std::string session = get("session");
    if (session == "bff") {
        c.session = SessionMode::bff;
    } else if (!session.empty() && session != "browser") {
        return Err{"session: browser or bff, not " + session};
    }
    if (c.session == SessionMode::bff) {
        if (u.client_type != ClientType::confidential) {
            return Err{"--session bff: the helper keeps the tokens, so it must be a confidential client: "
                       "--client-type confidential with --client-secret-file FILE (docs/bff.md)"};
        }
        if (!u.configured() || u.consent_url.empty() || u.client_id.empty()) {
            return Err{"--session bff: the helper runs the sign-in itself, so it needs the service's addresses "
                       "(--base-url, --auth-url, --consent-url, or --service) and --client-id"};
        }
    }
    return cmd;
}

Result<Command, std::string> parse_trust(Subcommand which, const std::vector<std::string>& args, std::size_t i,
                                         const EnvLookup& env) {
    Command cmd;
    cmd.subcommand = which;
    const char* name = which == Subcommand::trust     ? "trust"
                       : which == Subcommand::untrust ? "untrust"
                                                      : "rotate-bff-key";
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            cmd.subcommand = Subcommand::help;
            cmd.help_text = usage(name);
            return cmd;
        }
        if (a == "--nssdb" && which == Subcommand::rotate_bff_key) {
            return Err{std::string("roomkey-helper ") + name + ": unknown option " + a + " (see --help)"};
        }
        if ((a == "--state-dir" || a == "--nssdb") && i + 1 < args.size()) {
            (a == "--state-dir" ? cmd.trust.state_dir : cmd.trust.nssdb) = args[++i];
            continue;
        }
        if (a == "--state-dir" || a == "--nssdb") return Err{a + " needs a value"};
        return Err{std::string("roomkey-helper ") + name + ": unknown option " + a + " (see --help)"};
    }
    if (cmd.trust.state_dir.empty()) {
        auto e = env("ROOMKEY_STATE_DIR");
        cmd.trust.state_dir = e && !e->empty() ? *e : native::default_state_dir();
    }
    return cmd;
}

}  // namespace

// [SECTION] parse_command_line --------------------------------------------------

Result<Command, std::string> parse_command_line(const std::vector<std::string>& args, const EnvLookup& env) {
    std::size_t i = 0;
    std::string sub = "serve";
    if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
        sub = args[0];
        i = 1;
    }
    if (sub == "help") {
        Command cmd;
        cmd.subcommand = Subcommand::help;
        cmd.help_text = usage(i < args.size() ? args[i] : "");
        return cmd;
    }
    if (sub == "trust") return parse_trust(Subcommand::trust, args, i, env);
    if (sub == "untrust") return parse_trust(Subcommand::untrust, args, i, env);
    // Only the state dir, as trust's options without --nssdb.
    if (sub == "rotate-bff-key") return parse_trust(Subcommand::rotate_bff_key, args, i, env);
    if (sub != "serve" && sub != "nginx-config") {
        return Err{"unknown command " + sub + " (commands: serve, nginx-config, trust, untrust, rotate-bff-key, help)"};
    }
    const bool nginx = sub == "nginx-config";

    NginxOptions nginx_options;
    Settings flags;
    std::vector<std::string> cas;
    for (; i < args.size(); ++i) {
        std::string a = args[i];
        std::optional<std::string> inline_value;
        if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
            inline_value = a.substr(eq + 1);
            a = a.substr(0, eq);
        }
        if (a == "-h" || a == "--help") {
            Command cmd;
            cmd.subcommand = Subcommand::help;
            cmd.help_text = usage(sub);
            return cmd;
        }
        if (a == "--client-secret") {
            return Err{
                "--client-secret is refused: a flag shows in `ps` and shell history. Use "
                "--client-secret-file FILE or $ROOMKEY_CLIENT_SECRET"};
        }
        auto take_value = [&]() -> std::optional<std::string> {
            if (inline_value) return inline_value;
            if (i + 1 < args.size()) return args[++i];
            return std::nullopt;
        };
        // nginx-config's own options (the rest are serve's).
        if (nginx && a == "--standalone") {
            if (inline_value) return Err{"--standalone takes no value"};
            nginx_options.standalone = true;
            continue;
        }
        if (nginx && a == "--bff-helper") {
            auto v = take_value();
            if (!v) return Err{a + " needs a port"};
            auto port = parse_port(*v, "--bff-helper");
            if (!port || *port == 0) return Err{"--bff-helper: a port number 1-65535, not " + *v};
            nginx_options.bff_helper_ports.push_back(*port);
            continue;
        }
        if (nginx && (a == "--out" || a == "--server-name" || a == "--access-log" || a == "--brotli")) {
            auto v = take_value();
            if (!v || v->empty()) return Err{a + " needs a value"};
            if (a == "--out") nginx_options.out_dir = *v;
            if (a == "--server-name") nginx_options.server_name = *v;
            if (a == "--access-log") nginx_options.access_log = *v;
            if (a == "--brotli") {
                if (*v != "auto" && *v != "on" && *v != "off") return Err{"--brotli: auto, on or off, not " + *v};
                nginx_options.brotli = *v;
            }
            continue;
        }
        if (a == "--ipv6") {
            if (inline_value) return Err{"--ipv6 takes no value"};
            flags["ipv6"] = "true";
            continue;
        }
        if (a == "--no-preconnect") {
            if (inline_value) return Err{"--no-preconnect takes no value"};
            flags["preconnect"] = "false";
            continue;
        }
        if (a == "--upstream-ca") {
            auto v = take_value();
            if (!v) return Err{a + " needs a value"};
            cas.push_back(*v);
            continue;
        }
        const char* key = nullptr;
        for (const auto& f : kServeFlags) {
            if (a == f.flag) key = f.key;
        }
        if (key == nullptr) return Err{"unknown option " + a + " (see roomkey-helper " + sub + " --help)"};
        auto v = take_value();
        if (!v) return Err{a + " needs a value"};
        flags[key] = *v;
    }
    auto cmd = resolve_serve(flags, cas, env);
    if (!cmd || !nginx) return cmd;
    const std::string& name = nginx_options.server_name;
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") !=
        std::string::npos) {
        return Err{"--server-name: a host name (letters, digits, '.', '-'), not " + name};
    }
    if ((cmd->serve.session == SessionMode::bff) != !nginx_options.bff_helper_ports.empty()) {
        return Err{cmd->serve.session == SessionMode::bff
                       ? "nginx-config --session bff: name the BFF helpers nginx forwards to: --bff-helper PORT (each)"
                       : "--bff-helper goes with --session bff"};
    }
    cmd->subcommand = Subcommand::nginx_config;
    cmd->nginx = nginx_options;
    return cmd;
}

}  // namespace roomkey::helper
