// options.cpp: flags, environment and config file for roomkey-helper (the
// --help texts are options_usage.cpp's).
//
// [SECTION] sources: config file, environment, flags
// [SECTION] parse_command_line
#include "helper/options.hpp"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "common/state_dir.hpp"
#include "helper/bff_redis_store.hpp"
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
    "front_origin", "bff_store"};

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
    {"ROOMKEY_FRONT_ORIGIN", "front_origin"}, {"ROOMKEY_BFF_STORE", "bff_store"},
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
    {"--bff-store", "bff_store"},
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
    // Where signed-out sessions are kept: the state directory (the default,
    // helpers on one machine) or Redis (helpers on several machines).
    const std::string store = get("bff_store");
    if (!store.empty() && store != "state-dir") {
        if (c.session != SessionMode::bff) return Err{"--bff-store " + store + ": only with --session bff"};
        if (auto address = parse_redis_url(store); !address) return Err{address.error()};
        c.bff_store = store;
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
    bool no_system_store = false;
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
        if (a == "--no-system-store" && which != Subcommand::rotate_bff_key) {
            no_system_store = true;
            continue;
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
    // --nssdb means that database only.
    if (!no_system_store && cmd.trust.nssdb.empty()) {
        auto e = env("ROOMKEY_SYSTEM_CA_DIR");
        cmd.trust.system_store = !e || e->empty() ? kSystemCaDir : *e == "none" ? "" : *e;
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
