// bff_gateway.cpp: the BFF routes (bff_gateway.hpp).
//
// [SECTION] answers: JSON, redirects, the 401 that ends a session
// [SECTION] token requests: made for the session table
// [SECTION] sign-in: /bff/login and the callback
// [SECTION] the session: /bff/session, /bff/refresh, /bff/logout
// [SECTION] /api/... with the access token attached
#include "helper/bff_gateway.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

#include "helper/route_policy.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/bff_cookie.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/launch_url.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/token.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper {
namespace {

// [SECTION] answers -----------------------------------------------------------

HttpResponse json_answer(int status, const nlohmann::json& body) {
    HttpResponse out;
    out.status = status;
    out.headers.set("Content-Type", "application/json");
    out.headers.set("Cache-Control", std::string(cache_control(RouteClass::api)));
    out.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return out;
}

HttpResponse json_text_answer(int status, std::string body) {
    HttpResponse out;
    out.status = status;
    out.headers.set("Content-Type", "application/json");
    out.headers.set("Cache-Control", std::string(cache_control(RouteClass::api)));
    out.body = std::move(body);
    return out;
}

// Spec 2.7's shape, as the API's own errors (shared/'s ApiErrorBody).
HttpResponse errors_answer(int status, const std::string& message) {
    return json_text_answer(status, to_json(ApiErrorBody{{message}}));
}

// No session (any more): the page shows itself signed out.
HttpResponse no_session(const std::string& why, const BffCookieJar& jar) {
    HttpResponse out = errors_answer(401, "roomkey session: " + why + "; sign in again");
    out.headers.set(std::string(kBffSessionHeader), std::string(kBffNoSession));
    out.headers.add("Set-Cookie", jar.clear_session_cookie());
    return out;
}

// A cookie not opened: signed out (401, the cookie cleared), or, when the
// shared store of signed-out sessions cannot be asked, 503 with the cookie
// kept: the session may well be alive, and a guess either way is wrong.
HttpResponse refused(CookieRefusal why, const BffCookieJar& jar) {
    if (why == CookieRefusal::store_unreachable) return errors_answer(503, "roomkey session: " + describe(why));
    return no_session(describe(why), jar);
}

HttpResponse see_other(const std::string& location) {
    HttpResponse out;
    out.status = 303;
    out.headers.set("Location", location);
    out.headers.set("Cache-Control", "no-store");
    out.headers.set("Content-Type", "text/plain; charset=utf-8");
    out.body = "See " + location + "\n";
    return out;
}

// A failed sign-in goes back to the app with the reason in the fragment,
// which never reaches a server or its log.
HttpResponse sign_in_failed(const std::string& code, const std::string& description, const BffCookieJar& jar) {
    HttpResponse out = see_other(bff_error_address(code, description));
    out.headers.add("Set-Cookie", jar.clear_login_cookie());
    return out;
}

HttpResponse bad_login_request(const std::string& why) {
    HttpResponse out;
    out.status = 400;
    out.headers.set("Content-Type", "text/plain; charset=utf-8");
    out.headers.set("Cache-Control", "no-store");
    out.body = "roomkey sign-in: " + why + "\n";
    return out;
}

std::optional<std::string> query_of(const std::string& url) {
    const auto q = url.find('?');
    if (q == std::string::npos) return std::nullopt;
    return url.substr(q + 1);
}

std::optional<std::string> query_param(const std::string& url, std::string_view name) {
    const auto query = query_of(url);
    if (!query) return std::nullopt;
    auto fields = form_decode(*query);
    if (!fields) return std::nullopt;
    for (const auto& [k, v] : *fields) {
        if (k == name) return v;
    }
    return std::nullopt;
}

std::int64_t elapsed_ms(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

// [SECTION] token requests --------------------------------------------------------

// Makes a token request the session table asked for: the answer and its
// record (no secret can get in: it has no field for one).
TokenAnswer send_token_request(const UpstreamTransport& transport, const HttpRequest& request, GrantType grant,
                               Instant now) {
    TokenAnswer out;
    out.record.grant_type = grant;
    out.record.at = unix_seconds(now);
    const auto start = std::chrono::steady_clock::now();
    auto answer = transport(request);
    out.record.ms = elapsed_ms(start);
    if (!answer) {
        out.words = "the token endpoint could not be reached (" + std::string(to_string(answer.error())) + ")";
        return out;
    }
    out.record.status = answer->status;
    out.response = *answer;
    auto tokens = read_token_response(*answer, now);
    if (tokens) {
        out.record.scope = format_scope_list(tokens->scope);
        out.record.expires_in = tokens->expires_in;
        return out;
    }
    const TokenResponseError& e = tokens.error();
    if (e.kind == TokenResponseErrorKind::error_response && e.error) {
        out.record.error = e.error->error;
        out.words = "the token endpoint answered " + std::to_string(answer->status) + " " + e.error->error +
                    (e.error->description.empty() ? "" : ": " + e.error->description);
    } else {
        out.words = "the token endpoint's answer could not be used (" + std::string(to_string(e.kind)) +
                    (e.field.empty() ? "" : " " + e.field) + ")";
    }
    return out;
}

// The table's settings for a BFF session: the confidential client at the
// upstream token endpoint; a refresh names a scope only when one was asked for.
SessionConfig session_config(const BffGatewaySetup& setup) {
    SessionConfig c;
    c.token_url = setup.upstream.auth_url + "/token";
    c.credentials = ConfidentialClient{setup.upstream.client_id, setup.upstream.client_secret};
    c.refresh_ahead = kBffRefreshAhead;
    c.send_scope_on_refresh = false;
    return c;
}

}  // namespace

BffGateway::BffGateway(BffGatewaySetup setup)
    : setup_(std::move(setup)),
      jar_(setup_.keys, setup_.random),
      flight_(
          session_config(setup_),
          [this](const HttpRequest& request, GrantType grant) {
              return send_token_request(setup_.transport, request, grant, setup_.now());
          },
          [this] { return setup_.now(); }) {}

HttpResponse BffGateway::with_record(HttpResponse out, const std::optional<BffTokenRequest>& record) const {
    if (record) {
        out.headers.set(std::string(kBffTokenRequestHeader),
                        bff_token_request_json(*record, token_url(), setup_.redirect_uri));
    }
    return out;
}

// [SECTION] sign-in -------------------------------------------------------------

HttpResponse BffGateway::login(const HttpRequest& request) {
    // A navigation carries no custom header; Fetch Metadata tells a
    // navigation from this origin (or typed, bookmarked) from another site's.
    const std::string site = request.headers.get("sec-fetch-site").value_or("");
    if (!site.empty() && site != "same-origin" && site != "none") {
        return bad_login_request("sign-in must start from the app itself (Sec-Fetch-Site: " + site + ")");
    }
    const std::string mode = request.headers.get("sec-fetch-mode").value_or("");
    if (!mode.empty() && mode != "navigate") {
        return bad_login_request(std::string(kBffLoginPath) + " is a page to navigate to, not to fetch (Sec-Fetch-Mode: " +
                                 mode + ")");
    }
    std::string scope_text = query_param(request.url, "scope").value_or("");
    if (scope_text.find_first_not_of(' ') == std::string::npos) scope_text = setup_.upstream.scope;
    auto scopes = parse_scope_list(scope_text);
    if (!scopes) {
        if (scopes.error().kind == ScopeError::empty) {
            return bad_login_request("no scope asked for, and the helper has no default (--scope)");
        }
        std::string names;
        for (const auto& n : scopes.error().unknown) names += (names.empty() ? "" : ", ") + n;
        return bad_login_request("unknown scope: " + names + " (spec 5.5 lists the scopes)");
    }

    ClientConfig client;
    client.client_id = setup_.upstream.client_id;
    client.type = roomkey::ClientType::confidential;
    client.redirect_uris = {setup_.redirect_uri};
    AuthorizationRequest auth;
    auth.redirect_uri = setup_.redirect_uri;
    auth.scopes = *scopes;
    auth.state = make_state(setup_.random);
    auth.pkce = make_pkce(setup_.random);
    auto url = build_authorization_url(setup_.upstream.consent_url, client, auth);
    if (!url) return bad_login_request(url.error().message);
    const PendingAuthorization pending = make_pending(client, auth, setup_.now());
    HttpResponse out = see_other(*url);
    out.headers.add("Set-Cookie", jar_.login_cookie(pending));
    return out;
}

HttpResponse BffGateway::callback(const HttpRequest& request) {
    const Instant now = setup_.now();
    auto login = jar_.open_login(request.headers.get("cookie"), now);
    if (!login) {
        return sign_in_failed("login_expired",
                              "the sign-in was not started here or took longer than 10 minutes; sign in again", jar_);
    }
    std::optional<PendingAuthorization> pending = std::move(*login);
    const std::string landed = setup_.redirect_uri + (query_of(request.url) ? "?" + *query_of(request.url) : "");
    auto validated = validate_callback(landed, pending);
    if (!validated) {
        const CallbackError& e = validated.error();
        if (e.kind == CallbackErrorKind::state_missing || e.kind == CallbackErrorKind::state_mismatch) {
            return sign_in_failed("state_mismatch",
                                  "the answer from the consent screen does not belong to this sign-in; sign in again",
                                  jar_);
        }
        const std::string code = !e.error.empty() ? e.error : std::string(to_string(e.kind));
        std::string words = e.description;
        if (words.empty()) words = e.kind == CallbackErrorKind::access_denied ? "consent was refused" : code;
        return sign_in_failed(code, words, jar_);
    }

    auto signed_in = flight_.sign_in(*validated, make_bff_session_id(setup_.random));
    if (!signed_in) {
        const RefreshFailure& f = signed_in.error();
        const std::string code = f.record && !f.record->error.empty() ? f.record->error : "token_request_failed";
        return sign_in_failed(code, f.words, jar_);
    }
    BffSession session = std::move(*signed_in);
    HttpResponse out = see_other("/");
    out.headers.add("Set-Cookie", jar_.clear_login_cookie());
    out.headers.add("Set-Cookie", jar_.session_cookie(session, setup_.now()));
    return out;
}

// [SECTION] the session -------------------------------------------------------------

HttpResponse BffGateway::session(const HttpRequest& request) {
    const Instant now = setup_.now();
    auto opened = open(request, now);
    if (!opened && opened.error() == CookieRefusal::store_unreachable) return refused(opened.error(), jar_);
    if (!opened) {
        HttpResponse out = json_text_answer(200, bff_signed_out_body());
        if (opened.error() != CookieRefusal::absent) out.headers.add("Set-Cookie", jar_.clear_session_cookie());
        return out;
    }
    auto newest = flight_.newest(opened->session);
    if (!newest) {
        HttpResponse out = json_text_answer(200, bff_signed_out_body());
        out.headers.add("Set-Cookie", jar_.clear_session_cookie());
        return out;
    }
    HttpResponse out = json_text_answer(200, bff_session_body(*newest, now, token_url(), setup_.redirect_uri));
    if (opened->previous_key || newest->generation != opened->session.generation) {
        out.headers.add("Set-Cookie", jar_.session_cookie(*newest, now));
    }
    return out;
}

HttpResponse BffGateway::refresh(const HttpRequest& request) {
    const Instant now = setup_.now();
    auto opened = open(request, now);
    if (!opened) return refused(opened.error(), jar_);
    auto newest = flight_.newest(opened->session);
    if (!newest) return no_session(newest.error().words, jar_);

    std::optional<ScopeSet> scope;
    if (request.body.find_first_not_of(" \t\r\n") != std::string::npos) {
        const auto body = parse_json_text(request.body);
        const auto it = body.is_object() ? body.find("scope") : body.end();
        if (!body.is_object() || (it != body.end() && !it->is_string())) {
            return errors_answer(400, "the body is {\"scope\": \"<narrower scope>\"} or empty");
        }
        if (it != body.end() && it->get_ref<const std::string&>().find_first_not_of(' ') != std::string::npos) {
            auto parsed = parse_scope_list(it->get_ref<const std::string&>());
            if (!parsed) return errors_answer(400, "scope: names a scope outside spec 5.5");
            if (!is_subset_grant(*parsed, newest->scope)) {
                return errors_answer(400, "scope: a refresh can only narrow the grant (spec 4.3); granted: " +
                                              format_scope_list(newest->scope) +
                                              "; to add scopes, sign in again with them");
            }
            scope = std::move(*parsed);
        }
    }
    auto refreshed = flight_.refresh(*newest, scope);
    if (!refreshed) {
        const RefreshFailure& f = refreshed.error();
        if (f.session_ended) return with_record(no_session(f.words, jar_), f.record);
        return with_record(errors_answer(502, "roomkey session: " + f.words + "; try again"), f.record);
    }
    BffSession session = refreshed->session;
    HttpResponse out = json_text_answer(200, bff_session_body(session, setup_.now(), token_url(), setup_.redirect_uri));
    out.headers.add("Set-Cookie", jar_.session_cookie(session, setup_.now()));
    return with_record(std::move(out), refreshed->record);
}

Result<OpenedSession, CookieRefusal> BffGateway::open(const HttpRequest& request, Instant now) const {
    auto opened = jar_.open_session(request.headers.get("cookie"), now);
    if (opened && setup_.revocations) {
        const std::optional<bool> revoked = setup_.revocations->revoked(opened->session.id, now);
        if (!revoked) return Err{CookieRefusal::store_unreachable};
        if (*revoked) return Err{CookieRefusal::revoked};
    }
    return opened;
}

HttpResponse BffGateway::logout(const HttpRequest& request) {
    auto opened = open(request, setup_.now());
    if (!opened && opened.error() == CookieRefusal::store_unreachable) return refused(opened.error(), jar_);
    if (opened) {
        flight_.end(opened->session.id);
        // Until no copy of its cookie could be opened any more.
        const BffSession& s = opened->session;
        Instant until = s.valid_until;
        if (s.refresh_expires_at && *s.refresh_expires_at > until) until = *s.refresh_expires_at;
        // Not recorded where the other helpers look: the cookie stays, so
        // the user can sign out again once the store answers.
        if (setup_.revocations && !setup_.revocations->revoke(s.id, until)) {
            return errors_answer(503, "roomkey session: the sign-out could not be recorded in the helpers' shared "
                                      "session store, so other helpers would still take this cookie: try again "
                                      "shortly");
        }
    }
    HttpResponse out = json_answer(
        200, {{"signed_in", false},
              {"note",
               "roomkey forgot the tokens; the authorization itself stays granted at the service until it is "
               "revoked there"}});
    out.headers.add("Set-Cookie", jar_.clear_session_cookie());
    // The browser drops this origin's cookies and storage too: nothing the
    // session left in the page outlives the sign-out.
    out.headers.set("Clear-Site-Data", "\"cookies\", \"storage\"");
    return out;
}

// [SECTION] /api/... ------------------------------------------------------------------

HttpResponse BffGateway::api(const HttpRequest& request) {
    if (request.headers.get("authorization")) {
        return errors_answer(400,
                             "roomkey session: tokens are not accepted from the page in BFF mode (the helper "
                             "attaches the session's access token); send the request without Authorization");
    }
    // The API-token mode (spec 5.1) needs no session: the page holds the
    // token the user typed, as in the browser mode.
    if (request.headers.get(setup_.upstream.token_header)) return setup_.api(request);

    auto opened = open(request, setup_.now());
    if (!opened) return refused(opened.error(), jar_);
    // The session table says whether the token goes as it is, is refreshed
    // first (ahead of its expiry), or whether the session is over.
    auto cleared = flight_.send(opened->session);
    if (!cleared) {
        const RefreshFailure& f = cleared.error();
        if (f.session_ended) return with_record(no_session(f.words, jar_), f.record);
        return with_record(errors_answer(502, "roomkey session: the access token could not be renewed (" + f.words +
                                                  "); the request was not sent, so it is safe to send again"),
                           f.record);
    }
    Cleared sent = std::move(*cleared);
    std::optional<BffTokenRequest> made = sent.record;
    auto send = [&] {
        HttpRequest up = request;
        up.headers.remove("cookie");
        up.headers.set("Authorization", "Bearer " + sent.session.access_token);
        return setup_.api(up);
    };
    HttpResponse answer = send();
    // The service may end an access token early (revoked, or its clock
    // ahead of ours): one refresh and one retry (spec 5.2.2); a 401 after
    // that, or when no newer token came, is relayed as it came.
    if (answer.status == 401) {
        auto retry = flight_.unauthorized(sent);
        if (retry) {
            sent = std::move(*retry);
            if (sent.record) made = sent.record;
            answer = send();
        } else {
            const RefreshFailure& f = retry.error();
            if (f.record) made = f.record;
            if (f.session_ended) {
                return with_record(no_session(f.words, jar_), made);
            }
        }
    }
    answer = with_record(std::move(answer), made);
    if (opened->previous_key || sent.session.generation != opened->session.generation) {
        answer.headers.add("Set-Cookie", jar_.session_cookie(sent.session, setup_.now()));
    }
    return answer;
}

}  // namespace roomkey::helper
