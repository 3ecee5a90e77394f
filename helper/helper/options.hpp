// options.hpp: roomkey-helper's command line, environment variables and JSON
// config file, merged into one HelperConfig (flags > environment > file > defaults).
#pragma once

#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/loopback_server.hpp"
#include "roomkey/api.hpp"
#include "roomkey/public_config.hpp"
#include "roomkey/registration.hpp"
#include "roomkey/result.hpp"
#include "roomkey/upload_limits.hpp"

namespace roomkey::helper {

// The client type is shared/'s (registration.hpp): one enum, one spelling.
using roomkey::ClientType;

// Who holds the tokens: the page (browser, the default) or the helper (bff:
// docs/bff.md; needs a confidential client). The /config.json contract's
// "session" (shared/'s public_config.hpp).
using SessionMode = roomkey::SessionCustody;

// Where the token and API proxies forward to, and the client they act for.
// How long the helper waits on the upstream. A read timeout is answered 504
// with X-Roomkey-Upstream: no_answer (shared/'s proxy_outcome.hpp).
// How long an idle connection to an upstream may sit before it is closed by us (the
// helper's UpstreamClient; nginx's `keepalive_timeout` in the generated
// front's upstream blocks). Servers close idle keep-alive connections after
// a few seconds (cpp-httplib, so the sandbox: 5 s). A request sent on a
// connection the server is closing at that moment breaks after it was sent:
// for a POST nobody can tell whether the service acted, and nginx (rightly)
// does not resend it. Closing ours well before theirs removes that race;
// nginx's default (60 s) left it open, and a post through the nginx front
// came back 502 "sent, no answer" in e2e.app_ui.nginx.
inline constexpr int kUpstreamIdleSeconds = 2;

struct UpstreamTimeouts {
    std::chrono::milliseconds connect{5000};  // TCP connect and TLS handshake
    std::chrono::milliseconds read{30000};    // waiting for (each part of) the answer
    std::chrono::milliseconds write{10000};
    // An idle keep-alive connection is closed after this (tests lengthen
    // it: a timing race with the upstream's own close is not what they test).
    std::chrono::milliseconds idle{kUpstreamIdleSeconds * 1000};
};

struct UpstreamConfig {
    std::string base_url;     // REST API, ends in /v2 (spec: {base_url})
    std::string auth_url;     // token endpoint host; POST {auth_url}/token
    std::string consent_url;  // consent screen the browser is sent to
    std::string client_id;
    ClientType client_type = ClientType::public_client;
    // Confidential clients only. Read from a file or the environment, never
    // from a flag (visible in `ps`), never logged, never sent to the page.
    std::string client_secret;
    std::string token_header{kDefaultApiTokenHeader};  // the API-token header (spec 5.1)
    std::string scope;                            // default scope the page requests (optional)
    std::vector<std::string> extra_ca_files;      // trusted for upstream TLS besides the system CAs
    UpstreamTimeouts timeouts;

    bool configured() const { return !base_url.empty() && !auth_url.empty(); }
};

struct HelperConfig {
    std::string host = "127.0.0.1";  // always 127.0.0.1 (a "::1" here means ipv6 = true)
    bool ipv6 = false;               // also listen on [::1]:PORT (same port); the redirect URI stays on 127.0.0.1
    int port = 8443;                 // 0 = any free port
    std::string state_dir;           // local CA + server certificate
    std::string web_root;            // the web build (index.html, roomkey.js, roomkey.wasm)
    std::string cert_file;           // user-supplied certificate chain (with key_file)
    std::string key_file;
    UpstreamConfig upstream;
    SessionMode session = SessionMode::browser;
    // The origin the browser sees when a front (nginx, `nginx-config
    // --session bff`) forwards to this helper, e.g. "https://127.0.0.1:8443":
    // Host and Origin may name it, and the redirect URI is on it. "" = none.
    std::string front_origin;
    // --session bff: where signed-out session ids are kept for every helper
    // sharing the cookie key: "" = the state directory (one machine), or
    // "redis://HOST:PORT[/DB]" (several machines; bff_redis_store.hpp).
    std::string bff_store;
    // Open upstream connections when a sign-in returns to /callback, before
    // its token request and dashboard reads need them (Proxy::callback_arrived).
    bool preconnect = true;
    // limits.max_body_bytes is the body limit of every route but the upload
    // route (request_body_rules.hpp), which takes max_upload_body_bytes; the
    // defaults are upload_limits.hpp's kMaxRequestBodyBytes and
    // kMaxUploadRequestBytes, and nginx-config writes the same two.
    native::ServerLimits limits;
    std::size_t max_upload_body_bytes = kMaxUploadRequestBytes;
    std::size_t max_uri_bytes = 4096;      // longer request-targets get 414
    std::size_t max_header_bytes = 16384;  // larger header sections get 431
                                           // (one field line over 8 KB: 400, httplib's compiled limit)
    // While serving, the generated certificate is re-checked this often and
    // renewed (and served from the next handshake on) when it is due.
    std::chrono::milliseconds certificate_check_interval = std::chrono::hours(1);
    std::function<std::time_t()> clock;  // "now" for that check (tests); the system clock when empty
};

enum class Subcommand { serve, nginx_config, trust, untrust, rotate_bff_key, help };

// `roomkey-helper nginx-config`: what nginx needs beyond serve's settings.
struct NginxOptions {
    // --session bff: the loopback ports of the BFF helpers nginx forwards the
    // session routes to (--bff-helper PORT, repeatable).
    std::vector<int> bff_helper_ports;
    std::string out_dir;          // default: <state dir>/nginx
    std::string server_name;      // public host name; empty = the loopback names, as the helper
    std::string access_log;       // default: <out_dir>/access.log
    bool standalone = false;      // also write nginx.conf for `nginx -p OUT -c OUT/nginx.conf`
    std::string brotli = "auto";  // auto (module installed?), on, off
};

struct TrustOptions {
    std::string state_dir;
    std::string nssdb;  // default: $HOME/.pki/nssdb (Chromium; Firefox profiles are found too)
    std::string home;   // where those live; default: $HOME
    // The system store's directory of added CAs (update-ca-certificates reads
    // it; WebKitGTK reads its result through GnuTLS): kSystemCaDir, or
    // $ROOMKEY_SYSTEM_CA_DIR (tests); empty: not touched (--nssdb,
    // --no-system-store, or that variable set to "none").
    std::string system_store;
};
inline constexpr const char* kSystemCaDir = "/usr/local/share/ca-certificates";

struct Command {
    Subcommand subcommand = Subcommand::serve;
    std::string help_text;  // for Subcommand::help: what to print
    HelperConfig serve;     // also for nginx_config
    NginxOptions nginx;
    TrustOptions trust;
};

// Reads an environment variable; std::getenv in main, a map in tests.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
EnvLookup process_environment();

// Parses argv (without argv[0]) and resolves it with the environment and the
// config file into a Command. Reads the config file, the secret file and
// checks nothing on the network. The error text is for the user.
Result<Command, std::string> parse_command_line(const std::vector<std::string>& args, const EnvLookup& env);

// The usage text of a subcommand ("" = the overview).
std::string usage(std::string_view subcommand);

}  // namespace roomkey::helper
