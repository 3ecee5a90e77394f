// recording_sign_in_host.hpp: a SignInHost (or a host built on it, such as
// BffHost) that records what the feature under test asks of it, for the
// unit tests that drive the sign-in and the BFF panel on their own.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/sign_in.hpp"

namespace roomkey::app::test_support {

template <class Base>
struct RecordingSignInHost : Base {
    virtual ~RecordingSignInHost() = default;
    std::optional<PublicConfig> loaded;
    std::string load_error;
    std::vector<RestStep> performed;
    std::optional<UserError> error;
    std::vector<std::string> secrets;
    int signed_in_count = 0;

    const std::optional<PublicConfig>& config() const override { return loaded; }
    const std::string& config_error() const override { return load_error; }
    ApiConfig api_config() const override { return {}; }
    void perform(RestStep step, Instant) override { performed.push_back(std::move(step)); }
    void set_error(UserError e, ErrorSource) override { error = std::move(e); }
    void notice(std::string) override {}
    void reset_error() override { error.reset(); }
    void log_flow_step(FlowStep, Instant) override {}
    void add_secret(const std::string& secret) override { secrets.push_back(secret); }
    void forget_pending() override {}
    void end_session(Instant) override {}
    void signed_in(Instant) override { ++signed_in_count; }
    void token_refreshed() override {}
    void reset_account_data() override {}
};

}  // namespace roomkey::app::test_support
