// pages_auth.cpp: the consent screen of spec 4.2 with its login screen, and
// the spec 7.1 error page. Plain HTML forms; state-changing POSTs carry the
// session's CSRF token; outcomes go back with 303 to a redirect URI verified
// when the request came in and again when the decision is made.
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

std::string scope_items(const ScopeSet& scopes) {
    std::string out = "<ul>";
    for (const auto& name : scopes) {
        const ScopeInfo* info = find_scope(name);
        out += "<li><strong>" + html_escape(info ? info->allows : std::string_view("Unknown permission.")) +
               "</strong> <code>" + html_escape(name) + "</code>";
        if (info && info->aggregate()) {
            out += " (includes";
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
    std::string body = "<h1>Authorization error</h1><div class=\"error\"><p>error_code: <strong id=\"error-code\">" +
                       std::to_string(to_number(code)) + "</strong> (<code>" + html_escape(i.identifier) +
                       "</code>)</p><p id=\"error-description\">" + html_escape(description) + "</p></div><p>" +
                       html_escape(i.remedy) + "</p>";
    if (back_to) {
        body += "<p><a id=\"back-to-client\" href=\"" + html_escape(*back_to) +
                "\">Return to the application</a> (it receives the error).</p>";
    }
    return html_response(status, html_page("Authorization error", body));
}

HttpResponse SandboxApp::index_page(const RequestContext&) {
    std::string body =
        "<h1>roomkey sandbox</h1><p>A strict local stand-in for the chat service. Addresses:</p><ul>"
        "<li>REST API: <code>/v2</code> (base_url)</li><li>Token endpoint: <code>/oauth/token</code> (auth_url + "
        "/token)</li><li>Consent screen: <code>/consent</code> (consent_url)</li></ul>"
        "<p><a href=\"/clients\">Manage OAuth clients</a> &middot; <a href=\"/clients/new\">Register a new "
        "client</a></p><h2>Demo accounts</h2><table><tr><th>account_id</th><th>name</th><th>login</th></tr>";
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [id, a] : chat_.accounts()) {
        body += "<tr><td>" + std::to_string(id) + "</td><td>" + html_escape(a.name) + "</td><td>" +
                html_escape(a.login_mail) + "</td></tr>";
    }
    body += "</table><p>Passwords and API tokens are listed in docs/sandbox.md and by "
            "<code>roomkey-sandbox --help</code>.</p>";
    return html_response(200, html_page("Sandbox", body));
}

HttpResponse SandboxApp::login_page(int status, std::string_view request_id, std::string_view next,
                                    std::string_view error) {
    std::string body = "<h1>Log in</h1>";
    if (!request_id.empty()) body += "<p>An application asks for access to your account. Log in first.</p>";
    if (!error.empty()) body += "<p class=\"error\" id=\"login-error\">" + html_escape(error) + "</p>";
    body += "<form method=\"post\" action=\"/login\">";
    if (!request_id.empty()) body += hidden_field("request", request_id);
    if (!next.empty()) body += hidden_field("next", next);
    body +=
        "<label for=\"login\">Mail address or account ID</label><input type=\"text\" id=\"login\" name=\"login\" "
        "autocomplete=\"username\" required autofocus><label for=\"password\">Password</label><input "
        "type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" required>"
        "<div><button type=\"submit\" name=\"action\" value=\"login\">Log in</button>";
    if (!request_id.empty()) {
        body += "<button type=\"submit\" name=\"action\" value=\"cancel\" formnovalidate>Cancel</button>";
    }
    body += "</div></form><p>This login screen does not support SAML. SAML users log in through the normal login "
            "screen first and then open the consent screen again.</p>";
    return html_response(status, html_page("Log in", body));
}

HttpResponse SandboxApp::consent_page(const ReservedAuthorization& reserved, std::string_view reservation_id,
                                      const LoginSession& session) {
    const ValidatedAuthorization& r = reserved.request;
    const RegisteredClient* client = oauth_.client(r.client_id);
    const Account* account = chat_.account(session.account);
    std::string body = "<h1>Allow access?</h1><p><strong id=\"client-name\">" +
                       html_escape(client ? client->name : r.client_id) +
                       "</strong> asks for access to the account of <strong>" +
                       html_escape(account ? account->name : std::string("?")) + "</strong>" +
                       " (account_id " + std::to_string(session.account) + "). It will be able to:</p>" +
                       scope_items(r.scopes);
    if (r.scopes.count(std::string(kOfflineAccessScope)) != 0) {
        body += "<p>With <code>offline_access</code> it keeps this access while you are away, until you revoke it.</p>";
    }
    body += "<p>You will be sent back to <code>" + html_escape(r.redirect_uri) + "</code>.</p>"
            "<form method=\"post\" action=\"/consent\">" +
            hidden_field("request", reservation_id) + hidden_field("csrf", session.csrf) +
            "<button type=\"submit\" name=\"decision\" value=\"allow\" id=\"allow\">Allow</button>"
            "<button type=\"submit\" name=\"decision\" value=\"deny\" id=\"deny\">Deny</button></form>";
    return html_response(200, html_page("Allow access", body));
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
    auto bad_form = [] {
        return html_response(400, html_page("Bad request", "<h1>Bad request</h1><p>The consent form was not "
                                                           "submitted as a form.</p>"));
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
        return html_response(403, html_page("Form expired", "<h1>Form expired</h1><p>This form does not belong to "
                                                            "your session. Go back to the application and start "
                                                            "again.</p>"));
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
    if (!has_form_content_type(ctx.request.headers)) {
        return html_response(400, html_page("Bad request", "<h1>Bad request</h1><p>Not a form.</p>"));
    }
    const auto form = decode_form(ctx.request.body);
    if (!form) return html_response(400, html_page("Bad request", "<h1>Bad request</h1><p>Not a form.</p>"));
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
                          "The mail address, account ID or password is wrong.");
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
