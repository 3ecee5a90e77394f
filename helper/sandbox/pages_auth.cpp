// pages_auth.cpp: the consent screen of spec 4.2 with its login screen, and
// the spec 7.1 error page. Plain HTML forms; state-changing POSTs carry the
// session's CSRF token; outcomes go back with 303 to a redirect URI verified
// when the request came in and again when the decision is made.
#include "app/i18n.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/pkce.hpp"
#include "sandbox/app.hpp"
#include "sandbox/html.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

std::string session_cookie(std::string_view id) {
    return std::string(kSessionCookie) + "=" + std::string(id) +
           "; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=" + std::to_string(kSessionLifetime.count());
}

// Only local screens may follow a login (no open redirect through ?next=).
std::string safe_next(std::string_view next) {
    for (const char* allowed : {"/clients", "/clients/new"}) {
        if (next == allowed) return allowed;
    }
    return "/";
}

HttpResponse not_a_form_page() {
    return html_response(400, html_page(app::tr("sandbox.bad_request"),
                                        "<h1>" + html_escape(app::tr("sandbox.bad_request")) + "</h1><p>" +
                                            html_escape(app::tr("sandbox.not_a_form")) + "</p>"));
}

std::string scope_items(const ScopeSet& scopes) {
    std::string out = "<ul>";
    for (const auto& name : scopes) {
        const ScopeInfo* info = find_scope(name);
        out += "<li><strong>" + html_escape(app::i18n::scope_words(name)) +
               "</strong> <code>" + html_escape(name) + "</code>";
        if (info && info->aggregate()) {
            out += " (" + std::string(app::tr("sandbox.includes"));
            for (const auto& inc : info->includes) out += " <code>" + html_escape(inc) + "</code>";
            out += ")";
        }
        out += "</li>";
    }
    return out + "</ul>";
}

}  // namespace

const LoginSession* SandboxApp::current_session(const RequestContext& ctx) const {
    const auto id = cookie_value(ctx.request.headers, kSessionCookie);
    if (!id) return nullptr;
    return oauth_.session(*id, ctx.now);
}

HttpResponse SandboxApp::authorization_error_page(int status, AuthorizationErrorCode code,
                                                  std::string_view description,
                                                  const std::optional<std::string>& back_to) {
    const AuthorizationErrorInfo& i = info(code);
    std::string body = "<h1>" + html_escape(app::tr("sandbox.auth_error.title")) +
                       "</h1><div class=\"error\"><p>error_code: <strong id=\"error-code\">" +
                       std::to_string(to_number(code)) + "</strong> (<code>" + html_escape(i.identifier) +
                       "</code>)</p><p id=\"error-description\">" + html_escape(description) + "</p></div><p>" +
                       html_escape(app::tr("auth_error." + std::string(i.identifier) + ".remedy")) + "</p>";
    if (back_to) {
        body += "<p><a id=\"back-to-client\" href=\"" + html_escape(*back_to) +
                "\">" + html_escape(app::tr("sandbox.auth_error.back")) + "</a> " +
                html_escape(app::tr("sandbox.auth_error.back_note")) + "</p>";
    }
    return html_response(status, html_page(app::tr("sandbox.auth_error.title"), body));
}

HttpResponse SandboxApp::index_page(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    auto words = [](const char* key) { return html_escape(app::tr(key)); };
    std::string body = "<h1>roomkey sandbox</h1><p>" + words("sandbox.index.intro") + "</p><ul><li>" +
                       words("sandbox.index.rest_api") + ": <code>/v2</code> (base_url)</li><li>" +
                       words("sandbox.index.token_endpoint") + ": <code>/oauth/token</code> (auth_url + /token)</li><li>" +
                       words("sandbox.index.consent_screen") + ": <code>/consent</code> (consent_url)</li></ul>" +
                       "<p><a href=\"/clients\">" + words("sandbox.index.manage_clients") +
                       "</a> &middot; <a href=\"/clients/new\">" + words("sandbox.index.register_client") +
                       "</a></p><h2>" + words("sandbox.index.demo_accounts") +
                       "</h2><table><tr><th>account_id</th><th>name</th><th>login</th></tr>";
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [id, a] : chat_.accounts()) {
        body += "<tr><td>" + std::to_string(id) + "</td><td>" + html_escape(a.name) + "</td><td>" +
                html_escape(a.login_mail) + "</td></tr>";
    }
    body += "</table><p>" + words("sandbox.index.passwords") + " <code>roomkey-sandbox --help</code></p>";
    return html_response(200, html_page(app::tr("sandbox.index.title"), body));
}

HttpResponse SandboxApp::login_page(int status, std::string_view request_id, std::string_view next,
                                    std::string_view error) {
    auto words = [](const char* key) { return html_escape(app::tr(key)); };
    std::string body = "<h1>" + words("sandbox.login.title") + "</h1>";
    if (!request_id.empty()) body += "<p>" + words("sandbox.login.asks") + "</p>";
    if (!error.empty()) body += "<p class=\"error\" id=\"login-error\">" + html_escape(error) + "</p>";
    body += "<form method=\"post\" action=\"/login\">";
    if (!request_id.empty()) body += hidden_field("request", request_id);
    if (!next.empty()) body += hidden_field("next", next);
    body += "<label for=\"login\">" + words("sandbox.login.login") +
            "</label><input type=\"text\" id=\"login\" name=\"login\" autocomplete=\"username\" required autofocus>"
            "<label for=\"password\">" + words("sandbox.login.password") +
            "</label><input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" "
            "required><div><button type=\"submit\" name=\"action\" value=\"login\">" + words("sandbox.login.button") +
            "</button>";
    if (!request_id.empty()) {
        body += "<button type=\"submit\" name=\"action\" value=\"cancel\" formnovalidate>" +
                words("sandbox.cancel") + "</button>";
    }
    body += "</div></form><p>" + words("sandbox.login.saml") + "</p>";
    return html_response(status, html_page(app::tr("sandbox.login.title"), body));
}

HttpResponse SandboxApp::consent_page(const ReservedAuthorization& reserved, std::string_view reservation_id,
                                      const LoginSession& session) {
    const ValidatedAuthorization& r = reserved.request;
    const RegisteredClient* client = oauth_.client(r.client_id);
    const Account* account = chat_.account(session.account);
    auto words = [](const char* key) { return html_escape(app::tr(key)); };
    // The values go in escaped and marked up; the words around them are the catalog's.
    const std::string asks = html_escape(app::tr(
        "sandbox.consent.asks", {{"client", "\x01"}, {"account", "\x02"}, {"id", std::to_string(session.account)}}));
    std::string asks_html = asks;
    asks_html.replace(asks_html.find('\x01'), 1,
                      "<strong id=\"client-name\">" + html_escape(client ? client->name : r.client_id) + "</strong>");
    asks_html.replace(asks_html.find('\x02'), 1,
                      "<strong>" + html_escape(account ? account->name : std::string("?")) + "</strong>");
    std::string body = "<h1>" + words("sandbox.consent.heading") + "</h1><p>" + asks_html + "</p>" +
                       scope_items(r.scopes);
    if (r.scopes.count(std::string(kOfflineAccessScope)) != 0) {
        body += "<p><code>offline_access</code>: " + words("sandbox.consent.offline") + "</p>";
    }
    body += "<p>" + words("sandbox.consent.sent_back") + " <code>" + html_escape(r.redirect_uri) + "</code></p>" +
            "<form method=\"post\" action=\"/consent\">" + hidden_field("request", reservation_id) +
            hidden_field("csrf", session.csrf) +
            "<button type=\"submit\" name=\"decision\" value=\"allow\" id=\"allow\">" + words("sandbox.consent.allow") +
            "</button><button type=\"submit\" name=\"decision\" value=\"deny\" id=\"deny\">" +
            words("sandbox.consent.deny") + "</button></form>";
    return html_response(200, html_page(app::tr("sandbox.consent.title"), body));
}

std::optional<HttpResponse> SandboxApp::redirect_refusal(const ValidatedAuthorization& request) {
    // The client may have been deleted (or re-registered with other URIs)
    // while its consent screen was open: check again, never redirect blind.
    if (!oauth_.client(request.client_id)) {
        return authorization_error_page(400, AuthorizationErrorCode::client_id_unknown,
                                        describe(AuthorizationErrorCode::client_id_unknown, request.client_id),
                                        std::nullopt);
    }
    if (!oauth_.redirect_registered(request.client_id, request.redirect_uri)) {
        return authorization_error_page(400, AuthorizationErrorCode::redirect_uri_unregistered,
                                        describe(AuthorizationErrorCode::redirect_uri_unregistered), std::nullopt);
    }
    return std::nullopt;
}

HttpResponse SandboxApp::consent_get(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    std::lock_guard<std::mutex> lock(mutex_);
    // Back from the login screen: the request was validated and reserved then.
    if (const auto reservation = form_get(ctx.query, "request")) {
        const ReservedAuthorization* reserved = oauth_.reserved(*reservation, ctx.now);
        if (!reserved) {
            return authorization_error_page(400, AuthorizationErrorCode::reserved_request_not_found,
                                            describe(AuthorizationErrorCode::reserved_request_not_found),
                                            std::nullopt);
        }
        const LoginSession* session = current_session(ctx);
        if (!session) return redirect_response("/login?" + form_encode({{"request", *reservation}}));
        return consent_page(*reserved, *reservation, *session);
    }
    // Spec 4.2 / 7.1: every rule lives in shared/.
    auto validated = validate_authorization_request(ctx.query, [this](std::string_view id) -> const ClientConfig* {
        const RegisteredClient* c = oauth_.client(id);
        return c ? &c->config : nullptr;
    });
    if (!validated) {
        const AuthorizationRejection& rejection = validated.error();
        return authorization_error_page(400, rejection.code, rejection.description, rejection.redirect_to);
    }
    const std::string reservation = oauth_.reserve(validated.value(), ctx.now);
    const LoginSession* session = current_session(ctx);
    if (!session) return redirect_response("/login?" + form_encode({{"request", reservation}}));
    return consent_page(*oauth_.reserved(reservation, ctx.now), reservation, *session);
}

HttpResponse SandboxApp::consent_post(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    auto bad_form = [] {
        return html_response(400, html_page(app::tr("sandbox.bad_request"),
                                            "<h1>" + html_escape(app::tr("sandbox.bad_request")) + "</h1><p>" +
                                                html_escape(app::tr("sandbox.consent.not_a_form")) + "</p>"));
    };
    if (!has_form_content_type(ctx.request.headers)) return bad_form();
    const auto form = decode_form(ctx.request.body);
    if (!form) return bad_form();
    const std::string reservation = form_get(*form, "request").value_or("");
    const std::string decision = form_get(*form, "decision").value_or("");
    const std::string csrf = form_get(*form, "csrf").value_or("");
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) {
        if (!oauth_.reserved(reservation, ctx.now)) {
            return authorization_error_page(400, AuthorizationErrorCode::reserved_request_not_found,
                                            describe(AuthorizationErrorCode::reserved_request_not_found),
                                            std::nullopt);
        }
        return redirect_response("/login?" + form_encode({{"request", reservation}}));
    }
    if (!constant_time_equals(csrf, session->csrf)) {
        return html_response(403, html_page(app::tr("sandbox.form_expired"),
                                            "<h1>" + html_escape(app::tr("sandbox.form_expired")) + "</h1><p>" +
                                                html_escape(app::tr("sandbox.consent.form_expired")) + "</p>"));
    }
    if (decision != "allow" && decision != "deny") return bad_form();
    const auto request = oauth_.take_reserved(reservation, ctx.now);
    if (!request) {
        return authorization_error_page(400, AuthorizationErrorCode::reserved_request_not_found,
                                        describe(AuthorizationErrorCode::reserved_request_not_found), std::nullopt);
    }
    if (auto refused = redirect_refusal(*request)) return *refused;
    if (decision == "deny") return redirect_response(deny_redirect(*request));  // spec 4.2, 7.1 3001
    const std::string code = oauth_.issue_code(*request, session->account, ctx.now);
    return redirect_response(allow_redirect(*request, code));
}

HttpResponse SandboxApp::login_get(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    const std::string reservation = form_get(ctx.query, "request").value_or("");
    const std::string next = form_get(ctx.query, "next").value_or("");
    std::lock_guard<std::mutex> lock(mutex_);
    if (!reservation.empty()) {
        if (!oauth_.reserved(reservation, ctx.now)) {
            return authorization_error_page(400, AuthorizationErrorCode::reserved_request_not_found,
                                            describe(AuthorizationErrorCode::reserved_request_not_found),
                                            std::nullopt);
        }
        if (current_session(ctx)) return redirect_response("/consent?" + form_encode({{"request", reservation}}));
    }
    return login_page(200, reservation, next.empty() ? next : safe_next(next), {});
}

HttpResponse SandboxApp::login_post(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    const auto form = has_form_content_type(ctx.request.headers) ? decode_form(ctx.request.body) : std::nullopt;
    if (!form) return not_a_form_page();
    const std::string reservation = form_get(*form, "request").value_or("");
    const std::string next = form_get(*form, "next").value_or("");
    const std::string action = form_get(*form, "action").value_or("login");
    std::lock_guard<std::mutex> lock(mutex_);
    auto missing_reservation = [this] {
        return authorization_error_page(400, AuthorizationErrorCode::reserved_request_not_found,
                                        describe(AuthorizationErrorCode::reserved_request_not_found), std::nullopt);
    };
    if (action == "cancel") {
        if (reservation.empty()) return redirect_response("/");
        // Spec 7.1 3001: the owner denied at the login screen.
        const auto request = oauth_.take_reserved(reservation, ctx.now);
        if (!request) return missing_reservation();
        if (auto refused = redirect_refusal(*request)) return *refused;
        return redirect_response(deny_redirect(*request));
    }
    if (!reservation.empty() && !oauth_.reserved(reservation, ctx.now)) return missing_reservation();
    const Account* account = chat_.account_by_login(form_get(*form, "login").value_or(""));
    const std::string password = form_get(*form, "password").value_or("");
    // Compare even for an unknown login so timing does not reveal which logins exist.
    const bool password_ok = constant_time_equals(account ? account->password : std::string("\x01"), password);
    if (!account || !password_ok) {
        return login_page(200, reservation, next.empty() ? next : safe_next(next),
                          app::tr("sandbox.login.wrong"));
    }
    const std::string session_id = oauth_.open_session(account->account_id, ctx.now);
    HttpResponse response = redirect_response(
        reservation.empty() ? safe_next(next) : "/consent?" + form_encode({{"request", reservation}}));
    response.headers.add("Set-Cookie", session_cookie(session_id));
    return response;
}

HttpResponse SandboxApp::logout_post(const RequestContext& ctx) {
    const auto form = has_form_content_type(ctx.request.headers) ? decode_form(ctx.request.body) : std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto id = cookie_value(ctx.request.headers, kSessionCookie);
    const LoginSession* session = current_session(ctx);
    if (session && form && constant_time_equals(form_get(*form, "csrf").value_or(""), session->csrf)) {
        oauth_.close_session(*id);
    }
    HttpResponse response = redirect_response("/");
    response.headers.add("Set-Cookie", std::string(kSessionCookie) + "=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0");
    return response;
}

}  // namespace roomkey::sandbox
