// bff_fixture.hpp: what the BFF-mode integration tests (bff_*_test.cpp)
// share: the sandbox (test controls on) with a confidential client whose
// redirect URIs name the helpers' ports, roomkey-helpers in `--session bff`
// on those ports (one state dir = one key, unless a test gives another), a
// browser's cookie jar, the whole sign-in through /bff/login, the consent
// screen and the callback, and the sandbox's issued token values.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <ctime>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "roomkey/bff_cookie.hpp"
#include "roomkey/url.hpp"
#include "support/free_port.hpp"
#include "support/helper_fixture.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper::bff_testing {

inline const std::string kBffClientId = "roomkey-bff-test";
inline const std::string kBffClientSecret = "roomkey-bff-test-secret-0123456789abcdef";
inline const std::string kBffScope = "users.all:read rooms.all:read_write";

// A browser's cookies for the helper's origin: Set-Cookie lines applied in
// order (Max-Age=0 removes), sent back as one Cookie header.
struct CookieJar {
    std::map<std::string, std::string> cookies;

    void take(const httplib::Response& res) {
        auto range = res.headers.equal_range("Set-Cookie");
        for (auto it = range.first; it != range.second; ++it) {
            const std::string& line = it->second;
            const std::string pair = line.substr(0, line.find(';'));
            const auto eq = pair.find('=');
            if (eq == std::string::npos) continue;
            const std::string name = pair.substr(0, eq);
            if (line.find("Max-Age=0") != std::string::npos) {
                cookies.erase(name);
            } else {
                cookies[name] = pair.substr(eq + 1);
            }
        }
    }
    std::string header() const {
        std::string out;
        for (const auto& [name, value] : cookies) out += (out.empty() ? "" : "; ") + name + "=" + value;
        return out;
    }
    std::string session() const {
        auto it = cookies.find(std::string(kBffSessionCookie));
        return it == cookies.end() ? std::string() : it->second;
    }
};

inline std::vector<std::string> set_cookies(const httplib::Response& res) {
    std::vector<std::string> out;
    auto range = res.headers.equal_range("Set-Cookie");
    for (auto it = range.first; it != range.second; ++it) out.push_back(it->second);
    return out;
}

// The session cookie's Max-Age in an answer's Set-Cookie lines; nullopt
// when the answer sets no session cookie.
inline std::optional<long long> session_max_age(const httplib::Response& res) {
    const std::string prefix = std::string(kBffSessionCookie) + "=";
    for (const std::string& line : set_cookies(res)) {
        if (line.rfind(prefix, 0) != 0) continue;
        const auto at = line.find("Max-Age=");
        if (at == std::string::npos) return std::nullopt;
        return std::stoll(line.substr(at + 8));
    }
    return std::nullopt;
}

inline nlohmann::json parse_json(const std::string& text) { return nlohmann::json::parse(text, nullptr, false); }

// Where the browser talks to: a helper, or the nginx front before several.
struct Door {
    Door(testing::RunningHelper& helper) : port(helper.port()), ca(helper.server().tls()->ca_cert_path) {}  // NOLINT
    Door(int p, std::string ca_path) : port(p), ca(std::move(ca_path)) {}
    int port;
    std::string ca;
    std::string origin() const { return "https://127.0.0.1:" + std::to_string(port); }
    std::unique_ptr<httplib::SSLClient> client() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", port);
        integration::trust_only(*c, "127.0.0.1", ca);
        c->set_tcp_nodelay(true);
        c->set_read_timeout(10, 0);
        c->set_url_encode(false);
        return c;
    }
};

class BffTest : public sandbox::testing::SandboxTest {
protected:
    // The sandbox with the BFF client registered for `helpers` ports (the
    // helpers are started by start_helper, on those ports).
    void SetUp() override { start_sandbox(2); }

    void start_sandbox(int helpers) {
        ports_.clear();
        for (int i = 0; i < helpers; ++i) ports_.push_back(integration::free_port());
        sandbox::SandboxOptions options = sandbox::testing::test_options();
        sandbox::ClientSpec bff;
        bff.client_id = kBffClientId;
        bff.client_secret = kBffClientSecret;
        bff.registration.name = "roomkey BFF test";
        bff.registration.type = roomkey::ClientType::confidential;
        for (int port : ports_) bff.registration.redirect_uris.push_back(redirect_uri(port));
        bff.registration.scopes = {"users.all:read", "rooms.all:read_write", "offline_access"};
        options.clients.push_back(bff);
        start(options);
    }

    static std::string redirect_uri(int port) { return "https://127.0.0.1:" + std::to_string(port) + "/callback"; }

    // A BFF helper on ports_[index] with `state_dir` (the key's home); the
    // helper's clock is the system clock plus clock_offset_.
    HelperConfig bff_config(std::size_t index, const std::string& state_dir) {
        HelperConfig c = testing::test_config(dir_);
        c.port = ports_.at(index);
        c.state_dir = state_dir;
        c.session = SessionMode::bff;
        c.upstream.base_url = sandbox().base_url();
        c.upstream.auth_url = sandbox().auth_url();
        c.upstream.consent_url = sandbox().consent_url();
        c.upstream.client_id = kBffClientId;
        c.upstream.client_type = ClientType::confidential;
        c.upstream.client_secret = kBffClientSecret;
        c.upstream.scope = kBffScope;
        c.upstream.extra_ca_files = {sandbox().ca_cert_path()};
        c.clock = [offset = &clock_offset_] { return std::time(nullptr) + offset->load(); };
        return c;
    }
    std::unique_ptr<testing::RunningHelper> start_helper(std::size_t index, const std::string& state_dir) {
        auto helper = std::make_unique<testing::RunningHelper>(bff_config(index, state_dir));
        EXPECT_TRUE(helper->ok()) << helper->error();
        return helper;
    }
    std::string state_dir() const { return dir_ / "state"; }

    // --- the browser's requests to a helper ---
    static httplib::Result navigate(const Door& door, const CookieJar& jar, const std::string& target) {
        httplib::Headers h{{"Sec-Fetch-Site", "same-origin"}, {"Sec-Fetch-Mode", "navigate"}};
        if (!jar.cookies.empty()) h.emplace("Cookie", jar.header());
        return door.client()->Get(target.c_str(), h);
    }
    // A fetch() from the app page: same origin, the custom header, the cookies.
    static httplib::Headers app_fetch(const Door& door, const CookieJar& jar) {
        httplib::Headers h{{"X-Roomkey-Request", "1"}, {"Origin", door.origin()}, {"Sec-Fetch-Site", "same-origin"}};
        if (!jar.cookies.empty()) h.emplace("Cookie", jar.header());
        return h;
    }
    static httplib::Result api_get(const Door& door, CookieJar& jar, const std::string& path) {
        auto res = door.client()->Get(("/api" + path).c_str(), app_fetch(door, jar));
        if (res) jar.take(*res);
        return res;
    }
    static httplib::Result bff_get(const Door& door, CookieJar& jar, const std::string& path) {
        auto res = door.client()->Get(path.c_str(), app_fetch(door, jar));
        if (res) jar.take(*res);
        return res;
    }
    static httplib::Result bff_post(const Door& door, CookieJar& jar, const std::string& path,
                                    const std::string& body = "") {
        auto res = door.client()->Post(path.c_str(), app_fetch(door, jar), body, "application/json");
        if (res) jar.take(*res);
        return res;
    }

    // What a sign-in showed, for the tests that search it: the helper's
    // answers (/bff/login's, then the callback's) and the code the consent
    // screen sent back.
    struct SignInSeen {
        std::vector<httplib::Response> answers;
        std::string code;
    };

    // /bff/login -> consent screen (login + `decision`) -> the callback on
    // `helper`. Returns the callback's answer (303 to "/" on success).
    httplib::Result sign_in(const Door& door, CookieJar& jar, const std::string& scope = "",
                            const std::string& decision = "allow", SignInSeen* seen = nullptr) {
        auto login = navigate(door, jar, "/bff/login" + (scope.empty() ? "" : "?scope=" + percent_encode(scope)));
        EXPECT_TRUE(login) << why_no_answer(login);
        if (!login) return login;
        if (seen) seen->answers.push_back(*login);
        EXPECT_EQ(login->status, 303) << login->body;
        if (login->status != 303) return login;
        jar.take(*login);
        const std::string consent = login->get_header_value("Location");
        EXPECT_EQ(consent.rfind(sandbox().consent_url() + "?", 0), 0u) << consent;
        Browser at_sandbox;
        auto page = open_consent(at_sandbox, location_query_of(consent));
        EXPECT_TRUE(page) << why_no_answer(page);
        if (!page) return page;
        EXPECT_EQ(page->status, 200) << page->body;
        auto decided = decide(at_sandbox, page->body, decision);
        EXPECT_TRUE(decided) << why_no_answer(decided);
        if (!decided) return decided;
        EXPECT_EQ(decided->status, 303);
        const std::string back = decided->get_header_value("Location");
        const std::string prefix = door.origin();
        EXPECT_EQ(back.rfind(prefix + "/callback?", 0), 0u) << back;
        if (seen) seen->code = form_get(location_query_of(back), "code").value_or("");
        auto callback = navigate(door, jar, back.substr(prefix.size()));
        if (callback) jar.take(*callback);
        if (callback && seen) seen->answers.push_back(*callback);
        return callback;
    }

    // Where most tests start: helper 0 on the shared state dir (helper_) and
    // a browser signed in to it with the default scope (jar_). Call it
    // under ASSERT_NO_FATAL_FAILURE.
    void start_signed_in() {
        helper_ = start_helper(0, state_dir());
        ASSERT_TRUE(helper_->ok()) << helper_->error();
        auto done = sign_in(*helper_, jar_);
        ASSERT_TRUE(done) << why_no_answer(done);
        ASSERT_EQ(done->status, 303) << done->get_header_value("Location");
        ASSERT_FALSE(jar_.session().empty()) << done->get_header_value("Location");
    }

    // The helper's clock 10 s before the 30-minute access token expires:
    // the next API call refreshes first (the service's clock is untouched).
    void make_refresh_due() { clock_offset_ = 1790; }

    // Time passes for the helper and the service alike (days, in the tests
    // of the grant's 14 days).
    void advance_both_clocks(std::time_t seconds) {
        clock_offset_ += seconds;
        advance_clock(seconds);
    }

    // Every token value the sandbox has issued (GET /_sandbox/tokens).
    std::vector<std::string> issued_tokens() {
        auto res = get("/_sandbox/tokens", {{"X-Roomkey-Sandbox-Control", "1"}});
        EXPECT_TRUE(res) << why_no_answer(res);
        std::vector<std::string> out;
        if (!res) return out;
        const auto j = parse_json(res->body);
        for (const char* kind : {"access_tokens", "refresh_tokens"}) {
            if (!j.contains(kind)) continue;
            for (const auto& t : j[kind]) out.push_back(t.get<std::string>());
        }
        return out;
    }
    std::size_t refresh_tokens_issued() {
        auto res = get("/_sandbox/tokens", {{"X-Roomkey-Sandbox-Control", "1"}});
        if (!res) return 0;
        return parse_json(res->body)["refresh_tokens"].size();
    }

    // The helpers stop before the sandbox does.
    void TearDown() override {
        helper_.reset();
        sandbox::testing::SandboxTest::TearDown();
    }

    integration::TempDir dir_;
    std::vector<int> ports_;
    std::atomic<std::time_t> clock_offset_{0};
    std::unique_ptr<testing::RunningHelper> helper_;  // start_signed_in's
    CookieJar jar_;                                   // start_signed_in's
};

}  // namespace roomkey::helper::bff_testing
