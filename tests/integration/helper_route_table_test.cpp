// helper_route_table_test.cpp: the helper's route table (routes.hpp) is the
// one list of its routes: the router is given its rows and nothing else, a
// running helper answers each row with the row's handler and every other
// path with the catch-all's answer, the proxies' CSRF rule and the body
// limits are the rows', and the nginx configuration's locations are the
// rows, so a row added to the table shows there. Also the security headers
// and the log line both programs take from helper/common.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "common/request_log.hpp"
#include "common/security_headers.hpp"
#include "helper/nginx_config.hpp"
#include "helper/nginx_syntax.hpp"
#include "helper/policy.hpp"
#include "helper/proxy.hpp"
#include "helper/request_body_rules.hpp"
#include "helper/routes.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/upload_limits.hpp"
#include "support/helper_fixture.hpp"
#include "support/sandbox_fixture.hpp"

// A namespace of its own: the test files build in unity batches.
namespace roomkey::helper::route_table_tests {
namespace {

// The text of a server's `location` block in a generated site (empty if none).
std::string block_of(const std::string& site, const std::string& location) {
    const auto at = site.find("    " + location + " {\n");
    return at == std::string::npos ? std::string() : site.substr(at, site.find("\n    }\n", at) - at);
}

// A request path the row answers: the path itself, a file under a prefix,
// a hashed file name.
std::string sample_path(const Route& route) {
    switch (route.match) {
        case PathMatch::exact:
            return std::string(route.path);
        case PathMatch::prefix:
            return std::string(route.path) + (route.path == "/" ? "roomkey.js" : "me");
        case PathMatch::hashed_asset:
            return "/app.0123abcd.js";
    }
    return "/";
}

HelperConfig config_for(const TempDir& dir, SessionMode mode) {
    HelperConfig config = testing::test_config(dir);
    config.session = mode;
    // Nothing listens there: the proxies answer without reaching it.
    config.upstream.base_url = "https://127.0.0.1:9/v2";
    config.upstream.auth_url = "https://127.0.0.1:9/oauth";
    config.upstream.consent_url = "https://127.0.0.1:9/consent";
    config.upstream.client_id = "roomkey-route-table";
    config.upstream.client_type = ClientType::confidential;
    config.upstream.client_secret = "route-table-secret-0123456789abcdef";
    config.upstream.timeouts.connect = std::chrono::milliseconds(500);
    config.preconnect = false;
    return config;
}

bool is_row(const Route* row) {
    const auto& table = helper_routes();
    return std::any_of(table.begin(), table.end(), [row](const Route& r) { return &r == row; });
}

class HelperRouteTable : public ::testing::TestWithParam<SessionMode> {};

TEST_P(HelperRouteTable, TheRouterIsGivenTheTablesRowsAndNothingElse) {
    TempDir dir;
    RunningHelper helper(config_for(dir, GetParam()));
    ASSERT_TRUE(helper.ok()) << helper.error();
    const auto& registered = helper.server().registered_routes();

    // Every row of this mode with a handler of its own, each of its methods.
    std::vector<std::pair<std::string, std::string>> expected;
    for (const Route& row : helper_routes()) {
        if (!route_in_mode(row, GetParam()) || row.handler == RouteHandler::none ||
            row.handler == RouteHandler::site) {
            continue;
        }
        for (Method m : row.methods) expected.emplace_back(std::string(to_string(m)), httplib_pattern(row));
    }
    std::vector<std::pair<std::string, std::string>> rows_registered;
    std::size_t catch_alls = 0;
    for (const auto& r : registered) {
        if (r.pattern == ".*") {
            ++catch_alls;
            // The web build's rows (GET) or the 405 for every other method.
            if (r.method == "GET") {
                ASSERT_NE(r.row, nullptr);
                EXPECT_TRUE(is_row(r.row));
                EXPECT_EQ(r.row->handler, RouteHandler::site);
            } else {
                EXPECT_EQ(r.row, nullptr) << r.method;
            }
            continue;
        }
        ASSERT_NE(r.row, nullptr) << r.method << " " << r.pattern << " is no row of the table";
        EXPECT_TRUE(is_row(r.row)) << r.method << " " << r.pattern << " is no row of the table";
        rows_registered.emplace_back(r.method, r.pattern);
    }
    EXPECT_EQ(rows_registered, expected);
    EXPECT_EQ(catch_alls, 6u) << "GET for the web build; OPTIONS, POST, PUT, DELETE, PATCH: 405";
    // The catch-alls come last: httplib tries patterns in registration order.
    ASSERT_GE(registered.size(), catch_alls);
    for (std::size_t i = registered.size() - catch_alls; i < registered.size(); ++i) {
        EXPECT_EQ(registered[i].pattern, ".*") << i;
    }
}

// A request of `method` to `path` as the app page sends it.
httplib::Result send(const RunningHelper& helper, Method method, const std::string& path) {
    auto c = helper.client();
    httplib::Headers headers = helper.app_headers();
    headers.emplace("Sec-Fetch-Site", "same-origin");
    switch (method) {
        case Method::Get:
            return c->Get(path.c_str(), headers);
        case Method::Post:
            return c->Post(path.c_str(), headers, "", "application/json");
        case Method::Put:
            return c->Put(path.c_str(), headers, "", "application/json");
        case Method::Delete:
            return c->Delete(path.c_str(), headers);
    }
    return c->Get(path.c_str(), headers);
}

// The catch-alls' answers: the web build's 404 for a GET it has no file for,
// 405 with "Allow: GET, HEAD" for any other method.
bool catch_all_answer(const httplib::Result& res) {
    return (res->status == 404 && res->body == "not found\n") ||
           (res->status == 405 && res->get_header_value("Allow") == "GET, HEAD");
}

TEST_P(HelperRouteTable, EveryRowIsAnsweredByItsHandlerAndOtherPathsByTheCatchAlls) {
    TempDir dir;
    RunningHelper helper(config_for(dir, GetParam()));
    ASSERT_TRUE(helper.ok()) << helper.error();
    for (const Route& row : helper_routes()) {
        if (!route_in_mode(row, GetParam()) || row.handler == RouteHandler::none) continue;
        for (Method m : row.methods) {
            const std::string path = sample_path(row);
            auto res = send(helper, m, path);
            ASSERT_TRUE(res) << to_string(m) << " " << path;
            if (row.handler == RouteHandler::site) {
                EXPECT_EQ(res->status, 200) << to_string(m) << " " << path << ": " << res->body;
            } else {
                EXPECT_FALSE(catch_all_answer(res)) << to_string(m) << " " << path << ": " << res->status << " "
                                                    << res->body;
            }
        }
    }
    // Paths and methods no row of this mode has.
    std::vector<std::pair<Method, std::string>> strangers = {
        {Method::Post, "/config.json"}, {Method::Get, "/configXjson"},  {Method::Post, "/oauth/token/x"},
        {Method::Get, "/bff/other"},    {Method::Post, "/bff/other"},   {Method::Put, "/oauth/token"},
        {Method::Post, "/index.html"},  {Method::Delete, "/"},
    };
    if (GetParam() == SessionMode::browser) {
        strangers.push_back({Method::Get, "/bff/login"});
        strangers.push_back({Method::Get, "/bff/session"});
        strangers.push_back({Method::Post, "/bff/refresh"});
        strangers.push_back({Method::Post, "/bff/logout"});
    }
    for (const auto& [m, path] : strangers) {
        auto res = send(helper, m, path);
        ASSERT_TRUE(res) << to_string(m) << " " << path;
        EXPECT_TRUE(catch_all_answer(res)) << to_string(m) << " " << path << ": " << res->status << " " << res->body;
    }
}

INSTANTIATE_TEST_SUITE_P(BothModes, HelperRouteTable, ::testing::Values(SessionMode::browser, SessionMode::bff),
                         [](const ::testing::TestParamInfo<SessionMode>& param) {
                             return std::string(to_string(param.param));
                         });

TEST(HelperRouteTableRules, TheProxiesRuleIsTheRowsRule) {
    for (const Route& row : helper_routes()) {
        const std::string path = sample_path(row);
        EXPECT_EQ(is_proxy_path(path), row.proxy) << path;
    }
    EXPECT_FALSE(is_proxy_path("/apix"));
    EXPECT_FALSE(is_proxy_path("/bff/login"));
    EXPECT_FALSE(is_proxy_path("/oauth/tokens"));
}

TEST(HelperRouteTableRules, TheUploadLimitIsTheCatalogsUnderTheRowWithTheCatalogsBodyRule) {
    std::size_t catalog_rows = 0;
    for (const Route& row : helper_routes()) {
        if (row.body != BodyRule::api_catalog) {
            for (Method m : row.methods) {
                EXPECT_EQ(body_limit(to_string(m), sample_path(row), 100, 200), 100u) << sample_path(row);
            }
            continue;
        }
        ++catalog_rows;
        for (const EndpointInfo* info : upload_endpoints()) {
            std::string path = std::regex_replace(std::string(info->path), std::regex("\\{[a-z_]+\\}"), "5");
            path = std::string(row.path.substr(0, row.path.size() - 1)) + path;
            EXPECT_EQ(body_limit(to_string(info->method), path, 100, 200), 200u) << path;
        }
    }
    EXPECT_EQ(catalog_rows, 1u);
}

// The site file for `mode` with `routes`, its inputs made up (nothing is written).
std::string site_config(SessionMode mode, const std::vector<Route>& routes) {
    HelperConfig config;
    config.port = 8443;
    config.web_root = "/srv/roomkey";
    config.session = mode;
    config.upstream.base_url = "https://api.example.com/v2";
    config.upstream.auth_url = "https://auth.example.com/oauth";
    config.upstream.consent_url = "https://auth.example.com/consent";
    config.upstream.client_id = "roomkey-web";
    NginxOptions options;
    options.bff_helper_ports = {9101};
    NginxInputs inputs;
    inputs.cert_file = "/etc/roomkey/cert.pem";
    inputs.key_file = "/etc/roomkey/key.pem";
    inputs.upstream_ca_bundle = "/etc/roomkey/ca.pem";
    inputs.access_log = "/var/log/roomkey.log";
    return nginx_site_config(config, options, inputs, routes);
}

// The server block's own locations ("location = /config.json"), in order.
std::vector<std::string> server_locations(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("    location ", 0) == 0) out.push_back(line.substr(4, line.size() - 4 - 2));
    }
    return out;
}

std::string location_of(const Route& row) {
    switch (row.match) {
        case PathMatch::exact:
            return "location = " + std::string(row.path);
        case PathMatch::prefix:
            return "location " + std::string(row.path == "/" ? "" : "^~ ") + std::string(row.path);
        case PathMatch::hashed_asset:
            return "location ~ " + nginx::nq(row.path);  // nginx's quoting: the backslashes doubled
    }
    return "";
}

TEST(HelperRouteTableNginx, TheServersLocationsAreTheRowsOfItsMode) {
    for (SessionMode mode : {SessionMode::browser, SessionMode::bff}) {
        std::vector<std::string> expected;
        for (const Route& row : helper_routes()) {
            if (route_in_mode(row, mode)) expected.push_back(location_of(row));
        }
        EXPECT_EQ(server_locations(site_config(mode, helper_routes())), expected) << to_string(mode);
    }
}

TEST(HelperRouteTableNginx, ARowAddedToTheTableShowsInTheConfigurationAndARowTakenOutLeavesIt) {
    std::vector<Route> routes = helper_routes();
    const Route extra{"/bff/extra",       PathMatch::exact,          RouteModes::bff, {Method::Post},
                      BodyRule::json,     RouteClass::api,           true,            Compression::never,
                      RouteHandler::bff_refresh, NginxHandling::bff_fetch};
    routes.insert(std::find_if(routes.begin(), routes.end(),
                               [](const Route& r) { return r.nginx == NginxHandling::token_proxy; }),
                  extra);
    routes.erase(std::find_if(routes.begin(), routes.end(), [](const Route& r) { return r.path == kConfigPath; }));

    const std::string bff = site_config(SessionMode::bff, routes);
    const auto at = bff.find("    location = /bff/extra {\n");
    ASSERT_NE(at, std::string::npos) << bff;
    const std::string block = bff.substr(at, bff.find("\n    }\n", at) - at);
    EXPECT_NE(block.find("if ($roomkey_proxy_allowed = 0) { return 403; }"), std::string::npos) << block;
    EXPECT_NE(block.find("if ($request_method != POST) { return 405; }"), std::string::npos) << block;
    EXPECT_NE(block.find("proxy_pass https://roomkey_bff;"), std::string::npos) << block;
    EXPECT_NE(block.find("gzip off;"), std::string::npos) << block;
    EXPECT_EQ(bff.find("location = /config.json"), std::string::npos) << bff;
    // A BFF row is not in the browser mode's file.
    const std::string browser = site_config(SessionMode::browser, routes);
    EXPECT_EQ(browser.find("/bff/extra"), std::string::npos);
    EXPECT_EQ(browser.find("location = /config.json"), std::string::npos);
    // The table the helper runs on is unchanged, and its file has both as before.
    const std::string own = site_config(SessionMode::bff, helper_routes());
    EXPECT_EQ(own.find("/bff/extra"), std::string::npos);
    EXPECT_NE(own.find("    location = /config.json {\n"), std::string::npos);
}

// An image preview's fetch is the helper's own (Proxy::file_preview: the
// service's origin or a link the service issued through that helper). The
// BFF helpers behind nginx proxy the API, so they know the links: nginx
// hands them the route. nginx alone proxies the API itself: the route says
// previews need the helper, and /config.json tells the page not to ask.
TEST(HelperRouteTableNginx, ThePreviewRouteGoesToTheBffHelpersAndNginxAloneSaysPreviewsNeedTheHelper) {
    const std::string bff = site_config(SessionMode::bff, helper_routes());
    const std::string bff_block = block_of(bff, "location = /file-preview");
    ASSERT_FALSE(bff_block.empty()) << bff;
    EXPECT_NE(bff_block.find("if ($roomkey_proxy_allowed = 0) { return 403; }"), std::string::npos) << bff_block;
    EXPECT_NE(bff_block.find("if ($request_method != POST) { return 405; }"), std::string::npos) << bff_block;
    EXPECT_NE(bff_block.find("proxy_pass https://roomkey_bff;"), std::string::npos) << bff_block;
    EXPECT_EQ(bff.find("file_previews"), std::string::npos) << "the BFF front serves previews: nothing to say";

    const std::string alone = site_config(SessionMode::browser, helper_routes());
    const std::string alone_block = block_of(alone, "location = /file-preview");
    ASSERT_FALSE(alone_block.empty()) << alone;
    EXPECT_EQ(alone_block.find("proxy_pass"), std::string::npos) << "nginx alone is never a fetcher of URLs";
    EXPECT_NE(alone_block.find("if ($roomkey_proxy_allowed = 0) { return 403; }"), std::string::npos) << alone_block;
    EXPECT_NE(alone_block.find("image previews need roomkey-helper"), std::string::npos) << alone_block;
    EXPECT_NE(block_of(alone, "location = /config.json").find("\\\"file_previews\\\":false"), std::string::npos)
        << block_of(alone, "location = /config.json");
}

// Whether an answer may be compressed is one fact of each row, read by the
// helper (before httplib looks at Accept-Encoding) and by the nginx writer
// (`gzip off;` in the row's location): never where answers hold tokens or
// the session (the token endpoint, the BFF's routes and its callback).
TEST(HelperRouteTableNginx, EachRowsCompressionIsTheHelpersAndTheFrontsRule) {
    std::size_t never = 0;
    for (SessionMode mode : {SessionMode::browser, SessionMode::bff}) {
        const std::string site = site_config(mode, helper_routes());
        for (const Route& row : helper_routes()) {
            if (!route_in_mode(row, mode)) continue;
            const std::string path = sample_path(row);
            ASSERT_EQ(route_for(path, mode), &row) << path << " in " << to_string(mode) << " is another row's";
            const bool secret = row.handler == RouteHandler::token || row.nginx == NginxHandling::bff_navigation ||
                                row.nginx == NginxHandling::bff_fetch;
            if (secret) {
                EXPECT_EQ(row.compression, Compression::never) << path << ": its answers hold tokens or the session";
            }
            const bool may = row.compression == Compression::may;
            never += may ? 0 : 1;
            EXPECT_EQ(answer_may_be_compressed(path, mode), may) << path << " in " << to_string(mode);
            const std::string block = block_of(site, location_of(row));
            ASSERT_FALSE(block.empty()) << location_of(row) << "\n" << site;
            EXPECT_EQ(block.find("gzip off;") == std::string::npos, may) << block;
            if (!may) {
                EXPECT_EQ(block.find("gzip on;"), std::string::npos) << block;
            }
        }
    }
    EXPECT_EQ(never, 1u + 1u + 5u) << "the token row in both modes, the BFF mode's five";
    // The two read the row, not the path: the API's row made `never` turns
    // both off for the API.
    std::vector<Route> routes = helper_routes();
    for (Route& row : routes) {
        if (row.nginx == NginxHandling::api_allowlist) row.compression = Compression::never;
    }
    EXPECT_TRUE(answer_may_be_compressed("/api/rooms", SessionMode::browser));
    EXPECT_FALSE(answer_may_be_compressed("/api/rooms", SessionMode::browser, routes));
    const std::string api = block_of(site_config(SessionMode::browser, routes), "location ^~ /api/");
    ASSERT_FALSE(api.empty());
    EXPECT_NE(api.find("gzip off;"), std::string::npos) << api;
    EXPECT_EQ(api.find("gzip on;"), std::string::npos) << api;
    EXPECT_NE(block_of(site_config(SessionMode::browser, helper_routes()), "location ^~ /api/").find("gzip on;"),
              std::string::npos);
}

// The front compresses API answers as the helper does: from the same size,
// at the same zlib level (proxy.hpp), so an answer costs the same wait
// behind either.
TEST(HelperRouteTableNginx, TheFrontCompressesAtTheHelpersSizeAndLevel) {
    const std::string api = block_of(site_config(SessionMode::browser, helper_routes()), "location ^~ /api/");
    ASSERT_FALSE(api.empty());
    EXPECT_NE(api.find("gzip_comp_level " + std::to_string(kCompressLevel) + ";"), std::string::npos) << api;
    EXPECT_NE(api.find("gzip_min_length " + std::to_string(kCompressFromBytes) + ";"), std::string::npos) << api;
}

TEST(HelperRouteTableNginx, TheMethodsTheFrontTakesAreTheRows) {
    std::vector<Route> routes = helper_routes();
    EXPECT_NE(site_config(SessionMode::browser, routes)
                  .find("if ($request_method !~ \"^(GET|HEAD|POST|PUT|DELETE)$\") { return 405; }"),
              std::string::npos);
    // Without the rows that take PUT and DELETE, the front refuses them.
    for (Route& row : routes) {
        row.methods.erase(std::remove_if(row.methods.begin(), row.methods.end(),
                                         [](Method m) { return m == Method::Put || m == Method::Delete; }),
                          row.methods.end());
    }
    EXPECT_NE(site_config(SessionMode::browser, routes)
                  .find("if ($request_method !~ \"^(GET|HEAD|POST)$\") { return 405; }"),
              std::string::npos);
}

// [helper/common: security headers and log lines, both programs] ------------

TEST(CommonSecurityHeaders, TheHelpersAnswersCarryTheHelperProfile) {
    TempDir dir;
    RunningHelper helper(config_for(dir, SessionMode::browser));
    ASSERT_TRUE(helper.ok()) << helper.error();
    for (const char* path : {"/", "/config.json", "/no-such-file"}) {
        auto res = helper.client()->Get(path);
        ASSERT_TRUE(res) << path;
        for (const auto& [name, value] : native::security_headers(native::HeaderProfile::helper)) {
            EXPECT_EQ(res->get_header_value(std::string(name).c_str()), std::string(value)) << path << " " << name;
        }
    }
}

class CommonSecurityHeadersSandbox : public sandbox::testing::SandboxTest {};

TEST_F(CommonSecurityHeadersSandbox, TheSandboxsPagesAndApiCarryTheirProfiles) {
    const std::pair<const char*, native::HeaderProfile> cases[] = {
        {"/", native::HeaderProfile::sandbox_page},
        {"/v2/me", native::HeaderProfile::sandbox_api},
    };
    for (const auto& [path, profile] : cases) {
        auto res = client()->Get(path);
        ASSERT_TRUE(res) << path;
        const auto headers = native::security_headers(profile);
        EXPECT_EQ(headers.size(), 4u);
        for (const auto& [name, value] : headers) {
            EXPECT_EQ(res->get_header_value(std::string(name).c_str()), std::string(value)) << path << " " << name;
        }
        // The helper's own: the sandbox stands in for the service, not the app.
        EXPECT_FALSE(res->has_header("Cross-Origin-Opener-Policy")) << path;
    }
}

TEST(CommonRequestLog, OneLineShapeWithTheQueryRedactedOrLeftOut) {
    using native::QueryInLog;
    using native::request_log_line;
    EXPECT_EQ(request_log_line("GET", "/callback?code=C&state=S", 200, 1.0), "GET /callback?[redacted] 200 1.0ms");
    EXPECT_EQ(request_log_line("GET", "/oauth/authorize?code=C", 302, 1.0, QueryInLog::left_out),
              "GET /oauth/authorize 302 1.0ms");
    EXPECT_EQ(request_log_line("GET", "/a#frag?x", 200, std::nullopt, QueryInLog::left_out), "GET /a 200");
    EXPECT_EQ(request_log_line("POST", "/v2/x\r\nforged", 400, 2.5, QueryInLog::left_out), "POST /v2/x\\x0D\\x0Aforged 400 2.5ms");
    EXPECT_EQ(request_log_line("-", "-", 400, std::nullopt), "- - 400");
    EXPECT_EQ(request_log_line("GET", std::string(300, '/'), 414, std::nullopt), "GET " + std::string(200, '/') + "... 414");
}

}  // namespace
}  // namespace roomkey::helper::route_table_tests
