// options.cpp: command line, client specs and the clients file (see options.hpp).
#include "sandbox/options.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "roomkey/scopes.hpp"
#include "roomkey/token.hpp"

namespace roomkey::sandbox {

namespace {

std::vector<std::string> split_scopes(std::string_view text) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '+')) ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '+') ++j;
        if (j > i) out.emplace_back(text.substr(i, j - i));
        i = j;
    }
    return out;
}

template <class Int>
bool parse_int(std::string_view text, Int& out, Int min, Int max) {
    Int value{};
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || value < min || value > max) return false;
    out = value;
    return true;
}

Result<std::string, std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Err{"cannot read " + path};
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (buffer.str().size() > (1u << 20)) return Err{path + " is larger than 1 MiB"};
    return buffer.str();
}

}  // namespace

ClientSpec web_client_spec(int web_port) {
    ClientSpec spec;
    spec.client_id = std::string(kWebClientId);
    spec.registration.name = "roomkey web app";
    spec.registration.type = ClientType::public_client;
    spec.registration.redirect_uris = {"https://127.0.0.1:" + std::to_string(web_port) + "/callback"};
    spec.registration.scopes = {"users.all:read", "rooms.all:read_write", "contacts.all:read_write"};
    return spec;
}

Result<ClientSpec, std::string> parse_client_spec(std::string_view text) {
    ClientSpec spec;
    bool have_type = false;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                                      : comma - start);
        start = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
        if (item.empty()) continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) return Err{"'" + std::string(item) + "' is not key=value"};
        const std::string_view key = item.substr(0, eq);
        const std::string_view value = item.substr(eq + 1);
        if (key == "name") {
            spec.registration.name = std::string(value);
        } else if (key == "type") {
            auto type = parse_client_type(value);
            if (!type) return Err{"type must be 'public' or 'confidential'"};
            spec.registration.type = *type;
            have_type = true;
        } else if (key == "redirect_uri") {
            spec.registration.redirect_uris.emplace_back(value);
        } else if (key == "scope") {
            for (auto& s : split_scopes(value)) spec.registration.scopes.push_back(std::move(s));
        } else if (key == "client_id") {
            spec.client_id = std::string(value);
        } else if (key == "client_secret") {
            return Err{std::string("a client secret is never given as a flag (it would show in ps); use --clients FILE")};
        } else {
            return Err{"unknown key '" + std::string(key) + "' (name, type, redirect_uri, scope, client_id)"};
        }
    }
    if (!have_type) return Err{std::string("type=public or type=confidential is required")};
    if (spec.registration.type == ClientType::confidential && !spec.client_id.empty() &&
        !usable_with_basic_authentication(spec.client_id)) {
        return Err{"client_id '" + spec.client_id + "' has a ':', which Basic authentication cannot carry (RFC 7617)"};
    }
    return spec;
}

Result<std::vector<ClientSpec>, std::string> parse_clients_json(std::string_view text) {
    using nlohmann::json;
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) return Err{std::string("not JSON")};
    const json* list = &doc;
    if (doc.is_object()) {
        if (!doc.contains("clients") || !doc["clients"].is_array()) {
            return Err{std::string("expected {\"clients\": [...]}")};
        }
        list = &doc["clients"];
    }
    if (!list->is_array()) return Err{std::string("expected an array of clients")};
    std::vector<ClientSpec> out;
    std::size_t index = 0;
    for (const json& item : *list) {
        const std::string where = "clients[" + std::to_string(index++) + "]";
        if (!item.is_object()) return Err{where + " is not an object"};
        ClientSpec spec;
        auto get_string = [&](const char* key, std::string& dest) -> Result<Unit, std::string> {
            if (!item.contains(key)) return Unit{};
            if (!item[key].is_string()) return Err{where + "." + key + " must be a string"};
            dest = item[key].get<std::string>();
            return Unit{};
        };
        std::string type;
        for (auto r : {get_string("name", spec.registration.name), get_string("type", type),
                       get_string("client_id", spec.client_id), get_string("client_secret", spec.client_secret)}) {
            if (!r) return Err{r.error()};
        }
        auto parsed_type = parse_client_type(type);
        if (!parsed_type) return Err{where + ".type must be \"public\" or \"confidential\""};
        spec.registration.type = *parsed_type;
        if (!spec.client_secret.empty() && spec.registration.type != ClientType::confidential) {
            return Err{where + ": only confidential clients have a client_secret"};
        }
        if (spec.registration.type == ClientType::confidential && !spec.client_id.empty() &&
            !usable_with_basic_authentication(spec.client_id)) {
            return Err{where + ".client_id has a ':', which Basic authentication cannot carry (RFC 7617)"};
        }
        if (item.contains("redirect_uris")) {
            if (!item["redirect_uris"].is_array()) return Err{where + ".redirect_uris must be an array"};
            for (const json& u : item["redirect_uris"]) {
                if (!u.is_string()) return Err{where + ".redirect_uris must hold strings"};
                spec.registration.redirect_uris.push_back(u.get<std::string>());
            }
        }
        std::string one_uri;
        if (auto r = get_string("redirect_uri", one_uri); !r) return Err{r.error()};
        if (!one_uri.empty()) spec.registration.redirect_uris.push_back(one_uri);
        if (item.contains("scopes")) {
            if (!item["scopes"].is_array()) return Err{where + ".scopes must be an array"};
            for (const json& s : item["scopes"]) {
                if (!s.is_string()) return Err{where + ".scopes must hold strings"};
                spec.registration.scopes.push_back(s.get<std::string>());
            }
        }
        std::string scope;
        if (auto r = get_string("scope", scope); !r) return Err{r.error()};
        for (auto& s : split_scopes(scope)) spec.registration.scopes.push_back(std::move(s));
        out.push_back(std::move(spec));
    }
    return out;
}

std::string usage_text() {
    return R"(roomkey-sandbox: a strict local stand-in for the chat service
(authorization server, consent screen, REST API, rate limits). HTTPS only, on 127.0.0.1.

usage: roomkey-sandbox [options]

  --port N                 listen on 127.0.0.1:N (default 8444; 0 = any free port)
  --state-dir DIR          where the local CA, the server certificate and sandbox.db live
                           (default $XDG_STATE_HOME/roomkey or ~/.local/state/roomkey)
  --cert FILE --key FILE   serve with this certificate chain and key instead
  --register-client SPEC   register a client at start-up, e.g.
                           'name=My app,type=public,redirect_uri=https://127.0.0.1:9000/cb,scope=users.all:read'
                           (redirect_uri may repeat; client_id=ID optional; may repeat)
  --fixture FILE           start with the accounts, rooms, messages, tasks and files of
                           a JSON fixture instead of the demo data (docs/sandbox.md,
                           "Fixtures"); `roomkey-sandbox generate --help` writes a large one
  --ephemeral              keep nothing: without it the whole state (accounts, rooms,
                           messages, clients, tokens, ...) is kept in STATE_DIR/sandbox.db
                           and is there again after a stop, a restart or a crash
  --clients FILE           register the clients listed in a JSON file (may hold client_secret)
  --web-port N             port of the web app's redirect URI for client "roomkey-web"
                           (default 8443: https://127.0.0.1:8443/callback)
  --no-web-client          do not register "roomkey-web"
  --rate-limit N           requests per window per credential (default 300, spec 8.1)
  --rate-window S          window in seconds (default 300)
  --room-post-limit N      POSTs to a room's messages+tasks per window (default 10, spec 8.2)
  --room-post-window S     its window in seconds (default 10)
  --api-token-header NAME  header carrying API tokens (default x-servicetoken)
  --keep-alive-requests N  requests per connection before it is closed (default 1000;
                           1: every request on a new connection, as bench/servers.sh's
                           new-connection figure needs)
  --enable-test-controls   serve /_sandbox/clock/* and /_sandbox/faults (tests only)
  --quiet                  no request log on stderr
  --help                   this text

On start it prints one line to stdout:
  roomkey-sandbox: ready base_url=https://127.0.0.1:PORT/v2 auth_url=https://127.0.0.1:PORT/oauth consent_url=https://127.0.0.1:PORT/consent

Demo accounts (login screen: mail or account_id + password; API token for x-servicetoken):
  1001 Alice Example  alice@example.com  alice-demo  sandbox-api-token-alice-1001
  1002 Bob Example    bob@example.com    bob-demo    sandbox-api-token-bob-1002
  1003 Carol Example  carol@example.com  carol-demo  sandbox-api-token-carol-1003
  1004 Dave Outsider  dave@example.com   dave-demo   sandbox-api-token-dave-1004
These are demo values of a local sandbox, not secrets. See docs/sandbox.md.
)";
}

Result<CommandLine, std::string> parse_command_line(const std::vector<std::string>& args) {
    CommandLine cl;
    SandboxOptions& o = cl.options;
    o.persistent = true;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::string inline_value;
        bool has_inline = false;
        if (arg.rfind("--", 0) == 0) {
            const std::size_t eq = arg.find('=');
            if (eq != std::string::npos) {
                inline_value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
                has_inline = true;
            }
        }
        auto value = [&]() -> Result<std::string, std::string> {
            if (has_inline) return inline_value;
            if (i + 1 >= args.size()) return Err{arg + " needs a value"};
            return args[++i];
        };
        auto int_value = [&](auto& dest, auto min, auto max) -> Result<Unit, std::string> {
            auto v = value();
            if (!v) return Err{v.error()};
            using T = std::remove_reference_t<decltype(dest)>;
            if (!parse_int<T>(*v, dest, static_cast<T>(min), static_cast<T>(max))) {
                return Err{arg + " needs a number from " + std::to_string(min) + " to " + std::to_string(max)};
            }
            return Unit{};
        };
        Result<Unit, std::string> step = Unit{};
        if (arg == "--help" || arg == "-h") {
            cl.action = CliAction::help;
        } else if (arg == "--port") {
            step = int_value(o.port, 0, 65535);
        } else if (arg == "--web-port") {
            step = int_value(o.web_port, 1, 65535);
        } else if (arg == "--state-dir") {
            auto v = value();
            if (!v) return Err{v.error()};
            o.state_dir = *v;
        } else if (arg == "--fixture") {
            auto v = value();
            if (!v) return Err{v.error()};
            if (v->empty()) return Err{std::string("--fixture needs a file name")};
            o.fixture_path = *v;
        } else if (arg == "--ephemeral") {
            o.persistent = false;
        } else if (arg == "--cert") {
            auto v = value();
            if (!v) return Err{v.error()};
            o.cert_path = *v;
        } else if (arg == "--key") {
            auto v = value();
            if (!v) return Err{v.error()};
            o.key_path = *v;
        } else if (arg == "--register-client") {
            auto v = value();
            if (!v) return Err{v.error()};
            auto spec = parse_client_spec(*v);
            if (!spec) return Err{"--register-client: " + spec.error()};
            o.clients.push_back(std::move(spec).value());
        } else if (arg == "--clients") {
            auto v = value();
            if (!v) return Err{v.error()};
            auto text = read_file(*v);
            if (!text) return Err{"--clients: " + text.error()};
            auto specs = parse_clients_json(*text);
            if (!specs) return Err{"--clients " + *v + ": " + specs.error()};
            for (auto& s : specs.value()) o.clients.push_back(std::move(s));
        } else if (arg == "--no-web-client") {
            o.register_web_client = false;
        } else if (arg == "--rate-limit") {
            step = int_value(o.rate_limit, 1, 1000000);
        } else if (arg == "--rate-window") {
            long long s = 0;
            step = int_value(s, 1, 86400);
            o.rate_window = Seconds(s);
        } else if (arg == "--room-post-limit") {
            step = int_value(o.room_post_limit, 1, 1000000);
        } else if (arg == "--room-post-window") {
            long long s = 0;
            step = int_value(s, 1, 86400);
            o.room_post_window = Seconds(s);
        } else if (arg == "--api-token-header") {
            auto v = value();
            if (!v) return Err{v.error()};
            if (v->empty()) return Err{std::string("--api-token-header needs a header name")};
            o.api_token_header = *v;
        } else if (arg == "--keep-alive-requests") {
            step = int_value(o.keep_alive_requests, 1, 1000000);
        } else if (arg == "--enable-test-controls") {
            o.test_controls = true;
        } else if (arg == "--quiet") {
            o.log_requests = false;
        } else {
            return Err{"unknown argument '" + args[i] + "' (try --help)"};
        }
        if (!step) return Err{step.error()};
    }
    if (o.cert_path.empty() != o.key_path.empty()) return Err{std::string("--cert and --key go together")};
    return cl;
}

}  // namespace roomkey::sandbox
