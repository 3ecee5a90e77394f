// The sign-in feature on its own (web/app/sign_in.hpp), driven through a
// host that records what it is asked: what a user relies on when the
// consent screen sends the browser back. An answer that belongs to another
// sign-in (its state differs, or no sign-in waits for it) is refused and
// no code is exchanged (spec 4.2, CSRF); the answer this tab waited for
// exchanges its code once the configuration is here, with the PKCE verifier
// of the pending record, and both secrets are masked in the HTTP log; a
// code older than a minute (spec 2.2) is not sent.
#include "app/sign_in.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recording_sign_in_host.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/launch_url.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together.
namespace app_sign_in_feature_test {
namespace {

constexpr std::string_view kVerifier = "v3r1f13r-0123456789-abcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kRedirect = "https://127.0.0.1:8443/callback";

struct Host : test_support::RecordingSignInHost<SignInHost> {
    // The code exchanges the sign-in asked the REST client to send.
    std::vector<HttpRequest> exchanges() const {
        std::vector<HttpRequest> out;
        for (const RestStep& step : performed) {
            for (const SessionEffect& effect : step.session_effects) {
                if (const auto* send = std::get_if<session_effect::SendCodeExchange>(&effect)) {
                    out.push_back(send->request);
                }
            }
        }
        return out;
    }
    bool has_secret(std::string_view secret) const {
        return std::find(secrets.begin(), secrets.end(), secret) != secrets.end();
    }
};

struct Fixture {
    Host host;
    RestClient client{SessionConfig{}};
    RandomSource random = [](unsigned char* out, std::size_t size) {
        for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<unsigned char>(i * 7 + 1);
    };
    SignIn sign_in{host, client, random};
    Instant t0 = instant_from_unix_seconds(1'800'000'000);

    // The record sessionStorage kept for the sign-in this tab started.
    static std::string pending_record(std::string state, Instant at) {
        PendingAuthorization pending;
        pending.state = std::move(state);
        pending.code_verifier = std::string(kVerifier);
        pending.redirect_uri_sent = std::string(kRedirect);
        pending.client_id = "roomkey-web";
        pending.scopes = {"users.all:read", "rooms.all:read_write"};
        pending.created_at = at;
        return serialize(pending);
    }
    void arrive(const std::string& url, const std::optional<std::string>& record, Instant at) {
        sign_in.on_launch(url, read_launch_url(url), record, at);
    }
    void config_arrives(Instant at) {
        PublicConfig config;
        config.configured = true;
        config.client_id = "roomkey-web";
        config.token_endpoint = "/oauth/token";
        host.loaded = config;
        sign_in.after_config("", at);
    }
};

const std::string kAnswer = std::string(kRedirect) + "?code=c0de-4711&state=st-42";

TEST(SignInFeature, TheAnswerThisTabWaitedForExchangesItsCodeWithTheVerifier) {
    Fixture f;
    f.arrive(kAnswer, Fixture::pending_record("st-42", f.t0), f.t0);
    EXPECT_FALSE(f.host.error) << f.host.error->title;
    EXPECT_TRUE(f.sign_in.exchanging()) << "the code waits for the configuration (the token route)";
    EXPECT_TRUE(f.host.has_secret(kVerifier)) << "the verifier is masked in the HTTP log";
    EXPECT_TRUE(f.host.has_secret("c0de-4711")) << "so is the code";
    EXPECT_TRUE(f.host.exchanges().empty()) << "nothing is sent before the configuration is here";

    f.config_arrives(f.t0 + Seconds(2));
    const std::vector<HttpRequest> sent = f.host.exchanges();
    ASSERT_EQ(sent.size(), 1u) << "one code exchange";
    EXPECT_EQ(sent[0].url, "/oauth/token");
    EXPECT_NE(sent[0].body.find("code=c0de-4711"), std::string::npos) << sent[0].body;
    EXPECT_NE(sent[0].body.find("code_verifier=" + std::string(kVerifier)), std::string::npos)
        << "PKCE: the verifier of the pending record goes with the code: " << sent[0].body;
    EXPECT_FALSE(f.sign_in.exchanging());
    EXPECT_FALSE(f.host.error);
}

TEST(SignInFeature, AnAnswerWhoseStateDiffersIsRefusedAndNoCodeIsExchanged) {
    Fixture f;
    f.arrive(kAnswer, Fixture::pending_record("st-other", f.t0), f.t0);
    ASSERT_TRUE(f.host.error) << "a forged or stale answer is told to the user";
    EXPECT_FALSE(f.sign_in.exchanging());
    f.config_arrives(f.t0 + Seconds(1));
    EXPECT_TRUE(f.host.exchanges().empty()) << "the code of another sign-in is never sent";
}

TEST(SignInFeature, AnAnswerNoSignInWaitedForIsRefused) {
    Fixture f;
    f.arrive(kAnswer, std::nullopt, f.t0);  // used already, or started in another tab
    ASSERT_TRUE(f.host.error) << "an answer no sign-in waited for was taken without an error";
    EXPECT_FALSE(f.sign_in.exchanging());
    f.config_arrives(f.t0 + Seconds(1));
    EXPECT_TRUE(f.host.exchanges().empty());
}

TEST(SignInFeature, ACodeOlderThanAMinuteIsNotSent) {
    Fixture f;
    f.arrive(kAnswer, Fixture::pending_record("st-42", f.t0), f.t0);
    ASSERT_FALSE(f.host.error);
    f.config_arrives(f.t0 + Seconds(61));  // the configuration came late (spec 2.2: a code lives 1 minute)
    EXPECT_TRUE(f.host.exchanges().empty());
    ASSERT_TRUE(f.host.error) << "the user is told the code expired and signs in again";
    EXPECT_FALSE(f.sign_in.exchanging());
}

TEST(SignInFeature, WithoutTheHelpersConfigurationTheSignInDoesNotStart) {
    Fixture f;
    f.host.load_error = "no answer";
    EXPECT_FALSE(f.sign_in.may_start());
    ASSERT_TRUE(f.host.error) << "the user is told why";
    f.host.error.reset();
    PublicConfig config;
    config.configured = false;  // the helper has no upstream service
    f.host.loaded = config;
    EXPECT_FALSE(f.sign_in.may_start());
    EXPECT_TRUE(f.host.error);
    f.host.loaded->configured = true;
    EXPECT_TRUE(f.sign_in.may_start());
}

}  // namespace
}  // namespace app_sign_in_feature_test
}  // namespace roomkey::app
