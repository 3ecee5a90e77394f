// options.hpp: roomkey-sandbox's settings, its command line, and clients
// pre-registered from flags or a JSON file (spec 2.1 rules still apply).
#pragma once

#include "roomkey/upload_limits.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/api.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/registration.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"
#include "sandbox/clock.hpp"

namespace roomkey::sandbox {

// Upper bounds on the authorization server's records in memory (spec issue
// item 10: no leak on any input). At a cap the oldest records go first; see
// docs/sandbox.md "Limits and robustness".
struct MemoryCaps {
    std::size_t sessions = 10000;
    std::size_t reservations = 10000;  // every GET /consent reserves one
    std::size_t codes = 10000;
    std::size_t access_tokens = 50000;
    std::size_t refresh_tokens = 50000;  // current and rotated-out ones
    std::size_t grants = 20000;          // token families (one per redeemed code)
};

// A client to register at start-up; client_id/secret empty = generated.
struct ClientSpec {
    ClientRegistration registration;
    std::string client_id;
    std::string client_secret;  // confidential only; from a file, never a flag
};

// The web app's public client (docs/sandbox.md): client_id "roomkey-web",
// redirect https://127.0.0.1:<web_port>/callback.
inline constexpr std::string_view kWebClientId = "roomkey-web";
ClientSpec web_client_spec(int web_port);

struct SandboxOptions {
    std::string host = "127.0.0.1";  // loopback only
    int port = 8444;                 // 0 = any free port (tests)
    std::string state_dir;           // empty = native::default_state_dir()
    std::string fixture_path;        // --fixture: the data set instead of the demo one (fixture.hpp)
    // Keep the state in STATE_DIR/sandbox.db (store.hpp). The command line
    // turns it on unless --ephemeral; the in-process tests start from these
    // defaults and keep the in-memory behaviour.
    bool persistent = false;
    std::string cert_path;           // PEM chain; empty = from the state directory's local CA
    std::string key_path;
    // The local certificate is checked this often and renewed (or taken up
    // when the helper renewed it) while the sandbox runs (common/certificate_renewal.hpp).
    std::chrono::milliseconds certificate_check_interval = std::chrono::hours(1);
    // "Now" for that check (tests); the system clock when empty. Never the
    // sandbox's own clock, which tests move by days.
    std::function<std::time_t()> certificate_clock;
    std::vector<ClientSpec> clients;
    bool register_web_client = true;
    int web_port = 8443;
    bool test_controls = false;      // /_sandbox/* clock and fault routes
    std::int64_t rate_limit = kOverallRateLimit;  // spec 8.1
    Seconds rate_window{kOverallRateWindow};
    std::size_t room_post_limit = kRoomPostLimit;  // spec 8.2
    Seconds room_post_window{kRoomPostWindow};
    std::string api_token_header{kDefaultApiTokenHeader};  // spec 5.1 (the brand word is a setting)
    std::size_t keep_alive_requests = 1000;  // per connection (native::ServerLimits' default)
    bool log_requests = true;        // method, path (never the query), status, time
    // Request bodies beyond this get 413; the upload (POST
    // /v2/rooms/{room_id}/files) may be kMaxUploadRequestBytes. 1 MiB holds
    // a message or task body of 65,535 characters (RAML) of up to 4 bytes
    // each, percent-encoded (upload_limits.hpp).
    std::size_t max_body_bytes = kMaxRequestBodyBytes;
    MemoryCaps caps;
    ClockSources clock_sources;  // real time; tests replace it
};

enum class CliAction { run, help };
struct CommandLine {
    CliAction action = CliAction::run;
    SandboxOptions options;
};

// argv[1..]; the message names the offending argument.
Result<CommandLine, std::string> parse_command_line(const std::vector<std::string>& args);
std::string usage_text();

// "name=My app,type=public,redirect_uri=https://...,scope=users.all:read rooms.all:read"
// (redirect_uri may repeat; client_id optional; secrets are refused here).
Result<ClientSpec, std::string> parse_client_spec(std::string_view text);
// {"clients":[{"client_id","name","type","redirect_uris":[..],"scopes":[..] or "scope":"..",
// "client_secret"}]} or a bare array of such objects.
Result<std::vector<ClientSpec>, std::string> parse_clients_json(std::string_view text);

}  // namespace roomkey::sandbox
