// session_control.hpp: the session's owner: which sign-in starts (the
// page's own, sign_in.hpp, or the helper's, bff_panel.hpp), the session's
// intents, the sign-out (everything the session had goes), the answers to
// token and BFF requests, and the session's part of the REST client's steps
// (RequestsHost). What it asks of the rest of the app is what SignIn and
// BffPanel ask (BffHost): it answers them from the App's parts it is given.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/bff_panel.hpp"
#include "app/config_load.hpp"
#include "app/features.hpp"
#include "app/feedback.hpp"
#include "app/intents.hpp"
#include "app/requests.hpp"
#include "app/session_shown.hpp"
#include "app/sign_in.hpp"
#include "app/trace.hpp"
#include "app/wire.hpp"

namespace roomkey::app {

// The App's parts the session reads and writes.
struct SessionParts {
    const ConfigLoad& config;
    Wire& wire;
    Trace& trace;
    Feedback& feedback;
    Requests& requests;
    Features& features;
    std::vector<Effect>& effects;
};

class SessionControl final : private BffHost, public RequestsHost {
public:
    SessionControl(SessionParts parts, const RandomSource& random)
        : p_(parts), sign_in_(*this, parts.requests.client(), random), bff_(*this, parts.requests.client(), sign_in_) {}

    const SignIn& sign_in() const { return sign_in_; }
    const BffPanel& bff() const { return bff_; }
    SessionShown shown() const { return SessionShown(p_.requests.client(), sign_in_, bff_); }
    // An OAuth grant is in use, held by the page or by the helper.
    bool oauth_grant() const;

    // ---- the page loaded, the configuration came (or not: `reason`) ----
    void start(std::string_view launch_url, const std::optional<std::string>& pending_record, Instant now);
    void on_config(bool read, const std::string& reason, Instant now);

    // ---- the session's intents ----
    void apply(const intent::SignIn& i, Instant now) { start_sign_in(i.scopes, now); }
    void apply(const intent::SignOut& i, Instant now);
    void apply(const intent::CancelSignOut&, Instant) { p_.feedback.cancel_sign_out(); }
    // The configuration, when it is missing, is the App's to ask again.
    void apply(const intent::TryAgain& i, Instant now);
    void apply(const intent::RefreshNow&, Instant now);
    void apply(const intent::RefreshScopes& i, Instant now);
    void apply(const intent::SetAutoRefresh& i, Instant now) { sign_in_.set_auto_refresh(i.on, now); }
    void apply(const intent::UseApiToken& i, Instant now) { sign_in_.use_api_token(i.token, now); }
    void apply(const intent::AddScopes& i, Instant now);
    // The page came back from the back/forward cache: a sign-in at the
    // consent screen is abandoned; in BFF mode the helper's login cookie expires.
    void apply(const intent::PageRestored&, Instant now) {
        if (!bff_.page_restored()) sign_in_.page_restored(now);
    }

    // ---- answers and time ----
    void on_answer(const purpose::TokenCall& p, const std::optional<HttpResponse>& response, const std::string& reason,
                   Instant now) {
        sign_in_.on_token_answer(p.id, response, reason, now);
    }
    void on_answer(const purpose::BffCall& p, const std::optional<HttpResponse>& response, const std::string& reason,
                   Instant now) {
        bff_.on_answer(p.route, response, reason, now);
    }
    // Any answer through the helper: a token request it made meanwhile.
    void note_response(const HttpResponse& response, Instant now) { bff_.note_response(response, now); }
    void tick(Instant now) { sign_in_.tick(now); }
    std::optional<Instant> wake_at() const { return sign_in_.wake_at(); }

    // ---- RequestsHost ----
    void session_step(RestStep& step, Instant now) override;
    bool session_ended(const HttpResponse& response, Instant now) override;
    void offer_scope(std::string scope) override { p_.features.console.offer_scope(std::move(scope)); }
    std::optional<ScopeSet> granted_scopes() const override;

private:
    void start_sign_in(const ScopeSet& scopes, Instant now);
    void sign_out(Instant now);
    void send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now);
    RedactionRules redaction() const { return p_.trace.redaction(p_.config.token_header()); }

    // ---- SignInHost and BffHost ----
    const std::optional<PublicConfig>& config() const override { return p_.config.value(); }
    const std::string& config_error() const override { return p_.config.error(); }
    ApiConfig api_config() const override { return p_.config.api_config(); }
    void perform(RestStep step, Instant now) override { p_.requests.perform(std::move(step), now); }
    void notice(std::string text) override { p_.feedback.set_notice(std::move(text)); }
    void notice_words(Words words) override { p_.feedback.set_notice(std::move(words)); }
    void reset_error() override { p_.feedback.reset_error(); }
    void set_error(UserError error, ErrorSource source) override { p_.feedback.set_error(std::move(error), source); }
    void forget_pending() override { p_.effects.push_back(effect::ForgetPending{}); }
    void end_session(Instant now) override { sign_out(now); }
    void signed_in(Instant now) override { p_.features.dashboard.load(now); }
    void token_refreshed() override { ++p_.requests.stats().counters.token_refreshes; }
    void log_flow_step(FlowStep step, Instant at) override {
        p_.trace.log().add_step(p_.wire.log_id(), std::move(step.purpose), step.request, std::move(step.note), at,
                                std::move(step.parameters));
    }
    void add_secret(const std::string& secret) override { p_.trace.add_secret(secret); }
    // The session ended: its unsent messages wait for the same account (waiting_posts.hpp).
    void reset_account_data() override {
        p_.features.posting.keep_open_posts();
        p_.features.clear_account();
    }
    void send_bff(BffRoute route, std::string label, HttpRequest request, Instant now) override {
        send(purpose::BffCall{route}, std::move(label), std::move(request), now);
    }
    void navigate(std::string url) override { p_.effects.push_back(effect::Navigate{std::move(url)}); }
    void drop_calls(const std::string& reason, Instant) override {
        p_.requests.drop_all();
        p_.features.drop_all(reason);
    }

    SessionParts p_;
    SignIn sign_in_;
    BffPanel bff_;
};

}  // namespace roomkey::app
