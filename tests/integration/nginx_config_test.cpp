// nginx_config_test.cpp: `roomkey-helper nginx-config`: the nginx
// allowlist is shared/'s endpoint table, walked here endpoint by endpoint,
// both in the generated text and through a running nginx in front of the
// sandbox; the confidential client's secret is only in its 0600 include.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "helper/nginx_config.hpp"
#include "helper/policy.hpp"
#include "helper/route_policy.hpp"
#include "common/loopback_server.hpp"
#include "common/tls.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/endpoints.hpp"
#include "helper/request_body_rules.hpp"
#include "roomkey/token.hpp"
#include "roomkey/upload_limits.hpp"
#include "support/body_recording_upstream.hpp"
#include "support/free_port.hpp"
#include "support/nginx_process.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/tls_suite_probe.hpp"
#include "support/trust_only.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::integration {
namespace {

using helper::api_locations;
using helper::ApiLocation;

// The location's PCRE as std::regex (ECMAScript has no named groups).
std::regex ecma(const std::string& pcre) {
    return std::regex(std::regex_replace(pcre, std::regex("\\?<[a-z_]+>"), ""));
}

// "/rooms/{room_id}/messages/{message_id}" -> "/rooms/<id>/messages/<id>".
std::string instantiate(const std::string& path_template, const std::string& id) {
    return std::regex_replace(path_template, std::regex("\\{[a-z_]+\\}"), id);
}

const std::vector<Method> kMethods = {Method::Get, Method::Post, Method::Put, Method::Delete};

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(NginxAllowlist, EveryEndpointOfSharedsTableHasExactlyOneLocationWithItsMethod) {
    const auto locations = api_locations();
    // The catalog itself, walked here (not a copy of it).
    for (const EndpointInfo& info : endpoint_catalog()) {
        const Endpoint e = info.endpoint;
        EXPECT_EQ(info.method, method_of(e));
        int found = 0;
        for (const ApiLocation& l : locations) {
            const std::string path = instantiate(l.path_template, "42");
            const auto match = match_endpoint(method_of(e), path);
            if (!match || match->endpoint != e) continue;
            ++found;
            EXPECT_NE(std::find(l.methods.begin(), l.methods.end(), method_of(e)), l.methods.end()) << to_string(e);
            EXPECT_TRUE(std::regex_match("/api" + path, ecma(l.regex))) << l.regex;
        }
        EXPECT_EQ(found, 1) << to_string(e);
    }
}

TEST(NginxAllowlist, EveryLocationAllowsOnlyWhatTheTableAllows) {
    std::size_t pairs = 0;
    for (const ApiLocation& l : api_locations()) {
        const std::regex re = ecma(l.regex);
        for (const std::string id : {"1", "42", "12345678901234567890"}) {
            const std::string path = instantiate(l.path_template, id);
            EXPECT_TRUE(std::regex_match("/api" + path, re)) << l.regex << " " << path;
            for (Method m : kMethods) {
                const bool listed = std::find(l.methods.begin(), l.methods.end(), m) != l.methods.end();
                EXPECT_EQ(match_endpoint(m, path).has_value(), listed) << to_string(m) << " " << path;
            }
        }
        pairs += l.methods.size();
        // Ids the table refuses (is_resource_id) are refused by the regex too.
        if (l.path_template.find('{') != std::string::npos) {
            for (const std::string id : {"0", "01", "123456789012345678901", "abc", "1a", ""}) {
                const std::string path = instantiate(l.path_template, id);
                EXPECT_FALSE(std::regex_match("/api" + path, re)) << l.regex << " " << path;
                EXPECT_FALSE(is_resource_id(id)) << id;
            }
        }
        // Nothing below or beside an endpoint.
        EXPECT_FALSE(std::regex_match("/api" + instantiate(l.path_template, "1") + "/x", re));
        EXPECT_FALSE(std::regex_match("/api" + instantiate(l.path_template, "1") + "/", re));
    }
    EXPECT_EQ(pairs, endpoint_catalog().size()) << "one (path, method) pair per endpoint";
    EXPECT_EQ(pairs, std::size(kAllEndpoints));
}

const std::string kRefusedBody = "{\"errors\":[\"not an allowed API endpoint\"]}";

class NginxFrontTest : public sandbox::testing::SandboxTest {
protected:
    // `web_root`: as the user typed it (default: the test's web build, absolute).
    void start_nginx(helper::ClientType type, const std::string& web_root = {}) {
        std::ofstream(web_ / "index.html") << "<!doctype html><title>roomkey</title>\n";
        // Readable by nginx's workers (nobody, when the tests run as root),
        // as a real web root is; mkdtemp made it 0700.
        ::chmod(web_.path().c_str(), 0755);
        ::chmod((web_ / "index.html").c_str(), 0644);
        config_.port = free_port();
        ca_ = sandbox().ca_cert_path();
        config_.state_dir = sandbox::testing::shared_state_dir();
        config_.web_root = web_root.empty() ? web_.path() : web_root;
        config_.upstream.base_url = sandbox().base_url();
        config_.upstream.auth_url = sandbox().auth_url();
        config_.upstream.consent_url = sandbox().consent_url();
        config_.upstream.client_type = type;
        if (type == helper::ClientType::confidential) {
            config_.upstream.client_id = sandbox::testing::kConfidentialId;
            config_.upstream.client_secret = sandbox::testing::kConfidentialSecret;
        } else {
            config_.upstream.client_id = "roomkey-web";
        }
        helper::NginxOptions options;
        options.out_dir = out_.path();
        options.standalone = true;
        auto file = helper::write_nginx_config(config_, options);
        ASSERT_TRUE(file) << file.error();
        nginx_ = std::make_unique<RunningNginx>(out_.path(), *file);
        // Ready once it answers.
        ASSERT_TRUE(nginx_->wait_until([this] { return static_cast<bool>(client()->Get("/config.json")); }))
            << "nginx never answered /config.json";
    }
    void TearDown() override {
        nginx_.reset();
        SandboxTest::TearDown();
    }
    std::unique_ptr<httplib::SSLClient> client() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", config_.port);
        trust_only(*c, "127.0.0.1", ca_);
        c->set_read_timeout(10, 0);
        return c;
    }
    httplib::Result send(Method m, const std::string& path, const httplib::Headers& headers) const {
        auto c = client();
        switch (m) {
            case Method::Get:
                return c->Get(path.c_str(), headers);
            case Method::Post:
                return c->Post(path.c_str(), headers, "body=x", "application/x-www-form-urlencoded");
            case Method::Put:
                return c->Put(path.c_str(), headers, "body=x", "application/x-www-form-urlencoded");
            case Method::Delete:
                return c->Delete(path.c_str(), headers);
            default:
                return c->Get(path.c_str(), headers);
        }
    }

    TempDir web_;
    TempDir out_;
    helper::HelperConfig config_;
    std::string ca_;
    std::unique_ptr<RunningNginx> nginx_;
};

// `./scripts/run.sh --front nginx` passes --web-root build/wasm/web/dist:
// nginx reads a relative root against its prefix, so the generator must
// resolve it as the helper does, or every page answer is 404.
TEST_F(NginxFrontTest, ARelativeWebRootIsTheOneBesideTheCommandNotInsideNginxsPrefix) {
    // As run.sh does it: the command runs beside the build, with a relative
    // --web-root; nginx's prefix (out_) is elsewhere.
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(web_.path());
    std::filesystem::create_directory("dist");
    std::ofstream("dist/index.html") << "<!doctype html><title>roomkey dist</title>\n";
    ::chmod("dist", 0755);
    ::chmod("dist/index.html", 0644);
    start_nginx(helper::ClientType::public_client, "dist");
    std::filesystem::current_path(before);
    auto page = client()->Get("/");
    ASSERT_TRUE(page) << why_no_answer(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find("<title>roomkey dist</title>"), std::string::npos) << page->body;
}

TEST(NginxConfig, AWebRootWithoutTheBuildIsRefusedWithServesWords) {
    TempDir empty;
    TempDir out;
    helper::HelperConfig config;
    config.port = 8443;
    config.state_dir = sandbox::testing::shared_state_dir();
    config.web_root = empty.path();
    helper::NginxOptions options;
    options.out_dir = out.path();
    auto file = helper::write_nginx_config(config, options);
    ASSERT_FALSE(file) << "a config was written for a web root with no index.html";
    EXPECT_NE(file.error().find("has no index.html"), std::string::npos) << file.error();
}

// A request nginx sends on an idle upstream connection just as the server
// closes it breaks after it was sent; for a POST nobody can tell whether the
// service acted, so the post comes back 502 "sent, no answer". nginx must
// close its idle connections first, after the same time as the helper.
TEST(NginxConfig, IdleUpstreamConnectionsAreClosedBeforeTheServerClosesThem) {
    TempDir web;
    TempDir out;
    std::ofstream(web / "index.html") << "<!doctype html>\n";
    helper::HelperConfig config;
    config.port = 8443;
    config.state_dir = sandbox::testing::shared_state_dir();
    config.web_root = web.path();
    config.upstream.base_url = "https://127.0.0.1:9444/v2";
    config.upstream.auth_url = "https://127.0.0.1:9444/oauth/token";
    config.upstream.consent_url = "https://127.0.0.1:9444/consent";
    config.upstream.client_id = "roomkey-web";
    helper::NginxOptions options;
    options.out_dir = out.path();
    auto file = helper::write_nginx_config(config, options);
    ASSERT_TRUE(file) << file.error();
    const std::string text = read(*file);
    const std::regex upstream_block("upstream (roomkey_[a-z]+) \\{([^}]*)\\}");
    int blocks = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), upstream_block); it != std::sregex_iterator(); ++it) {
        ++blocks;
        const std::string body = (*it)[2];
        EXPECT_NE(body.find("keepalive_timeout " + std::to_string(helper::kUpstreamIdleSeconds) + "s;"),
                  std::string::npos)
            << (*it)[1] << ":" << body;
    }
    EXPECT_EQ(blocks, 2) << text;
    // The sandbox (and any cpp-httplib server) closes idle connections after
    // keep_alive_timeout_seconds; ours go well before.
    EXPECT_LT(helper::kUpstreamIdleSeconds, native::ServerLimits{}.keep_alive_timeout_seconds);
}

TEST_F(NginxFrontTest, NginxOffersTheHelpersSuitesInItsOrderAndRefusesCbc) {
    ASSERT_NO_FATAL_FAILURE(start_nginx(helper::ClientType::public_client));
    const int port = config_.port;
    for (const char* cipher : {"ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "ECDHE-ECDSA-AES128-CCM8",
                               "ECDHE-ECDSA-CAMELLIA128-SHA256", "ECDHE-ECDSA-ARIA128-GCM-SHA256"}) {
        EXPECT_EQ(negotiated_suite(port, TLS1_2_VERSION, cipher), "") << "nginx accepted " << cipher;
    }
    EXPECT_EQ(negotiated_suite(port, TLS1_2_VERSION, "ECDHE-ECDSA-CHACHA20-POLY1305"), "ECDHE-ECDSA-CHACHA20-POLY1305");
    EXPECT_EQ(negotiated_suite(port, TLS1_3_VERSION, "", "TLS_AES_128_GCM_SHA256"), "TLS_AES_128_GCM_SHA256");
    EXPECT_EQ(negotiated_suite(port, TLS1_3_VERSION, "", "TLS_AES_128_CCM_SHA256"), "");
    EXPECT_EQ(negotiated_suite(port, TLS1_2_VERSION, "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384"),
              "ECDHE-ECDSA-AES256-GCM-SHA384")
        << "the server's order";
}

TEST_F(NginxFrontTest, ARunningNginxProxiesEveryEndpointOfTheTableAndRefusesEverythingElse) {
    start_nginx(helper::ClientType::public_client);
    const httplib::Headers app = {{"X-Roomkey-Request", "1"}, {"x-servicetoken", sandbox::testing::kAliceToken}};
    for (const ApiLocation& l : api_locations()) {
        const std::string path = "/api" + instantiate(l.path_template, "1");
        for (Method m : kMethods) {
            const bool listed = std::find(l.methods.begin(), l.methods.end(), m) != l.methods.end();
            auto res = send(m, path, app);
            ASSERT_TRUE(res) << path;
            if (listed) {
                // The sandbox answered (its own status), not nginx's refusal.
                EXPECT_NE(res->body, kRefusedBody) << to_string(m) << " " << path;
                EXPECT_NE(res->status, 403) << to_string(m) << " " << path << " " << res->body;
            } else {
                EXPECT_EQ(res->status, 404) << to_string(m) << " " << path;
                EXPECT_EQ(res->body, kRefusedBody) << to_string(m) << " " << path;
            }
        }
        auto below = send(Method::Get, path + "/x", app);
        ASSERT_TRUE(below) << why_no_answer(below);
        EXPECT_EQ(below->status, 404);
        EXPECT_EQ(below->body, kRefusedBody) << path << "/x";
    }
    // A real answer through nginx: the sandbox's /me for alice.
    auto me = send(Method::Get, "/api/me", app);
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    EXPECT_NE(me->body.find("account_id"), std::string::npos) << me->body;
}

// As the helper: API answers gzip-compressed for a browser that accepts it;
// the token endpoint's never (they hold secrets).
TEST_F(NginxFrontTest, ApiAnswersAreCompressedWhenAcceptedAndTokenAnswersNever) {
    start_nginx(helper::ClientType::public_client);
    auto c = client();
    c->set_decompress(false);
    const httplib::Headers gzip = {{"X-Roomkey-Request", "1"},
                                   {"x-servicetoken", sandbox::testing::kAliceToken},
                                   {"Accept-Encoding", "gzip, deflate, br"}};
    auto rooms = c->Get("/api/rooms", gzip);
    ASSERT_TRUE(rooms) << why_no_answer(rooms);
    ASSERT_EQ(rooms->status, 200);
    EXPECT_EQ(rooms->get_header_value("Content-Encoding"), "gzip");
    auto plain = c->Get("/api/rooms", {{"X-Roomkey-Request", "1"},
                                       {"x-servicetoken", sandbox::testing::kAliceToken},
                                       {"Accept-Encoding", "identity"}});
    ASSERT_TRUE(plain) << why_no_answer(plain);
    EXPECT_EQ(plain->get_header_value("Content-Encoding"), "");
    EXPECT_LT(rooms->body.size(), plain->body.size());

    auto token = c->Post("/oauth/token", gzip,
                         "grant_type=authorization_code&code=" + std::string(600, 'c') +
                             "&redirect_uri=https%3A%2F%2F127.0.0.1%2Fcallback&code_verifier=" + std::string(43, 'v') +
                             "&client_id=roomkey-web",
                         "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 400) << token->body;
    EXPECT_EQ(token->get_header_value("Content-Encoding"), "");
    EXPECT_NE(token->body.find("\"error\""), std::string::npos) << token->body;
}

TEST_F(NginxFrontTest, AConfidentialClientsSecretIsOnlyInTheSecretFileAndTheCodeExchangeUsesIt) {
    start_nginx(helper::ClientType::confidential);
    const std::string secret = sandbox::testing::kConfidentialSecret;
    const std::string basic = basic_authorization(
        ConfidentialClient{sandbox::testing::kConfidentialId, sandbox::testing::kConfidentialSecret});
    const std::string include = out_ / "client-secret.conf";
    struct stat st {};
    ASSERT_EQ(::stat(include.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_NE(read(include).find(basic), std::string::npos);
    for (const char* name : {"roomkey.conf", "nginx.conf", "upstream-ca.pem"}) {
        const std::string text = read(out_ / name);
        EXPECT_EQ(text.find(secret), std::string::npos) << name;
        EXPECT_EQ(text.find(basic.substr(6)), std::string::npos) << name;
    }
    // The page's view: /config.json names the client, never the secret.
    auto config = client()->Get("/config.json");
    ASSERT_TRUE(config) << why_no_answer(config);
    EXPECT_NE(config->body.find("\"client_type\":\"confidential\""), std::string::npos) << config->body;
    EXPECT_EQ(config->body.find(secret), std::string::npos);

    // The page sends client_id as a public client would; nginx takes it out
    // and authenticates with Basic: the sandbox then judges the code itself
    // (invalid_grant), not the client (invalid_client / invalid_request).
    auto token = client()->Post("/oauth/token?unused", {{"X-Roomkey-Request", "1"}},
                                "grant_type=authorization_code&code=not-a-code&redirect_uri=" +
                                    percent_encode(sandbox::testing::kConfidentialRedirect) + "&client_id=" +
                                    sandbox::testing::kConfidentialId + "&code_verifier=" + std::string(64, 'a'),
                                "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 400) << "only client_id may be in the query: " << token->body;
    token = client()->Post("/oauth/token", {{"X-Roomkey-Request", "1"}},
                           "grant_type=authorization_code&code=not-a-code&redirect_uri=" +
                               percent_encode(sandbox::testing::kConfidentialRedirect) + "&client_id=" +
                               sandbox::testing::kConfidentialId + "&code_verifier=" + std::string(64, 'a'),
                           "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_NE(token->body.find("invalid_grant"), std::string::npos) << token->status << " " << token->body;
    EXPECT_EQ(token->get_header_value("Cache-Control"), "no-store");

    // Nothing of it in nginx's logs.
    nginx_.reset();
    for (const char* log : {"access.log", "error.log"}) {
        const std::string text = read(out_ / log);
        EXPECT_EQ(text.find(secret), std::string::npos) << log;
        EXPECT_EQ(text.find(basic.substr(6)), std::string::npos) << log;
        EXPECT_EQ(text.find("not-a-code"), std::string::npos) << log;
    }
    EXPECT_NE(read(out_ / "access.log").find("\"POST /oauth/token?[redacted]\" 400"), std::string::npos)
        << read(out_ / "access.log");
}


// [the upload route] ----------------------------------------------------------
// POST /api/rooms/{room_id}/files takes multipart/form-data up to
// kMaxUploadRequestBytes; every other route keeps kMaxRequestBodyBytes and
// never takes multipart/form-data, through nginx as through the helper
// (helper_request_body_rules_test.cpp).

// The text of the block whose head starts at `at`, up to its closing brace
// (the head's own braces, as in a regex's "{0,19}", are not the block's).
std::string block_at(const std::string& text, std::size_t at) {
    int depth = 0;
    for (std::size_t i = text.find(" {\n", at) + 1; i < text.size(); ++i) {
        if (text[i] == '{') ++depth;
        if (text[i] == '}' && --depth == 0) return text.substr(at, i + 1 - at);
    }
    return text.substr(at);
}

TEST(NginxConfig, TheUploadsLocationHasTheUploadLimitAndEveryOtherBodyThe1MiBLimit) {
    TempDir web;
    TempDir out;
    std::ofstream(web / "index.html") << "<!doctype html>\n";
    helper::HelperConfig config;
    config.port = 8443;
    config.state_dir = sandbox::testing::shared_state_dir();
    config.web_root = web.path();
    config.upstream.base_url = "https://127.0.0.1:9444/v2";
    config.upstream.auth_url = "https://127.0.0.1:9444/oauth";
    config.upstream.consent_url = "https://127.0.0.1:9444/consent";
    config.upstream.client_id = "roomkey-web";
    helper::NginxOptions options;
    options.out_dir = out.path();
    auto file = helper::write_nginx_config(config, options);
    ASSERT_TRUE(file) << file.error();
    const std::string text = read(*file);
    const std::string upload_limit = "client_max_body_size " + std::to_string(kMaxUploadRequestBytes) + ";";
    const std::string other_limit = "client_max_body_size " + std::to_string(kMaxRequestBodyBytes) + ";";
    // The server block's limit, once.
    const std::size_t server = text.find("\nserver {");
    ASSERT_NE(server, std::string::npos);
    EXPECT_NE(text.find("    " + other_limit, server), std::string::npos) << text;
    // One location per template: the upload's has the upload limit, the others none of their own.
    std::size_t uploads = 0;
    for (const ApiLocation& l : api_locations()) {
        const std::size_t at = text.find("location ~ \"" + l.regex + "\"");
        ASSERT_NE(at, std::string::npos) << l.regex;
        const std::string block = block_at(text, at);
        const bool upload = l.path_template == endpoint_info(Endpoint::room_files_post).path;
        EXPECT_EQ(l.upload_methods.empty(), !upload) << l.path_template;
        if (upload) {
            ++uploads;
            EXPECT_EQ(l.upload_methods, std::vector<Method>{Method::Post});
            EXPECT_NE(block.find(upload_limit), std::string::npos) << block;
            EXPECT_NE(block.find("client_body_buffer_size " + std::to_string(kMaxUploadRequestBytes) + ";"),
                      std::string::npos)
                << "kept in memory, as every body: " << block;
            EXPECT_NE(block.find("if ($roomkey_upload_body_refused) { return 415"), std::string::npos) << block;
        } else {
            EXPECT_EQ(block.find("client_max_body_size"), std::string::npos) << block;
            EXPECT_NE(block.find("if ($roomkey_multipart_body) { return 415"), std::string::npos) << block;
        }
    }
    EXPECT_EQ(uploads, 1u);
    std::size_t limits = 0;
    for (auto at = text.find("client_max_body_size"); at != std::string::npos;
         at = text.find("client_max_body_size", at + 1)) {
        ++limits;
    }
    EXPECT_EQ(limits, 2u) << "the server's and the upload's, no other";
    // The content-type rules are the helper's own patterns (request_body_rules.hpp).
    EXPECT_NE(text.find("\"~*^(POST|PUT)\\\\|multipart/form-data[ \\\\t]*(;|$)\" 1;"), std::string::npos) << text;
    EXPECT_NE(text.find("\"~*^(POST)\\\\|(?=.{0,512}$)multipart/form-data"), std::string::npos) << text;
}

// nginx in front of an upstream that records the bytes it receives.
class NginxUploadTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto tls = native::ensure_tls_material(state_.path());
        ASSERT_TRUE(tls) << tls.error().detail;
        ca_ = tls->ca_cert_path;
        upstream_ = std::make_unique<BodyRecordingUpstream>(tls->server_cert_path, tls->server_key_path);
        ASSERT_TRUE(upstream_->ok()) << "the recording upstream did not start";
        std::ofstream(web_ / "index.html") << "<!doctype html><title>roomkey</title>\n";
        ::chmod(web_.path().c_str(), 0755);
        ::chmod((web_ / "index.html").c_str(), 0644);
        helper::HelperConfig config;
        config.port = free_port();
        config.state_dir = state_.path();
        config.web_root = web_.path();
        config.upstream.base_url = upstream_->origin() + "/v2";
        config.upstream.auth_url = upstream_->origin() + "/oauth";
        config.upstream.consent_url = upstream_->origin() + "/consent";
        config.upstream.client_id = "roomkey-web";
        port_ = config.port;
        helper::NginxOptions options;
        options.out_dir = out_.path();
        options.standalone = true;
        auto file = helper::write_nginx_config(config, options);
        ASSERT_TRUE(file) << file.error();
        nginx_ = std::make_unique<RunningNginx>(out_.path(), *file);
        ASSERT_TRUE(nginx_->wait_until([this] { return static_cast<bool>(client()->Get("/config.json")); }))
            << "nginx never answered /config.json";
    }
    void TearDown() override { nginx_.reset(); }
    std::unique_ptr<httplib::SSLClient> client() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", port_);
        trust_only(*c, "127.0.0.1", ca_);
        c->set_read_timeout(10, 0);
        return c;
    }
    const httplib::Headers app_ = {{"X-Roomkey-Request", "1"}, {"x-servicetoken", "API-TOKEN"}};

    // The status of a request with a body of `length` bytes of `type` (for a
    // GET only the Content-Length that announces it). nginx answers a
    // refusal as soon as it has the head and reads the rest away, so the
    // client can finish sending.
    int status_of(const std::string& method, const std::string& target, const std::string& type,
                  std::size_t length) const {
        auto c = client();
        auto res = method == "GET" ? c->Get(target.c_str(), {{"X-Roomkey-Request", "1"},
                                                              {"Content-Length", std::to_string(length)}})
                                   : c->Post(target.c_str(), app_, std::string(length, 'x'), type.c_str());
        return res ? res->status : -1;
    }

    TempDir state_;
    TempDir web_;
    TempDir out_;
    std::string ca_;
    int port_ = 0;
    std::unique_ptr<BodyRecordingUpstream> upstream_;
    std::unique_ptr<RunningNginx> nginx_;
};

TEST_F(NginxUploadTest, A2MiBMultipartUploadReachesTheUpstreamByteForByteWithItsBoundary) {
    const std::string body = multipart_body(2 * 1024 * 1024);
    auto res = client()->Post("/api/rooms/5/files", app_, body, kMultipartType.c_str());
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200) << res->body << read(out_ / "error.log");
    const auto received = upstream_->received();
    ASSERT_EQ(received.size(), 1u);
    EXPECT_EQ(received[0].method_target, "POST /v2/rooms/5/files");
    EXPECT_EQ(received[0].content_type, kMultipartType);
    EXPECT_EQ(received[0].body.size(), body.size());
    EXPECT_TRUE(received[0].body == body) << "the bytes differ";
}

TEST_F(NginxUploadTest, TheUploadTakesExactlyItsLimitAndEveryOtherRoute1MiB) {
    const std::string at_limit = multipart_body(kMaxUploadRequestBytes);
    auto res = client()->Post("/api/rooms/5/files", app_, at_limit, kMultipartType.c_str());
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200) << res->body;
    ASSERT_EQ(upstream_->received().size(), 1u);
    EXPECT_TRUE(upstream_->received()[0].body == at_limit);

    EXPECT_EQ(status_of("POST", "/api/rooms/5/files", kMultipartType, kMaxUploadRequestBytes + 1), 413);
    for (const char* target : {"/api/rooms/5/messages", "/oauth/token", "/api/rooms/5/files/6"}) {
        EXPECT_EQ(status_of("POST", target, "application/x-www-form-urlencoded", 2 * 1024 * 1024), 413)
            << target;
    }
    // A GET carries no body, also beside the upload (the helper: 400).
    EXPECT_EQ(status_of("GET", "/api/rooms/5/files", "", 2 * 1024 * 1024), 400);
    EXPECT_EQ(upstream_->received().size(), 1u) << "a refused body reached the upstream";
}

TEST_F(NginxUploadTest, MultipartElsewhereAndAnUploadWithoutItAre415) {
    const std::string body = multipart_body(4096);
    for (const char* target : {"/api/rooms/5/messages", "/api/rooms/5/tasks"}) {
        auto res = client()->Post(target, app_, body, kMultipartType.c_str());
        ASSERT_TRUE(res) << target;
        EXPECT_EQ(res->status, 415) << target << ": " << res->body;
    }
    for (const char* type : {"application/x-www-form-urlencoded", "multipart/form-data"}) {
        auto res = client()->Post("/api/rooms/5/files", app_, "file=x", type);
        ASSERT_TRUE(res) << type;
        EXPECT_EQ(res->status, 415) << type << ": " << res->body;
    }
    EXPECT_TRUE(upstream_->received().empty()) << upstream_->received().front().method_target;
    // What passes: a form post elsewhere, the GET beside the upload.
    auto post = client()->Post("/api/rooms/5/messages", app_, "body=hi", "application/x-www-form-urlencoded");
    ASSERT_TRUE(post) << why_no_answer(post);
    EXPECT_EQ(post->status, 200) << post->body;
    auto list = client()->Get("/api/rooms/5/files", app_);
    ASSERT_TRUE(list) << why_no_answer(list);
    EXPECT_EQ(list->status, 200) << list->body;
    EXPECT_EQ(upstream_->received().size(), 2u);
}
}  // namespace
}  // namespace roomkey::integration
