// Tests of the session state machine: its table (every unlisted pair is an
// error), sign-in (spec 4.2, 4.3), refresh ahead of expiry (spec 2.3, 5.2.3),
// one refresh + one retry on 401 invalid_token (spec 5.2.2), the 14-day
// refresh token (spec 5.4.2), invalid_grant (spec 7.2) and sign-out.
#include "roomkey/session.hpp"

#include "roomkey/url.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace roomkey {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, kScopes, kTokenUrl, ...).
namespace session_test {
namespace {

namespace ev = session_event;
namespace fx = session_effect;
using Effects = std::vector<SessionEffect>;

const Instant t0 = instant_from_unix_seconds(1'700'000'000);
const std::string kTokenUrl = "https://auth.example.test/token";
const ScopeSet kScopes{"users.profile.me:read", "users.status.me:read"};

SessionConfig config() {
    SessionConfig c;
    c.token_url = kTokenUrl;
    c.credentials = PublicClient{"client-1"};
    return c;
}

ValidatedCallback callback_for(const std::string& code) {
    std::optional<PendingAuthorization> pending = PendingAuthorization{
        "state-123", std::string(43, 'v'), "https://app.example.test/callback", "client-1", kScopes, t0};
    auto cb = validate_callback("https://app.example.test/callback?code=" + code + "&state=state-123", pending);
    EXPECT_TRUE(cb) << "test setup: the callback must validate: " << to_string(cb.error().kind);
    return std::move(cb).value();
}

HttpResponse token_ok(const std::string& access, const std::string& refresh, std::int64_t expires_in = 1800,
                      const ScopeSet& scope = kScopes) {
    return make_token_response(access, refresh, expires_in, scope);
}

HttpResponse token_error(const std::string& error, const std::string& description = {}) {
    return make_token_error_response(TokenError{error, description});
}

template <class T>
std::vector<T> effects_of(const Effects& effects) {
    std::vector<T> out;
    for (const auto& e : effects)
        if (const auto* x = std::get_if<T>(&e)) out.push_back(*x);
    return out;
}

template <class T>
std::size_t count_of(const Effects& effects) {
    return effects_of<T>(effects).size();
}

Effects must(Session& s, const SessionEvent& event) {
    auto r = s.handle(event);
    EXPECT_TRUE(r) << "event " << to_string(kind_of(event)) << " refused: " << describe(r.error());
    return r ? std::move(r).value() : Effects{};
}

// The id of the token request the last effects asked for.
TokenRequestId token_request_id(const Effects& effects) {
    for (const auto& e : effects) {
        if (const auto* x = std::get_if<fx::SendCodeExchange>(&e)) return x->id;
        if (const auto* x = std::get_if<fx::SendRefresh>(&e)) return x->id;
    }
    ADD_FAILURE() << "no token request among the effects";
    return 0;
}

// A session signed in at t0 with access token "at-1" (30 minutes) and refresh token "rt-1".
Session signed_in(SessionConfig c = config(), HttpResponse response = token_ok("at-1", "rt-1")) {
    Session s(std::move(c));
    must(s, ev::SignInStarted{"https://consent.example.test/?state=x"});
    const auto sent = must(s, ev::CallbackValidated{callback_for("code-1")});
    must(s, ev::TokenResponse{token_request_id(sent), std::move(response), t0});
    EXPECT_EQ(s.state(), SessionState::signed_in);
    return s;
}

// A session in each state, reached through the table only.
Session in_state(SessionState state) {
    Session s(config());
    switch (state) {
        case SessionState::signed_out: break;
        case SessionState::authorizing: must(s, ev::SignInStarted{"https://consent.example.test/"}); break;
        case SessionState::exchanging:
            must(s, ev::SignInStarted{"https://consent.example.test/"});
            must(s, ev::CallbackValidated{callback_for("c")});
            break;
        case SessionState::signed_in: s = signed_in(); break;
        case SessionState::refreshing:
            s = signed_in();
            must(s, ev::RefreshRequested{t0});
            break;
        case SessionState::expired:
            s = signed_in();
            must(s, ev::Tick{t0 + Seconds(15 * 24 * 3600)});
            break;
        case SessionState::failed:
            must(s, ev::SignInStarted{"https://consent.example.test/"});
            must(s, ev::CallbackRejected{CallbackError{CallbackErrorKind::access_denied,
                                                       AuthorizationErrorCode::access_denied, "access_denied", ""}});
            break;
    }
    EXPECT_EQ(s.state(), state) << "test setup could not reach " << to_string(state);
    return s;
}

// A token set as roomkey-helper keeps it in a BFF cookie: issued at t0.
TokenSet restored_tokens() {
    TokenSet t;
    t.access_token = "at-kept";
    t.refresh_token = "rt-kept";
    t.token_type = "Bearer";
    t.expires_in = 1800;
    t.scope = kScopes;
    t.access_expires_at = t0 + Seconds(1800);
    t.refresh_expires_at = t0 + Seconds(14 * 24 * 3600);
    return t;
}

// One event of each kind (token ids chosen to match the first request).
SessionEvent sample_event(SessionEventKind kind) {
    switch (kind) {
        case SessionEventKind::sign_in_started: return ev::SignInStarted{"https://consent.example.test/"};
        case SessionEventKind::callback_validated: return ev::CallbackValidated{callback_for("c2")};
        case SessionEventKind::callback_rejected:
            return ev::CallbackRejected{CallbackError{CallbackErrorKind::state_mismatch, std::nullopt, "", ""}};
        case SessionEventKind::token_response: return ev::TokenResponse{1, token_ok("a", "r"), t0};
        case SessionEventKind::token_request_failed: return ev::TokenRequestFailed{1, "network", t0};
        case SessionEventKind::tick: return ev::Tick{t0};
        case SessionEventKind::api_request: return ev::ApiRequest{7, t0};
        case SessionEventKind::api_unauthorized: return ev::ApiUnauthorized{7, 1, false, t0};
        case SessionEventKind::refresh_requested: return ev::RefreshRequested{t0};
        case SessionEventKind::sign_out: return ev::SignOut{};
        case SessionEventKind::tokens_restored: return ev::TokensRestored{restored_tokens(), t0, t0};
    }
    return ev::SignOut{};
}

const SessionTransition* find_transition(SessionState s, SessionEventKind e) {
    for (const auto& t : session_transitions())
        if (t.from == s && t.event == e) return &t;
    return nullptr;
}

// ---- The table ----

TEST(SessionTable, EachStateEventPairHasAtMostOneRow) {
    std::set<std::pair<int, int>> seen;
    for (const auto& t : session_transitions()) {
        EXPECT_TRUE(seen.insert({static_cast<int>(t.from), static_cast<int>(t.event)}).second)
            << "two rows for (" << to_string(t.from) << ", " << to_string(t.event) << ")";
        EXPECT_FALSE(t.to.empty());
        EXPECT_FALSE(t.rule.empty()) << "every row says why";
    }
}

// Unlisted pairs are typed errors naming both, never silent no-ops; listed
// pairs land in a state their row lists.
TEST(SessionTable, UnlistedPairsAreInvalidTransitionsAndListedPairsFollowTheirRow) {
    for (int si = 0; si < kSessionStateCount; ++si) {
        for (int ei = 0; ei < kSessionEventKindCount; ++ei) {
            const auto state = static_cast<SessionState>(si);
            const auto kind = static_cast<SessionEventKind>(ei);
            Session s = in_state(state);
            const SessionEvent event = sample_event(kind);
            ASSERT_EQ(kind_of(event), kind);
            const auto result = s.handle(event);
            const SessionTransition* row = find_transition(state, kind);
            if (!row) {
                ASSERT_FALSE(result) << "(" << to_string(state) << ", " << to_string(kind) << ") is not in the table";
                EXPECT_EQ(result.error().kind, SessionErrorKind::invalid_transition);
                EXPECT_EQ(result.error().state, state);
                EXPECT_EQ(result.error().event, kind);
                EXPECT_NE(describe(result.error()).find(std::string(to_string(state))), std::string::npos);
                EXPECT_NE(describe(result.error()).find(std::string(to_string(kind))), std::string::npos);
                EXPECT_EQ(s.state(), state) << "a refused event must leave the state as it was";
            } else if (result) {
                EXPECT_NE(std::find(row->to.begin(), row->to.end(), s.state()), row->to.end())
                    << "(" << to_string(state) << ", " << to_string(kind) << ") went to " << to_string(s.state());
            } else {
                EXPECT_NE(result.error().kind, SessionErrorKind::invalid_transition)
                    << "(" << to_string(state) << ", " << to_string(kind) << ") is listed";
            }
        }
    }
}

// The table written out again by hand, from session.hpp's documented table
// (not from session_transitions()): a row added, dropped or re-targeted in
// session.cpp without the documentation is caught here.
TEST(SessionTable, MatchesTheDocumentedTable) {
    using S = SessionState;
    using E = SessionEventKind;
    const std::set<S> all{S::signed_out, S::authorizing, S::exchanging, S::signed_in,
                          S::refreshing, S::expired,     S::failed};
    std::map<std::pair<S, E>, std::set<S>> documented{
        {{S::signed_out, E::sign_in_started}, {S::authorizing}},
        {{S::authorizing, E::sign_in_started}, {S::authorizing}},
        {{S::expired, E::sign_in_started}, {S::authorizing}},
        {{S::failed, E::sign_in_started}, {S::authorizing}},
        {{S::signed_out, E::callback_validated}, {S::exchanging}},
        {{S::authorizing, E::callback_validated}, {S::exchanging}},
        {{S::signed_out, E::callback_rejected}, {S::failed}},
        {{S::authorizing, E::callback_rejected}, {S::failed}},
        {{S::exchanging, E::token_response}, {S::signed_in, S::failed}},
        {{S::refreshing, E::token_response}, {S::signed_in, S::failed}},
        {{S::exchanging, E::token_request_failed}, {S::failed}},
        {{S::refreshing, E::token_request_failed}, {S::signed_in, S::failed}},
        {{S::signed_in, E::tick}, {S::signed_in, S::refreshing, S::expired}},
        {{S::signed_in, E::api_request}, {S::signed_in, S::refreshing, S::expired}},
        {{S::exchanging, E::api_request}, {S::exchanging}},
        {{S::refreshing, E::api_request}, {S::refreshing}},
        {{S::signed_in, E::api_unauthorized}, {S::signed_in, S::refreshing}},
        {{S::refreshing, E::api_unauthorized}, {S::refreshing}},
        {{S::signed_in, E::refresh_requested}, {S::refreshing}},
        {{S::refreshing, E::refresh_requested}, {S::refreshing}},
        {{S::signed_out, E::tokens_restored}, {S::signed_in, S::expired}},
    };
    for (S s : all) {
        if (s != S::signed_in) documented[{s, E::tick}] = {s};  // "<any> tick -> (same)"
        documented[{s, E::sign_out}] = {S::signed_out};          // "<any> sign_out -> signed_out"
        if (s == S::signed_out || s == S::authorizing || s == S::expired || s == S::failed)
            documented[{s, E::api_request}] = {s};  // fail_request(not_signed_in)
        if (s != S::signed_in && s != S::refreshing) documented[{s, E::api_unauthorized}] = {s};
    }
    std::map<std::pair<S, E>, std::set<S>> actual;
    for (const auto& t : session_transitions()) actual[{t.from, t.event}] = std::set<S>(t.to.begin(), t.to.end());
    for (const auto& [pair, to] : documented) {
        const auto it = actual.find(pair);
        ASSERT_NE(it, actual.end()) << "documented row missing: (" << to_string(pair.first) << ", "
                                    << to_string(pair.second) << ")";
        EXPECT_EQ(it->second, to) << "targets differ for (" << to_string(pair.first) << ", " << to_string(pair.second)
                                  << ")";
    }
    EXPECT_EQ(actual.size(), documented.size()) << "session.cpp has rows the documented table does not";
}

TEST(SessionTable, SignInWhileSignedInIsRefused) {
    Session s = signed_in();
    const auto r = s.handle(ev::SignInStarted{"https://consent.example.test/"});
    ASSERT_FALSE(r) << "a second sign-in was accepted while signed in";
    EXPECT_EQ(describe(r.error()), "invalid_transition: event sign_in_started in state signed_in");
}

// ---- Sign-in (spec 4.2, 4.3) ----

TEST(Session, SignInNavigatesToTheConsentUrl) {
    Session s(config());
    const auto effects = must(s, ev::SignInStarted{"https://consent.example.test/?client_id=client-1"});
    ASSERT_EQ(count_of<fx::NavigateToConsent>(effects), 1u);
    EXPECT_EQ(effects_of<fx::NavigateToConsent>(effects)[0].url, "https://consent.example.test/?client_id=client-1");
    EXPECT_EQ(s.state(), SessionState::authorizing);
}

// spec 4.3: grant_type=authorization_code, code, redirect_uri, code_verifier.
TEST(Session, ValidatedCallbackSendsTheCodeExchange) {
    Session s(config());
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    const auto effects = must(s, ev::CallbackValidated{callback_for("the-code")});
    ASSERT_EQ(count_of<fx::SendCodeExchange>(effects), 1u);
    const HttpRequest req = effects_of<fx::SendCodeExchange>(effects)[0].request;
    EXPECT_EQ(req.method, Method::Post);
    EXPECT_EQ(req.url, kTokenUrl) << "the code goes in the body, never in the URL";
    const auto form = form_decode(req.body);
    ASSERT_TRUE(form) << to_string(form.error());
    EXPECT_EQ(form_get(*form, "grant_type"), "authorization_code");
    EXPECT_EQ(form_get(*form, "code"), "the-code");
    EXPECT_EQ(form_get(*form, "code_verifier"), std::string(43, 'v'));
    EXPECT_EQ(s.state(), SessionState::exchanging);
}

// spec 2.3 / 5.2.3: the access token lives 30 minutes; refresh 60 s ahead.
TEST(Session, TokenSetSignsInAndSchedulesTheRefreshAheadOfExpiry) {
    Session s(config());
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    const auto sent = must(s, ev::CallbackValidated{callback_for("c")});
    const auto effects = must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-1", "rt-1"), t0});
    EXPECT_EQ(s.state(), SessionState::signed_in);
    ASSERT_TRUE(s.tokens()) << "signed in without tokens";
    EXPECT_EQ(s.tokens()->access_token, "at-1");
    ASSERT_EQ(count_of<fx::ScheduleRefreshAt>(effects), 1u);
    EXPECT_EQ(effects_of<fx::ScheduleRefreshAt>(effects)[0].at, t0 + Seconds(30 * 60 - 60));
    EXPECT_EQ(s.refresh_due_at(), t0 + Seconds(30 * 60 - 60));
    EXPECT_EQ(s.token_generation(), 1u);
}

TEST(Session, RefreshAheadIsConfigurable) {
    SessionConfig c = config();
    c.refresh_ahead = Seconds(300);
    Session s = signed_in(c);
    EXPECT_EQ(s.refresh_due_at(), t0 + Seconds(25 * 60));
}

// A short-lived token is not refreshed in the first half of its life.
TEST(Session, ShortLivedTokenIsRefreshedAtHalfItsLifetime) {
    Session s = signed_in(config(), token_ok("at-1", "rt-1", 60));
    EXPECT_EQ(s.refresh_due_at(), t0 + Seconds(30));
}

// spec 4.3 / 7.2: a refused code (e.g. older than its 1 minute, spec 2.2) fails the sign-in.
TEST(Session, RefusedCodeFailsTheSignInWithTheServicesReason) {
    Session s(config());
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    const auto sent = must(s, ev::CallbackValidated{callback_for("c")});
    must(s, ev::TokenResponse{token_request_id(sent), token_error("invalid_grant", "code expired"), t0});
    EXPECT_EQ(s.state(), SessionState::failed);
    ASSERT_TRUE(s.ended()) << "the rejected code exchange did not end the session";
    EXPECT_EQ(s.ended()->kind, SessionEndKind::code_exchange_rejected);
    EXPECT_EQ(s.ended()->detail, "invalid_grant: code expired");
    EXPECT_FALSE(s.tokens());
}

TEST(Session, MalformedTokenSetFailsTheSignIn) {
    Session s(config());
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    const auto sent = must(s, ev::CallbackValidated{callback_for("c")});
    HttpResponse bad{200, {{"content-type", "application/json"}}, R"({"access_token":"a"})"};
    must(s, ev::TokenResponse{token_request_id(sent), bad, t0});
    EXPECT_EQ(s.state(), SessionState::failed);
    EXPECT_EQ(s.ended()->kind, SessionEndKind::code_exchange_failed);
}

// spec 4.2: the owner pressed deny (3001).
TEST(Session, DeniedConsentFailsWithAClearReason) {
    Session s(config());
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    must(s, ev::CallbackRejected{CallbackError{CallbackErrorKind::access_denied, AuthorizationErrorCode::access_denied,
                                               "access_denied", "<script>"}});
    EXPECT_EQ(s.state(), SessionState::failed);
    EXPECT_EQ(s.ended()->detail, "callback.access_denied 3001") << "the description from the URL is not shown";
    EXPECT_NE(describe(*s.ended()).find("sign in again"), std::string::npos);
}

TEST(Session, TokenResponseForAnotherRequestIsStale) {
    Session s(config());
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    const auto sent = must(s, ev::CallbackValidated{callback_for("c")});
    const auto r = s.handle(ev::TokenResponse{token_request_id(sent) + 1, token_ok("a", "r"), t0});
    ASSERT_FALSE(r) << "a token response for an older request was accepted";
    EXPECT_EQ(r.error().kind, SessionErrorKind::stale_token_response);
    EXPECT_EQ(s.state(), SessionState::exchanging) << "the refused answer changed nothing";
}

// ---- Refresh (spec 4.3, 5.2.3) ----

TEST(Session, TickBeforeTheDueTimeDoesNothing) {
    Session s = signed_in();
    EXPECT_TRUE(must(s, ev::Tick{t0 + Seconds(30 * 60 - 61)}).empty());
    EXPECT_EQ(s.state(), SessionState::signed_in);
}

// spec 4.3: grant_type=refresh_token, refresh_token, scope.
TEST(Session, TickAtTheDueTimeSendsTheRefresh) {
    Session s = signed_in();
    const auto effects = must(s, ev::Tick{t0 + Seconds(30 * 60 - 60)});
    EXPECT_EQ(s.state(), SessionState::refreshing);
    ASSERT_EQ(count_of<fx::SendRefresh>(effects), 1u);
    const HttpRequest req = effects_of<fx::SendRefresh>(effects)[0].request;
    EXPECT_EQ(req.url, kTokenUrl);
    const auto form = form_decode(req.body);
    ASSERT_TRUE(form) << to_string(form.error());
    EXPECT_EQ(form_get(*form, "grant_type"), "refresh_token");
    EXPECT_EQ(form_get(*form, "refresh_token"), "rt-1");
    EXPECT_EQ(form_get(*form, "scope"), format_scope_list(kScopes));
    EXPECT_EQ(form_get(*form, "client_id"), "client-1") << "public client (spec 4.3)";
}

// spec 4.3: the re-issued set replaces the old one (the refresh token rotates).
TEST(Session, RefreshReplacesTheTokens) {
    Session s = signed_in();
    const Instant due = t0 + Seconds(30 * 60 - 60);
    const auto sent = must(s, ev::Tick{due});
    const auto effects = must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-2", "rt-2"), due});
    EXPECT_EQ(s.state(), SessionState::signed_in);
    EXPECT_EQ(s.tokens()->access_token, "at-2");
    EXPECT_EQ(s.tokens()->refresh_token, "rt-2");
    EXPECT_EQ(s.token_generation(), 2u);
    ASSERT_EQ(count_of<fx::ScheduleRefreshAt>(effects), 1u);
    EXPECT_EQ(effects_of<fx::ScheduleRefreshAt>(effects)[0].at, due + Seconds(30 * 60 - 60));
}

// spec 4.3: a refresh the user narrows sends the scopes asked for, and the
// narrower grant it brings back is what the next refresh asks for.
TEST(Session, RefreshRequestedWithFewerScopesSendsThemAndKeepsTheNarrowerGrant) {
    Session s = signed_in();
    const ScopeSet fewer{"users.profile.me:read"};
    const auto sent = must(s, ev::RefreshRequested{t0, fewer});
    ASSERT_EQ(count_of<fx::SendRefresh>(sent), 1u);
    const auto form = form_decode(effects_of<fx::SendRefresh>(sent)[0].request.body);
    ASSERT_TRUE(form) << to_string(form.error());
    EXPECT_EQ(form_get(*form, "scope"), "users.profile.me:read");
    must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-2", "rt-2", 1800, fewer), t0});
    ASSERT_TRUE(s.tokens()) << "the refresh's answer left no tokens";
    EXPECT_EQ(s.tokens()->scope, fewer);
    const auto again = must(s, ev::RefreshRequested{t0, std::nullopt});
    ASSERT_EQ(count_of<fx::SendRefresh>(again), 1u);
    const auto next = form_decode(effects_of<fx::SendRefresh>(again)[0].request.body);
    ASSERT_TRUE(next) << to_string(next.error());
    EXPECT_EQ(form_get(*next, "scope"), "users.profile.me:read") << "the later refresh keeps the narrower grant";
}

TEST(Session, RefreshRequestedWhileRefreshingSharesTheRefresh) {
    Session s = in_state(SessionState::refreshing);
    EXPECT_EQ(count_of<fx::SendRefresh>(must(s, ev::RefreshRequested{t0})), 0u);
}

// A tab that slept past the expiry: refresh first, then send (a first try, not a retry).
TEST(Session, ApiRequestAfterExpiryRefreshesFirst) {
    Session s = signed_in();
    const Instant late = t0 + Seconds(31 * 60);
    const auto sent = must(s, ev::ApiRequest{5, late});
    EXPECT_EQ(count_of<fx::SendApiRequest>(sent), 0u);
    ASSERT_EQ(count_of<fx::SendRefresh>(sent), 1u);
    const auto after = must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-2", "rt-2"), late});
    ASSERT_EQ(count_of<fx::SendApiRequest>(after), 1u);
    EXPECT_EQ(effects_of<fx::SendApiRequest>(after)[0].id, 5u);
    EXPECT_EQ(count_of<fx::RetryApiRequest>(after), 0u);
}

TEST(Session, ApiRequestWhileSignedInIsSent) {
    Session s = signed_in();
    const auto effects = must(s, ev::ApiRequest{5, t0 + Seconds(10)});
    ASSERT_EQ(count_of<fx::SendApiRequest>(effects), 1u);
    EXPECT_EQ(effects_of<fx::SendApiRequest>(effects)[0].id, 5u);
}

TEST(Session, ApiRequestWhileSignedOutFails) {
    Session s(config());
    const auto effects = must(s, ev::ApiRequest{5, t0});
    ASSERT_EQ(count_of<fx::FailApiRequest>(effects), 1u);
    EXPECT_EQ(effects_of<fx::FailApiRequest>(effects)[0].reason, RequestFailure::not_signed_in);
}

// ---- 401 invalid_token (spec 5.2.2) ----

TEST(Session, UnauthorizedLeadsToExactlyOneRefreshAndOneRetry) {
    Session s = signed_in();
    const Instant now = t0 + Seconds(100);
    const auto refresh = must(s, ev::ApiUnauthorized{9, 1, false, now});
    ASSERT_EQ(count_of<fx::SendRefresh>(refresh), 1u);
    EXPECT_EQ(s.state(), SessionState::refreshing);
    const auto after = must(s, ev::TokenResponse{token_request_id(refresh), token_ok("at-2", "rt-2"), now});
    ASSERT_EQ(count_of<fx::RetryApiRequest>(after), 1u);
    EXPECT_EQ(effects_of<fx::RetryApiRequest>(after)[0].id, 9u);
    // The retry with the new token is refused again: fail it, no second refresh.
    const auto again = must(s, ev::ApiUnauthorized{9, 2, true, now});
    EXPECT_EQ(count_of<fx::SendRefresh>(again), 0u) << "no refresh loop";
    EXPECT_EQ(count_of<fx::RetryApiRequest>(again), 0u) << "no second retry";
    ASSERT_EQ(count_of<fx::FailApiRequest>(again), 1u);
    EXPECT_EQ(effects_of<fx::FailApiRequest>(again)[0].reason, RequestFailure::unauthorized_after_retry);
    EXPECT_EQ(s.state(), SessionState::signed_in);
}

TEST(Session, ConcurrentUnauthorizedRequestsShareOneRefresh) {
    Session s = signed_in();
    const Instant now = t0 + Seconds(100);
    const auto first = must(s, ev::ApiUnauthorized{1, 1, false, now});
    const auto second = must(s, ev::ApiUnauthorized{2, 1, false, now});
    const auto third = must(s, ev::ApiRequest{3, now});
    EXPECT_EQ(count_of<fx::SendRefresh>(first), 1u);
    EXPECT_TRUE(second.empty()) << "the second 401 waits for the refresh under way";
    EXPECT_TRUE(third.empty()) << "a new request waits for it too";
    EXPECT_EQ(s.waiting_requests(), 3u);
    const auto after = must(s, ev::TokenResponse{token_request_id(first), token_ok("at-2", "rt-2"), now});
    const auto retried = effects_of<fx::RetryApiRequest>(after);
    ASSERT_EQ(retried.size(), 2u);
    EXPECT_EQ(retried[0].id, 1u);
    EXPECT_EQ(retried[1].id, 2u);
    ASSERT_EQ(count_of<fx::SendApiRequest>(after), 1u);
    EXPECT_EQ(s.waiting_requests(), 0u);
}

// A 401 for a request sent with a token that was replaced since: retry with the new one.
TEST(Session, UnauthorizedWithAnOlderTokenIsRetriedWithoutRefresh) {
    Session s = signed_in();
    const auto sent = must(s, ev::RefreshRequested{t0});
    must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-2", "rt-2"), t0});
    const auto effects = must(s, ev::ApiUnauthorized{4, 1, false, t0});
    EXPECT_EQ(count_of<fx::SendRefresh>(effects), 0u);
    ASSERT_EQ(count_of<fx::RetryApiRequest>(effects), 1u);
}

// ---- The end of a session ----

// spec 5.4.2 / 7.2: invalid_grant on refresh ends the session with a clear reason.
TEST(Session, InvalidGrantOnRefreshEndsTheSession) {
    Session s = signed_in();
    const auto refresh = must(s, ev::ApiUnauthorized{9, 1, false, t0});
    const auto effects =
        must(s, ev::TokenResponse{token_request_id(refresh), token_error("invalid_grant", "revoked"), t0});
    EXPECT_EQ(s.state(), SessionState::failed);
    EXPECT_FALSE(s.tokens());
    EXPECT_EQ(count_of<fx::ForgetTokens>(effects), 1u);
    ASSERT_EQ(count_of<fx::FailApiRequest>(effects), 1u);
    EXPECT_EQ(effects_of<fx::FailApiRequest>(effects)[0].reason, RequestFailure::session_ended);
    ASSERT_TRUE(s.ended()) << "the rejected refresh did not end the session";
    EXPECT_EQ(s.ended()->kind, SessionEndKind::refresh_rejected);
    EXPECT_EQ(describe(*s.ended()),
              "Your sign-in is no longer valid: the service refused the refresh token (invalid_grant: revoked). "
              "Please sign in again.");
}

// spec 2.3 / 5.4.2: without offline_access the refresh token lasts 14 days.
TEST(Session, RefreshTokenExpiresAfter14Days) {
    Session s = signed_in();
    ASSERT_TRUE(s.tokens()->refresh_expires_at) << "the refresh token has no expiry";
    EXPECT_EQ(*s.tokens()->refresh_expires_at, t0 + Seconds(14 * 24 * 3600));
    const auto effects = must(s, ev::Tick{t0 + Seconds(14 * 24 * 3600)});
    EXPECT_EQ(s.state(), SessionState::expired);
    EXPECT_EQ(count_of<fx::ForgetTokens>(effects), 1u);
    EXPECT_EQ(count_of<fx::SendRefresh>(effects), 0u) << "a dead refresh token is not sent";
    EXPECT_EQ(s.ended()->kind, SessionEndKind::refresh_token_expired);
    // A new sign-in is the way out.
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    EXPECT_EQ(s.state(), SessionState::authorizing);
}

// spec 5.4.3: with offline_access there is no expiry.
TEST(Session, OfflineAccessRefreshTokenDoesNotExpire) {
    SessionConfig c = config();
    c.credentials = ConfidentialClient{"client-1", "secret"};
    ScopeSet offline = kScopes;
    offline.insert("offline_access");
    Session s = signed_in(c, token_ok("at-1", "rt-1", 1800, offline));
    EXPECT_FALSE(s.tokens()->refresh_expires_at);
    const auto effects = must(s, ev::Tick{t0 + Seconds(15 * 24 * 3600)});
    EXPECT_EQ(s.state(), SessionState::refreshing) << "still renewable after 14 days";
    EXPECT_EQ(count_of<fx::SendRefresh>(effects), 1u);
}

TEST(Session, SignOutForgetsTheTokensAndFailsWaitingRequests) {
    Session s = signed_in();
    must(s, ev::ApiUnauthorized{9, 1, false, t0});
    const auto effects = must(s, ev::SignOut{});
    EXPECT_EQ(s.state(), SessionState::signed_out);
    EXPECT_FALSE(s.tokens());
    EXPECT_EQ(count_of<fx::ForgetTokens>(effects), 1u);
    ASSERT_EQ(count_of<fx::FailApiRequest>(effects), 1u);
    EXPECT_EQ(effects_of<fx::FailApiRequest>(effects)[0].reason, RequestFailure::signed_out);
}

// The answer to a refresh sent before sign-out must not sign the user back in.
TEST(Session, LateRefreshAnswerAfterSignOutIsRefused) {
    Session s = signed_in();
    const auto refresh = must(s, ev::RefreshRequested{t0});
    must(s, ev::SignOut{});
    auto late = s.handle(ev::TokenResponse{token_request_id(refresh), token_ok("at-2", "rt-2"), t0});
    EXPECT_FALSE(late);
    EXPECT_FALSE(s.tokens());
    // Even once a new sign-in is exchanging its code.
    must(s, ev::SignInStarted{"https://consent.example.test/"});
    must(s, ev::CallbackValidated{callback_for("c3")});
    late = s.handle(ev::TokenResponse{token_request_id(refresh), token_ok("at-2", "rt-2"), t0});
    ASSERT_FALSE(late) << "a refresh answer from before the new sign-in was accepted";
    EXPECT_EQ(late.error().kind, SessionErrorKind::stale_token_response);
}

// A passing failure while the access token is still valid: stay signed in, try again later.
TEST(Session, TransientRefreshFailureRetriesLater) {
    Session s = signed_in();
    const Instant due = t0 + Seconds(30 * 60 - 60);
    const auto sent = must(s, ev::Tick{due});
    const auto effects = must(s, ev::TokenResponse{token_request_id(sent), token_error("server_error"), due});
    EXPECT_EQ(s.state(), SessionState::signed_in);
    ASSERT_EQ(count_of<fx::ScheduleRefreshAt>(effects), 1u);
    EXPECT_EQ(effects_of<fx::ScheduleRefreshAt>(effects)[0].at, due + Seconds(30));
    EXPECT_TRUE(must(s, ev::Tick{due + Seconds(29)}).empty());
    EXPECT_EQ(count_of<fx::SendRefresh>(must(s, ev::Tick{due + Seconds(30)})), 1u);
}

// Spec 5.4.2: the grant stops working 14 days after it was given; a refresh
// (whose answer again says "14 days") does not move that end.
TEST(Session, RefreshDoesNotRestartThe14Days_spec5_4_2) {
    Session s = signed_in();
    const Instant later = t0 + Seconds(29 * 60);
    const auto sent = must(s, ev::Tick{later});
    must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-2", "rt-2"), later});
    ASSERT_EQ(s.state(), SessionState::signed_in);
    ASSERT_TRUE(s.tokens()->refresh_expires_at) << "the refreshed refresh token has no expiry";
    EXPECT_EQ(*s.tokens()->refresh_expires_at, t0 + Seconds(14 * 24 * 3600));
}

// The same across several refreshes days apart, each answer again saying
// "14 days": the end stays the grant's, no refresh is scheduled after it,
// and an hour past it the session expires without sending the dead refresh
// token.
TEST(Session, SeveralRefreshesKeepTheGrantsEnd_spec5_4_2) {
    Session s = signed_in();
    const Instant grant_end = t0 + Seconds(14 * 24 * 3600);
    EXPECT_EQ(s.grant_ends_at(), grant_end);
    for (int day : {1, 5, 9, 13}) {
        SCOPED_TRACE("day " + std::to_string(day));
        const Instant at = t0 + Seconds(day * 24 * 3600);
        const auto sent = must(s, ev::Tick{at});
        ASSERT_EQ(count_of<fx::SendRefresh>(sent), 1u) << "the access token has long expired";
        const std::string n = std::to_string(day + 1);
        must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-" + n, "rt-" + n), at});
        ASSERT_EQ(s.state(), SessionState::signed_in);
        ASSERT_TRUE(s.tokens()->refresh_expires_at) << "day " << n << ": the refresh token has no expiry";
        EXPECT_EQ(*s.tokens()->refresh_expires_at, grant_end);
        EXPECT_EQ(s.grant_ends_at(), grant_end);
        ASSERT_TRUE(s.refresh_due_at()) << "day " << n << ": no refresh scheduled";
        EXPECT_LE(*s.refresh_due_at(), grant_end);
    }
    const auto last = must(s, ev::Tick{grant_end + Seconds(3600)});
    EXPECT_EQ(s.state(), SessionState::expired);
    EXPECT_EQ(count_of<fx::SendRefresh>(last), 0u) << "a dead refresh token is not sent";
    EXPECT_EQ(s.ended()->kind, SessionEndKind::refresh_token_expired);
}

// The rule itself, for every holder of a grant (the page's session, the
// helper's BFF cookie): the earlier end wins; "no end" (offline_access) is
// the latest of all.
TEST(Session, KeepGrantEndTakesTheEarlierEnd) {
    const Instant a = t0 + Seconds(100);
    const Instant b = t0 + Seconds(200);
    EXPECT_EQ(keep_grant_end(a, b), a);
    EXPECT_EQ(keep_grant_end(b, a), a);
    EXPECT_EQ(keep_grant_end(std::nullopt, b), b);
    EXPECT_EQ(keep_grant_end(a, std::nullopt), a);
    EXPECT_EQ(keep_grant_end(std::nullopt, std::nullopt), std::nullopt);
}

// A refresh that fails for a passing reason while the access token is still
// valid: requests that were only waiting go with it; those that already got
// a 401 with it fail instead of looping.
TEST(Session, TransientRefreshFailureSendsWaitingFirstTriesWithTheValidToken) {
    Session s = signed_in();
    const auto sent = must(s, ev::RefreshRequested{t0});
    must(s, ev::ApiRequest{5, t0});
    must(s, ev::ApiUnauthorized{6, s.token_generation(), false, t0});
    ASSERT_EQ(s.waiting_requests(), 2u);
    const auto effects = must(s, ev::TokenResponse{token_request_id(sent), token_error("server_error"), t0});
    EXPECT_EQ(s.state(), SessionState::signed_in);
    const auto sends = effects_of<fx::SendApiRequest>(effects);
    ASSERT_EQ(sends.size(), 1u);
    EXPECT_EQ(sends[0].id, 5u);
    const auto fails = effects_of<fx::FailApiRequest>(effects);
    ASSERT_EQ(fails.size(), 1u);
    EXPECT_EQ(fails[0].id, 6u);
    EXPECT_EQ(fails[0].reason, RequestFailure::refresh_failed);
}

TEST(Session, RefreshWithoutAnswerAfterExpiryEndsTheSession) {
    Session s = signed_in();
    const Instant late = t0 + Seconds(31 * 60);
    const auto sent = must(s, ev::Tick{late});
    must(s, ev::TokenRequestFailed{token_request_id(sent), "network unreachable", late});
    EXPECT_EQ(s.state(), SessionState::failed);
    EXPECT_EQ(s.ended()->kind, SessionEndKind::refresh_failed);
    EXPECT_EQ(s.ended()->detail, "network unreachable");
}

TEST(Session, OtherRefreshErrorsEndTheSession) {
    Session s = signed_in();
    const auto sent = must(s, ev::RefreshRequested{t0});
    must(s, ev::TokenResponse{token_request_id(sent), token_error("invalid_client", "bad client"), t0});
    EXPECT_EQ(s.state(), SessionState::failed);
    EXPECT_EQ(s.ended()->kind, SessionEndKind::refresh_failed);
    EXPECT_EQ(s.ended()->detail, "invalid_client: bad client");
}

// ---- Tokens kept elsewhere (roomkey-helper's BFF cookie) ----

TEST(Session, RestoredTokensSignInWithTheirRefreshAheadAndGrantEnd) {
    Session s(config());
    const auto effects = must(s, ev::TokensRestored{restored_tokens(), t0, t0 + Seconds(60)});
    EXPECT_EQ(s.state(), SessionState::signed_in);
    ASSERT_TRUE(s.tokens()) << "restored but holds no tokens";
    EXPECT_EQ(s.tokens()->refresh_token, "rt-kept");
    EXPECT_EQ(s.grant_ends_at(), t0 + Seconds(14 * 24 * 3600));
    ASSERT_EQ(count_of<fx::ScheduleRefreshAt>(effects), 1u);
    EXPECT_EQ(effects_of<fx::ScheduleRefreshAt>(effects)[0].at, t0 + Seconds(1800 - 60))
        << "ahead of expiry, counted from when the set was issued";
    // A refresh keeps the restored grant's end.
    const Instant later = t0 + Seconds(3 * 24 * 3600);
    const auto sent = must(s, ev::Tick{later});
    must(s, ev::TokenResponse{token_request_id(sent), token_ok("at-2", "rt-2"), later});
    EXPECT_EQ(s.grant_ends_at(), t0 + Seconds(14 * 24 * 3600));
}

TEST(Session, RestoredTokensPastTheGrantsEndAreExpired) {
    Session s(config());
    const auto effects = must(s, ev::TokensRestored{restored_tokens(), t0, t0 + Seconds(14 * 24 * 3600 + 3600)});
    EXPECT_EQ(s.state(), SessionState::expired);
    EXPECT_EQ(count_of<fx::SendRefresh>(effects), 0u) << "a dead refresh token is not sent";
    ASSERT_TRUE(s.ended()) << "restoring a dead refresh token did not end the session";
    EXPECT_EQ(s.ended()->kind, SessionEndKind::refresh_token_expired);
}

}  // namespace
}  // namespace session_test
}  // namespace roomkey
