// sign_in.cpp: the page's own sign-in, the API token and the scope refresh,
// through the REST client's session table (sign_in.hpp).
#include "app/sign_in.hpp"

#include <algorithm>

#include "app/app_detail.hpp"
#include "app/http_log.hpp"
#include "app/i18n.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/incremental_consent.hpp"
#include "roomkey/pkce.hpp"

namespace roomkey::app {

std::string service_name(std::string_view base_url) {
    if (const auto scheme = base_url.find("://"); scheme != std::string_view::npos) base_url.remove_prefix(scheme + 3);
    const std::string_view host = base_url.substr(0, base_url.find('/'));
    const std::string_view bare = host.substr(0, host.find(':'));
    const bool numeric = bare.find_first_not_of("0123456789.") == std::string_view::npos;
    const auto last = bare.rfind('.');
    if (numeric || last == std::string_view::npos || last == 0) return std::string(host);
    const auto before = bare.rfind('.', last - 1);
    const std::size_t from = before == std::string_view::npos ? 0 : before + 1;
    std::string name(bare.substr(from, last - from));
    if (!name.empty() && name[0] >= 'a' && name[0] <= 'z') name[0] = static_cast<char>(name[0] - 'a' + 'A');
    return name;
}

using namespace detail;

std::string SignIn::masked_api_token() const {
    if (api_token_.empty()) return {};
    return std::string(kMask) + tr("sign_in.token_characters", {{"n", std::to_string(api_token_.size())}});
}

SessionConfig SignIn::session_config(const std::string& client_id) const {
    SessionConfig config = default_session_config();
    if (host_.config()) config.token_url = host_.config()->token_endpoint;
    // Through the helper the browser is always a public client: in BFF mode
    // (a confidential client) the helper adds the secret (spec 4.3).
    config.credentials = PublicClient{client_id};
    return config;
}

// ===========================================================================
// [SECTION] The page loaded, the configuration came
// ===========================================================================

void SignIn::on_launch(std::string_view launch_url, const LaunchUrl& launch,
                       const std::optional<std::string>& pending_record, Instant now) {
    const auto hash = launch_url.find("#/");
    if (hash != std::string_view::npos && launch.holds != LaunchHolds::authorization_answer)
        reload_place_ = std::string(launch_url.substr(hash));
    if (launch.holds != LaunchHolds::authorization_answer) return;
    // The pending record is single use: the platform already removed it from
    // sessionStorage, and validate_callback consumes it whatever the outcome.
    std::optional<PendingAuthorization> pending;
    if (pending_record) {
        auto parsed = parse_pending(*pending_record);
        if (parsed) {
            host_.add_secret(parsed->code_verifier);
            pending = std::move(*parsed);
        }
    }
    // validate_callback consumes the record: keep what the log tells of it.
    std::optional<PendingAuthorization> sent = pending;
    auto validated = validate_callback(launch_url, pending);
    // Told in the HTTP log once the configuration (its consent_url) is here.
    steps_ = ArrivedCallback{std::move(sent), std::string(launch_url),
                             validated ? std::nullopt : std::optional<CallbackError>(validated.error()), now};
    if (!validated) {
        host_.perform(client_.callback_rejected(validated.error()), now);
        host_.set_error(callback_error(validated.error()), ErrorSource::other);
        return;
    }
    host_.add_secret(validated->code());
    requested_scopes_ = validated->scopes();
    client_.expect_callback();  // the page's session exchanges the code once the config is here
    callback_ = std::move(*validated);
    callback_at_ = now;
    host_.notice_words({"sign_in.completing_dots"});
    // The exchange waits for the helper's configuration (its token route).
}

void SignIn::on_config(Instant now) {
    (void)now;
    // A reload in the page's own session mode: the tokens lived in this
    // page's memory only, so say why the user signs in again; the place
    // waits in the tab (shell/page.js) and opens after the sign-in.
    if (!reload_place_.empty() && !host_.config()->bff() && client_.holder() == CredentialHolder::none)
        host_.notice_words({"sign_in.reloaded"});
    reload_place_.clear();
    if (!steps_) return;
    // The page that sent the authorization request is gone, and its log with
    // it: tell that step again from the record it left, then the callback
    // that brought us here.
    const ArrivedCallback arrived = std::move(*steps_);
    steps_.reset();
    const PublicConfig& config = *host_.config();
    if (arrived.pending && config.configured) {
        if (auto step = authorization_step(config.consent_url, config.client(), *arrived.pending))
            host_.log_flow_step(std::move(*step), arrived.pending->created_at);
    }
    host_.log_flow_step(
        callback_step(arrived.url, arrived.refused,
                      arrived.pending ? std::optional<std::string>(arrived.pending->state) : std::nullopt),
        arrived.at);
}

void SignIn::after_config(const std::string& reason, Instant now) {
    if (!callback_) return;
    if (host_.config()) {
        process_callback(now);
        return;
    }
    callback_.reset();
    host_.set_error(transport_error(tr("sign_in.completing"), reason), ErrorSource::other);
}

void SignIn::process_callback(Instant now) {
    ValidatedCallback callback = std::move(*callback_);
    callback_.reset();
    const std::string client_id = callback.client_id();
    RestStep step = client_.callback(session_config(client_id), std::move(callback), callback_at_, now);
    for (const Lifecycle& event : step.lifecycle) {
        if (const auto* expired = std::get_if<lifecycle::CodeExpired>(&event)) {
            requested_scopes_.clear();
            host_.notice("");
            host_.set_error(code_expired_error(expired->waited), ErrorSource::other);
            return;
        }
    }
    host_.notice_words({"sign_in.exchanging"});
    host_.perform(std::move(step), now);
}

// ===========================================================================
// [SECTION] Intents
// ===========================================================================

bool SignIn::may_start() {
    const auto& config = host_.config();
    if (config && config->configured) return true;
    UserError error;
    error.title = tr("sign_in.cannot_start");
    error.message = config ? std::string(tr("sign_in.no_upstream"))
                           : tr("sign_in.config_not_loaded",
                                {{"why", host_.config_error().empty() ? std::string(tr("sign_in.still_loading"))
                                                                      : host_.config_error()}});
    error.remedy = tr("sign_in.start_run_sh");
    error.offers_try_again = true;
    host_.set_error(std::move(error), ErrorSource::other);
    return false;
}

void SignIn::start(const ScopeSet& scopes, Instant now) {
    if (client_.holder() == CredentialHolder::api_token || client_.session().state() != SessionState::signed_out)
        host_.end_session(now);

    const PublicConfig& config = *host_.config();
    AuthorizationRequest request;
    request.redirect_uri = config.redirect_uri;
    request.scopes = scopes;
    request.state = make_state(random_);
    request.pkce = make_pkce(random_);  // mandatory for public clients (spec 5.4.1), used always
    const ClientConfig client = config.client();
    auto url = build_authorization_url(config.consent_url, client, request);
    if (!url) {
        host_.set_error(authorization_request_error(url.error()), ErrorSource::other);
        return;
    }
    requested_scopes_ = scopes;
    host_.reset_error();
    host_.notice_words({"sign_in.opening_consent"});
    host_.log_flow_step(authorization_step(*url), now);  // shown if the page comes back (back/forward cache)
    // The pending record is kept in sessionStorage before the page leaves.
    host_.perform(client_.sign_in(session_config(client.client_id), std::move(*url),
                                  serialize(make_pending(client, request, now))),
                  now);
}

// Back from the consent screen, and the browser showed this page again from
// its back/forward cache, with the state it had when it left (signing in,
// Sign in greyed out). That sign-in is abandoned: the session goes back to
// signed out, and its pending authorization leaves sessionStorage, so a
// callback carrying its state (the consent screen reached again by Forward,
// say) is refused like any unknown one: it stays single use. A page
// restored in any other state is as it was.
void SignIn::page_restored(Instant now) {
    if (client_.holder() != CredentialHolder::page_session || client_.session().state() != SessionState::authorizing ||
        callback_)
        return;
    host_.perform(client_.sign_out(), now);
    host_.forget_pending();
    requested_scopes_.clear();
    host_.reset_error();
    host_.notice_words({"sign_in.came_back"});
}

void SignIn::use_api_token(std::string token, Instant now) {
    token = trim(token);
    // shared/ decides what a usable token is (no control bytes, not empty).
    if (auto probe = get_me(host_.api_config(), ApiToken{token}); !probe) {
        UserError error;
        error.title = tr("sign_in.token_unusable");
        error.message = tr("sign_in.token_unusable_why", {{"why", std::string(to_string(probe.error()))}});
        error.remedy = tr("sign_in.token_copy_again");
        host_.set_error(std::move(error), ErrorSource::other);
        return;
    }
    if (client_.holder() != CredentialHolder::none || client_.session().state() != SessionState::signed_out)
        host_.end_session(now);
    api_token_ = std::move(token);
    host_.add_secret(api_token_);
    client_.set_api_config(host_.api_config());
    client_.use_api_token(api_token_);
    host_.reset_error();
    host_.notice_words({"sign_in.using_token"});
    host_.signed_in(now);
}

// A refresh with fewer scopes than were granted: the new tokens then grant
// only those (and so does every later refresh).
void SignIn::refresh_with_scopes(const ScopeSet& scopes, Instant now) {
    const auto& tokens = client_.session().tokens();
    if (client_.holder() != CredentialHolder::page_session || !tokens) {
        scope_refresh_.refuse(tr("sign_in.narrow_needs_oauth"));
        return;
    }
    const bool busy = client_.session().state() == SessionState::refreshing;
    if (auto why = ScopeRefresh::refusal(scopes, tokens->scope, busy)) {
        scope_refresh_.refuse(std::move(*why));
        return;
    }
    scope_refresh_.start(scopes, tokens->scope);
    host_.perform(client_.refresh(now, scopes), now);
}

void SignIn::refresh_now(Instant now) {
    const SessionState state = client_.session().state();
    if (client_.holder() == CredentialHolder::page_session &&
        (state == SessionState::signed_in || state == SessionState::refreshing)) {
        host_.perform(client_.refresh(now), now);
    }
}

void SignIn::set_auto_refresh(bool on, Instant now) {
    auto_refresh_ = on;
    // Catch up at once on anything that came due while it was off.
    if (auto_refresh_ && client_.holder() == CredentialHolder::page_session) host_.perform(client_.tick(now), now);
}

void SignIn::try_again() {
    if (client_.holder() == CredentialHolder::api_token) return;
    const SessionState state = client_.session().state();
    if (state == SessionState::failed || state == SessionState::expired || state == SessionState::authorizing)
        client_.reset_session(session_config(host_.config() ? host_.config()->client_id : std::string()));
}

std::optional<ScopeSet> SignIn::adding(const std::string& scope, const ScopeSet* granted) {
    const bool api_token = client_.holder() == CredentialHolder::api_token;
    if (!host_.config() || api_token) {
        UserError error;
        error.title = tr("sign_in.cannot_add_scope");
        error.message = tr(api_token ? "sign_in.token_scopes_fixed" : "sign_in.config_not_loaded_yet");
        error.remedy = tr(api_token ? "sign_in.use_oauth_for_scopes" : "sign_in.try_again_moment");
        host_.set_error(std::move(error), ErrorSource::other);
        return std::nullopt;
    }
    auto scopes = scopes_adding(granted ? *granted : requested_scopes_, scope, host_.config()->client_type);
    if (!scopes) {
        UserError error;
        error.title = tr("sign_in.cannot_add", {{"scope", scope}});
        error.message = describe(scopes.error(), scope);
        host_.set_error(std::move(error), ErrorSource::other);
        return std::nullopt;
    }
    return std::move(*scopes);
}

// ===========================================================================
// [SECTION] The REST client's session
// ===========================================================================

void SignIn::on_token_answer(TokenRequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                             Instant now) {
    RestStep step = client_.token_answer(id, response, reason, now);
    const std::vector<Lifecycle> events = step.lifecycle;
    host_.perform(std::move(step), now);
    const SessionState after = client_.session().state();
    const lifecycle::Ended* ended = nullptr;
    bool new_tokens = false;
    for (const Lifecycle& event : events) {
        if (const auto* e = std::get_if<lifecycle::Ended>(&event)) ended = e;
        if (!std::holds_alternative<lifecycle::Ended>(event)) new_tokens = true;
    }
    if (scope_refresh_.pending() && after != SessionState::refreshing) {
        // The narrower refresh ended: what was asked is now what is requested.
        if (new_tokens) {
            requested_scopes_ = scope_refresh_.requested();
            scope_refresh_.granted(client_.session().tokens()->scope);
        } else if (after == SessionState::failed || after == SessionState::expired) {
            scope_refresh_.failed(tr("sign_in.narrow_refused"));
        } else {
            scope_refresh_.failed(
                tr("sign_in.narrow_failed", {{"why", response ? "HTTP " + std::to_string(response->status) : reason}}));
        }
    }
    for (const Lifecycle& event : events) {
        if (std::holds_alternative<lifecycle::SignedIn>(event)) {
            remember_tokens();
            host_.reset_error();
            host_.notice_words({"sign_in.signed_in"});
            host_.signed_in(now);
        } else if (std::holds_alternative<lifecycle::Refreshed>(event)) {
            remember_tokens();
            host_.token_refreshed();
            host_.notice_words({"sign_in.refreshed"});
        }
    }
    if (ended) {
        UserError error = session_end_error(ended->end, response);
        if (!response) error.message += " (" + reason + ")";
        host_.set_error(std::move(error), ErrorSource::other);
        host_.reset_account_data();
    }
}

void SignIn::remember_tokens() {
    if (const auto& tokens = client_.session().tokens()) {
        host_.add_secret(tokens->access_token);
        host_.add_secret(tokens->refresh_token);
    }
}

void SignIn::tick(Instant now) {
    if (refresh_tick_at_ && now >= *refresh_tick_at_ && auto_refresh_ &&
        client_.holder() == CredentialHolder::page_session) {
        refresh_tick_at_.reset();
        host_.perform(client_.tick(now), now);
    }
}

std::optional<Instant> SignIn::wake_at() const {
    if (refresh_tick_at_ && auto_refresh_ && client_.holder() == CredentialHolder::page_session)
        return refresh_tick_at_;
    return std::nullopt;
}

void SignIn::forget() {
    api_token_.clear();
    callback_.reset();
    refresh_tick_at_.reset();
    requested_scopes_.clear();
    scope_refresh_.reset();
}

}  // namespace roomkey::app
