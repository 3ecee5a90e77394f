// helper_upstream_test.cpp: both proxies on real sockets against a stand-in
// upstream: upstream TLS verified with the local CA, a
// foreign certificate refused, BFF mode, relayed headers, and a log of the
// whole exchange that contains none of the secrets that crossed the helper.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <atomic>
#include <memory>

#include "common/loopback_server.hpp"
#include "common/tls.hpp"
#include "roomkey/encoding.hpp"
#include "support/free_port.hpp"
#include "support/helper_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace {

// A server certificate for `san` ("DNS:elsewhere.example"), signed by the CA
// in `ca_cert_path`/`ca_key_path`, written as PEM to `cert_path`/`key_path`.
bool issue_server_certificate(const std::string& ca_cert_path, const std::string& ca_key_path, const char* san,
                              const std::string& cert_path, const std::string& key_path) {
    auto read_pem = [](const std::string& path, auto reader) {
        std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_file(path.c_str(), "r"), BIO_free);
        return bio ? reader(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    };
    std::unique_ptr<X509, decltype(&X509_free)> ca(read_pem(ca_cert_path, PEM_read_bio_X509), X509_free);
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> ca_key(read_pem(ca_key_path, PEM_read_bio_PrivateKey),
                                                              EVP_PKEY_free);
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), EVP_PKEY_free);
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
    if (!ca || !ca_key || !key || !cert) return false;
    X509V3_CTX ext_ctx;
    X509V3_set_ctx(&ext_ctx, ca.get(), cert.get(), nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ext_ctx, NID_subject_alt_name, san);
    const bool built = X509_set_version(cert.get(), 2) == 1 &&
                       ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 4242) == 1 &&
                       X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60) != nullptr &&
                       X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600) != nullptr &&
                       X509_set_pubkey(cert.get(), key.get()) == 1 &&
                       X509_set_issuer_name(cert.get(), X509_get_subject_name(ca.get())) == 1 && ext != nullptr &&
                       X509_add_ext(cert.get(), ext, -1) == 1 && X509_sign(cert.get(), ca_key.get(), EVP_sha256()) > 0;
    X509_EXTENSION_free(ext);
    if (!built) return false;
    std::unique_ptr<BIO, decltype(&BIO_free)> cert_out(BIO_new_file(cert_path.c_str(), "w"), BIO_free);
    std::unique_ptr<BIO, decltype(&BIO_free)> key_out(BIO_new_file(key_path.c_str(), "w"), BIO_free);
    return cert_out && key_out && PEM_write_bio_X509(cert_out.get(), cert.get()) == 1 &&
           PEM_write_bio_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1;
}

const char* const kAccessToken = "AT-0f3c9a7e51d2-secret";
const char* const kRefreshToken = "RT-8b1d44c0e9aa-secret";
const char* const kCode = "CODE-5e2b7d1c";
const char* const kVerifier = "VERIFIER-abcdefghijklmnopqrstuvwxyz-0123456789";
const char* const kSecret = "CLIENT-SECRET-77aa";

// A minimal HTTPS upstream: POST /oauth/token and GET /v2/my/status.
class FakeUpstream {
public:
    FakeUpstream(const std::string& cert, const std::string& key) : server_(cert.c_str(), key.c_str()) {
        native::harden_server(server_);
        server_.Post("/oauth/token", [this](const httplib::Request& req, httplib::Response& res) {
            ++token_calls;
            last_authorization = req.get_header_value("Authorization");
            last_body = req.body;
            last_query = req.target.find('?') == std::string::npos ? "" : req.target.substr(req.target.find('?') + 1);
            res.set_content(std::string(R"({"access_token":")") + kAccessToken + R"(","refresh_token":")" +
                                kRefreshToken + R"(","token_type":"Bearer","expires_in":1800,"scope":"users.all:read"})",
                            "application/json");
            res.set_header("Cache-Control", "no-store");
        });
        server_.Get("/v2/my/status", [this](const httplib::Request& req, httplib::Response& res) {
            last_authorization = req.get_header_value("Authorization");
            res.set_header("x-ratelimit-limit", "300");
            res.set_header("x-ratelimit-remaining", "12");
            res.set_header("x-ratelimit-reset", "1900000000");
            if (req.get_header_value("Authorization") != std::string("Bearer ") + kAccessToken) {
                res.status = 401;
                res.set_header("WWW-Authenticate", R"(Bearer error="invalid_token", error_description="expired")");
                return;
            }
            res.set_content(R"({"unread_room_num":1,"mention_room_num":0,"mytask_room_num":0,"unread_num":2,)"
                            R"("mention_num":0,"mytask_num":0})",
                            "application/json");
        });
        server_.Get("/v2/rooms/1/messages", [this](const httplib::Request& req, httplib::Response& res) {
            last_target = req.target;
            res.set_content("[]", "application/json");
        });
        server_.Get("/v2/me", [](const httplib::Request&, httplib::Response& res) {
            res.set_redirect("https://evil.example/steal");
        });
        auto port = native::bind_loopback(server_, "127.0.0.1", 0);
        if (port) port_ = *port;
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~FakeUpstream() {
        server_.stop();
        thread_.join();
    }
    std::string origin() const { return "https://127.0.0.1:" + std::to_string(port_); }

    std::atomic<int> token_calls{0};
    std::string last_authorization;
    std::string last_body;
    std::string last_query;
    std::string last_target;

private:
    httplib::SSLServer server_;
    int port_ = 0;
    std::thread thread_;
};

HelperConfig upstream_config(const TempDir& dir, const FakeUpstream& up) {
    HelperConfig config = testing::test_config(dir);
    config.upstream.base_url = up.origin() + "/v2";
    config.upstream.auth_url = up.origin() + "/oauth";
    config.upstream.consent_url = up.origin() + "/consent";
    config.upstream.client_id = "web-client";
    return config;
}

std::string code_form() {
    return std::string("grant_type=authorization_code&code=") + kCode +
           "&redirect_uri=https%3A%2F%2F127.0.0.1%2Fcallback&code_verifier=" + kVerifier + "&client_id=web-client";
}

TEST(HelperUpstream, TokenAndApiCallsThroughTheHelperWithTheLocalCa) {
    TempDir dir;
    // The upstream uses the same state dir's certificate, as the sandbox does.
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    FakeUpstream up(tls->server_cert_path, tls->server_key_path);
    RunningHelper helper(upstream_config(dir, up));
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto client = helper.client();

    auto token = client->Post("/oauth/token", helper.app_headers(), code_form(), "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 200) << token->body;
    EXPECT_NE(token->body.find(kAccessToken), std::string::npos);
    EXPECT_EQ(token->get_header_value("Cache-Control"), "no-store");
    EXPECT_EQ(token->get_header_value("Pragma"), "no-cache");
    EXPECT_EQ(up.last_body, code_form()) << "the form reaches {auth_url}/token unchanged";
    EXPECT_TRUE(up.last_authorization.empty()) << "public client: no Basic authentication";

    auto status = client->Get("/api/my/status",
                              {{"X-Roomkey-Request", "1"}, {"Authorization", std::string("Bearer ") + kAccessToken}});
    ASSERT_TRUE(status) << why_no_answer(status);
    EXPECT_EQ(status->status, 200) << status->body;
    EXPECT_NE(status->body.find("\"unread_num\":2"), std::string::npos);
    EXPECT_EQ(status->get_header_value("x-ratelimit-remaining"), "12");
    EXPECT_EQ(status->get_header_value("x-ratelimit-limit"), "300");
    EXPECT_EQ(status->get_header_value("x-ratelimit-reset"), "1900000000");

    auto expired = client->Get("/api/my/status", {{"X-Roomkey-Request", "1"}, {"Authorization", "Bearer old"}});
    ASSERT_TRUE(expired) << why_no_answer(expired);
    EXPECT_EQ(expired->status, 401);
    EXPECT_EQ(expired->get_header_value("WWW-Authenticate"), R"(Bearer error="invalid_token", error_description="expired")");

    // The query reaches the upstream byte for byte ('+' is a form-encoded space).
    auto listed = client->Get("/api/rooms/1/messages?force=1&q=a+b%2Bc", helper.app_headers());
    ASSERT_TRUE(listed) << why_no_answer(listed);
    EXPECT_EQ(listed->status, 200);
    EXPECT_EQ(up.last_target, "/v2/rooms/1/messages?force=1&q=a+b%2Bc");

    auto redirect = client->Get("/api/me", helper.app_headers());
    ASSERT_TRUE(redirect) << why_no_answer(redirect);
    EXPECT_FALSE(redirect->has_header("Location")) << "an upstream redirect is neither followed nor relayed";

    // The log of the whole exchange has no secret in it.
    const std::string log = helper.wait_for_log("GET /api/me");
    EXPECT_NE(log.find("POST /oauth/token 200"), std::string::npos) << log;
    EXPECT_NE(log.find("GET /api/my/status 200"), std::string::npos) << log;
    for (const char* secret : {kAccessToken, kRefreshToken, kCode, kVerifier}) {
        EXPECT_EQ(log.find(secret), std::string::npos) << "the log leaks " << secret << ":\n" << log;
    }
}

TEST(HelperUpstream, ConfidentialClientBffModeAddsBasicAuthenticationUpstream) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    FakeUpstream up(tls->server_cert_path, tls->server_key_path);
    HelperConfig config = upstream_config(dir, up);
    config.upstream.client_type = ClientType::confidential;
    config.upstream.client_secret = kSecret;
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto client = helper.client();

    auto token = client->Post("/oauth/token", helper.app_headers(), code_form(), "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 200);
    EXPECT_EQ(up.last_authorization, "Basic " + base64_encode(std::string("web-client:") + kSecret))
        << "spec 4.3: Basic with client ID and secret";

    auto config_json = client->Get("/config.json");
    ASSERT_TRUE(config_json) << why_no_answer(config_json);
    EXPECT_EQ(config_json->body.find(kSecret), std::string::npos) << "the secret never reaches the page";
    const std::string log = helper.wait_for_log("GET /config.json");
    EXPECT_EQ(log.find(kSecret), std::string::npos) << log;
    EXPECT_EQ(log.find(base64_encode(std::string("web-client:") + kSecret)), std::string::npos);
}

TEST(HelperUpstream, UpstreamWithAForeignCertificateIsRefused) {
    TempDir dir;
    auto foreign = native::ensure_tls_material(dir / "foreign");  // another CA, not trusted by the helper
    ASSERT_TRUE(foreign) << foreign.error().detail;
    FakeUpstream up(foreign->server_cert_path, foreign->server_key_path);
    RunningHelper helper(upstream_config(dir, up));
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto client = helper.client();

    auto token = client->Post("/oauth/token", helper.app_headers(), code_form(), "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 502) << "upstream TLS must be verified";
    EXPECT_NE(token->body.find("tls_failed"), std::string::npos) << token->body;
    EXPECT_EQ(up.token_calls.load(), 0) << "no request may reach an unverified upstream";
}

// A trusted CA is not enough: the certificate must name the address or host
// the helper connects to. The local CA's server certificate names 127.0.0.1,
// ::1 and localhost, so the same certificate served from 127.0.0.2 (loopback
// on Linux) is refused before a byte of the request is sent.
TEST(HelperUpstream, UpstreamWhoseCertificateNamesAnotherAddressIsRefused) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    testing::StubUpstream up(tls->server_cert_path, tls->server_key_path, {}, "127.0.0.2");
    ASSERT_TRUE(up.ok()) << "cannot listen on 127.0.0.2";
    HelperConfig config = testing::test_config(dir);
    testing::use_upstream(config, up);
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();

    auto res = helper.client()->Get("/api/me", helper.app_headers());
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 502) << res->body;
    EXPECT_NE(res->body.find("tls_failed"), std::string::npos) << res->body;
    EXPECT_TRUE(up.targets().empty()) << "no request may reach an upstream whose certificate names another host";
}

// The same for a host name: a certificate from the trusted CA for
// elsewhere.example does not serve localhost (nor 127.0.0.1).
TEST(HelperUpstream, UpstreamWhoseCertificateNamesAnotherHostIsRefused) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    ASSERT_TRUE(issue_server_certificate(tls->ca_cert_path, tls->ca_key_path, "DNS:elsewhere.example",
                                         dir / "elsewhere-cert.pem", dir / "elsewhere-key.pem"))
        << "could not issue a certificate for elsewhere.example";
    testing::StubUpstream up(dir / "elsewhere-cert.pem", dir / "elsewhere-key.pem");
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    const std::string port = up.origin().substr(up.origin().rfind(':') + 1);
    for (const std::string host : {"localhost", "127.0.0.1"}) {
        HelperConfig config = testing::test_config(dir);
        testing::use_upstream_origin(config, "https://" + host + ":" + port);
        RunningHelper helper(config);
        ASSERT_TRUE(helper.ok()) << helper.error();
        auto res = helper.client()->Get("/api/me", helper.app_headers());
        ASSERT_TRUE(res) << host;
        EXPECT_EQ(res->status, 502) << host << ": " << res->body;
        EXPECT_NE(res->body.find("tls_failed"), std::string::npos) << host << ": " << res->body;
    }
    EXPECT_TRUE(up.targets().empty()) << "no request may reach an upstream whose certificate names another host";
}

// The names the certificate does carry are accepted: an IP address (IPv4,
// IPv6) is matched against its IP entries, a host name against its DNS ones.
// (httplib's own check, 0.11.4 and still 0.18.7, reads past the 4-byte IPv4
// entry when it compares an IPv6 address: the helper leaves that check to
// OpenSSL.)
TEST(HelperUpstream, UpstreamIsVerifiedAgainstTheAddressOrNameItIsReachedBy) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    testing::StubUpstream v4(tls->server_cert_path, tls->server_key_path);
    testing::StubUpstream v6(tls->server_cert_path, tls->server_key_path, {}, "::1");
    ASSERT_TRUE(v4.ok()) << "the stub upstream could not listen on a loopback port";
    const std::string by_name = "https://localhost:" + v4.origin().substr(v4.origin().rfind(':') + 1);
    std::vector<std::string> origins = {v4.origin(), by_name};
    if (v6.ok()) origins.push_back(v6.origin());  // a machine without IPv6 loopback skips this one
    for (const std::string& origin : origins) {
        HelperConfig config = testing::test_config(dir);
        testing::use_upstream_origin(config, origin);
        RunningHelper helper(config);
        ASSERT_TRUE(helper.ok()) << helper.error();
        auto res = helper.client()->Get("/api/me", helper.app_headers());
        ASSERT_TRUE(res) << origin;
        EXPECT_EQ(res->status, 200) << origin << ": " << res->body;
    }
    if (v6.ok()) {
        EXPECT_EQ(v6.targets(), std::vector<std::string>{"GET /v2/me"});
    }
}

TEST(HelperUpstream, ExtraUpstreamCaMakesAForeignCertificateTrusted) {
    TempDir dir;
    auto foreign = native::ensure_tls_material(dir / "foreign");
    ASSERT_TRUE(foreign) << foreign.error().detail;
    FakeUpstream up(foreign->server_cert_path, foreign->server_key_path);
    HelperConfig config = upstream_config(dir, up);
    config.upstream.extra_ca_files.push_back(foreign->ca_cert_path);
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto token =
        helper.client()->Post("/oauth/token", helper.app_headers(), code_form(), "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 200) << token->body;
}

TEST(HelperUpstream, UnreachableUpstreamIs502) {
    TempDir dir;
    HelperConfig config = testing::test_config(dir);
    const int port = integration::free_port();  // nobody listens there
    ASSERT_NE(port, 0);
    config.upstream.base_url = "https://127.0.0.1:" + std::to_string(port) + "/v2";
    config.upstream.auth_url = "https://127.0.0.1:" + std::to_string(port) + "/oauth";
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto res = helper.client()->Get("/api/me", helper.app_headers());
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 502);
    EXPECT_NE(res->body.find("connect_failed"), std::string::npos) << res->body;
}

TEST(HelperUpstream, MissingUpstreamCaFileIsAStartError) {
    TempDir dir;
    HelperConfig config = testing::test_config(dir);
    config.upstream.extra_ca_files.push_back(dir / "missing-ca.pem");
    auto started = HelperServer::start(config, nullptr);
    ASSERT_FALSE(started) << "the helper started with a missing upstream CA file";
    EXPECT_EQ(started.error().code, StartError::upstream_invalid);
    EXPECT_NE(started.error().message.find("missing-ca.pem"), std::string::npos);
}

}  // namespace
}  // namespace roomkey::helper
