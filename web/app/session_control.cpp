// session_control.cpp: see session_control.hpp. The sign-in itself is
// sign_in.cpp's, the BFF mode's bff_panel.cpp's, the session as shown
// session_shown.cpp's.
#include "app/session_control.hpp"

#include "roomkey/launch_url.hpp"

namespace roomkey::app {

bool SessionControl::oauth_grant() const {
    const CredentialHolder holder = p_.requests.client().holder();
    return holder == CredentialHolder::page_session || holder == CredentialHolder::helper;
}

std::optional<ScopeSet> SessionControl::granted_scopes() const {
    if (!oauth_grant()) return std::nullopt;
    const ScopeSet* scopes = shown().granted_scopes();
    return scopes ? *scopes : ScopeSet{};
}

void SessionControl::start(std::string_view launch_url, const std::optional<std::string>& pending_record,
                           Instant now) {
    const LaunchUrl launch = read_launch_url(launch_url);
    bff_.on_launch(launch);  // a #bff_error is shown with the config
    sign_in_.on_launch(launch_url, launch, pending_record, now);
}

void SessionControl::on_config(bool read, const std::string& reason, Instant now) {
    if (read) {
        bff_.on_config(now);      // the BFF mode asks the helper for its session
        sign_in_.on_config(now);  // the flow's earlier steps, told in the log
    }
    sign_in_.after_config(reason, now);
}

void SessionControl::apply(const intent::SignOut& i, Instant now) {
    const long open = p_.features.posting.open_posts();
    if (!p_.feedback.sign_out_may_go(open, i.discard_posts)) return;
    if (i.discard_posts) p_.features.posting.discard_open();
    sign_out(now);
    p_.feedback.set_notice(open > 0 ? Words::counted("notice.signed_out_discarded", open) : Words("notice.signed_out"));
}

void SessionControl::apply(const intent::TryAgain& i, Instant now) {
    const auto& error = p_.feedback.error();
    const bool retry = i.sign_in && error && error->offers_try_again;
    p_.feedback.clear();
    sign_in_.try_again();
    // Signed out, the thing to try again is the sign-in: it starts anew.
    if (retry && !p_.requests.client().can_send() && config() && config()->configured)
        start_sign_in(config()->default_scopes, now);
}

// In BFF mode the helper refreshes (POST /bff/refresh {"scope": ...}).
void SessionControl::apply(const intent::RefreshNow&, Instant now) {
    p_.requests.client().holder() == CredentialHolder::helper ? bff_.refresh(std::nullopt, now)
                                                              : sign_in_.refresh_now(now);
}

void SessionControl::apply(const intent::RefreshScopes& i, Instant now) {
    p_.requests.client().holder() == CredentialHolder::helper ? bff_.refresh(i.scopes, now)
                                                              : sign_in_.refresh_with_scopes(i.scopes, now);
}

void SessionControl::apply(const intent::AddScopes& i, Instant now) {
    if (auto scopes = sign_in_.adding(i.scope, shown().granted_scopes())) start_sign_in(*scopes, now);
}

void SessionControl::send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now) {
    p_.wire.send(std::move(purpose), std::move(label), std::move(request), p_.config.request_header(), now);
}

void SessionControl::start_sign_in(const ScopeSet& scopes, Instant now) {
    if (!sign_in_.may_start()) return;
    // In BFF mode the helper makes state and PKCE; a session it holds is
    // replaced by the new one when the callback comes (incremental consent).
    if (p_.config.bff())
        bff_.sign_in(scopes, now);
    else
        sign_in_.start(scopes, now);
}

void SessionControl::sign_out(Instant now) {
    p_.features.posting.keep_open_posts();  // unless the user discarded them: they wait for this account
    bff_.sign_out(now);  // the helper forgets the tokens (POST /bff/logout)
    perform(p_.requests.client().sign_out(), now);
    drop_calls(tr("posting.dropped_signed_out"), now);
    // The log keeps its entries, but rewritten masked: the secrets of this
    // session exist nowhere any more.
    const bool copied = p_.trace.forget_session(redaction());
    sign_in_.forget();
    reset_account_data();
    p_.feedback.clear();
    // Everything else that belonged to the session: the reveal switch, what
    // was copied, the posts (their texts) and the session's counters. The
    // pacing scheduler and its samples stay: the service still counts those
    // sends in its windows, whoever signs in next (spec 8.1, 8.2).
    p_.effects.push_back(effect::ForgetClipboard{copied});
    p_.features.posting.clear();
    p_.requests.stats().counters = Counters{};
}

// What a step says about the session: token requests with their log
// labels, the refresh time, the pending record, tokens forgotten.
void SessionControl::session_step(RestStep& step, Instant now) {
    // The table has no row for this: a bug in this adapter, shown, not hidden.
    if (step.refused_event) p_.feedback.set_notice(Words("notice.internal", "what", describe(*step.refused_event)));
    if (step.keep_pending) p_.effects.push_back(effect::StorePending{std::move(*step.keep_pending)});
    for (const SessionEffect& effect : step.session_effects) {
        if (const auto* go = std::get_if<session_effect::NavigateToConsent>(&effect)) {
            navigate(go->url);
        } else if (const auto* exchange = std::get_if<session_effect::SendCodeExchange>(&effect)) {
            send(purpose::TokenCall{exchange->id}, tr("log.purpose.code_exchange"), exchange->request, now);
        } else if (const auto* refresh = std::get_if<session_effect::SendRefresh>(&effect)) {
            send(purpose::TokenCall{refresh->id}, tr("log.purpose.token_refresh"), refresh->request, now);
        } else if (const auto* at = std::get_if<session_effect::ScheduleRefreshAt>(&effect)) {
            sign_in_.schedule_refresh(at->at);
        } else if (std::holds_alternative<session_effect::ForgetTokens>(effect)) {
            p_.trace.log().forget_secrets(redaction());
        }
    }
}

// The helper refreshed and retried already; a 401 it marks as "no session"
// means signed out (expired, refused refresh, logged out).
bool SessionControl::session_ended(const HttpResponse& response, Instant now) {
    auto ended = p_.requests.client().holder() == CredentialHolder::helper ? bff_session_ended(response)
                                                                            : std::nullopt;
    if (ended) bff_.ended(*ended, now);
    return ended.has_value();
}

}  // namespace roomkey::app
