// pages_clients.cpp: the client creation and client management screens of
// spec 2.1 (HTML forms, no JavaScript). The rules are shared/'s
// check_registration; every violation is shown at once. Every logged-in
// demo user sees every client, but only the user who registered a client
// sees its secret and may delete it; clients registered at start-up (flags,
// config file, the web app's) belong to no one and are read-only here.
#include <algorithm>

#include "roomkey/pkce.hpp"
#include "roomkey/registration.hpp"
#include "sandbox/app.hpp"
#include "sandbox/client_form.hpp"
#include "sandbox/html.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

HttpResponse login_first(std::string_view next) {
    return redirect_response("/login?" + form_encode({{"next", std::string(next)}}));
}

std::string client_path(std::string_view id) { return "/clients/" + percent_encode(id); }

// Owner 0 marks a start-up client: no screen user owns it.
bool owns(const RegisteredClient& client, const LoginSession& session) {
    return client.owner != 0 && client.owner == session.account;
}

std::string list_items(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += "<code>" + html_escape(i) + "</code><br>";
    return out;
}

}  // namespace

HttpResponse SandboxApp::client_form(int status, const LoginSession& session, const ClientRegistration& values,
                                     const std::vector<std::string>& problems) {
    std::string body = "<h1>Register a client</h1>";
    if (!problems.empty()) {
        body += "<div class=\"error\" id=\"problems\"><p>The client was not registered:</p><ul>";
        for (const auto& p : problems) body += "<li>" + html_escape(p) + "</li>";
        body += "</ul></div>";
    }
    std::string uris;
    for (const auto& u : values.redirect_uris) uris += u + "\n";
    const bool confidential = values.type == ClientType::confidential;
    body += "<form method=\"post\" action=\"/clients\">" + hidden_field("csrf", session.csrf) +
            "<label for=\"name\">Client name</label><input type=\"text\" id=\"name\" name=\"name\" value=\"" +
            html_escape(values.name) +
            "\" required><label>Client type</label>"
            "<input type=\"radio\" id=\"type-public\" name=\"type\" value=\"public\"" +
            (confidential ? "" : " checked") +
            "> <span>Public (browser or mobile app: cannot keep a secret; PKCE required)</span><br>"
            "<input type=\"radio\" id=\"type-confidential\" name=\"type\" value=\"confidential\"" +
            (confidential ? " checked" : "") +
            "> <span>Confidential (server application: keeps a client secret)</span>"
            "<label for=\"redirect_uris\">Redirect URIs (1 to 5, one per line; confidential: https:// only; "
            "public: no http://)</label><textarea id=\"redirect_uris\" name=\"redirect_uris\" rows=\"4\">" +
            html_escape(uris) + "</textarea><label>Scopes (at least one)</label>";
    for (const auto& scope : scope_catalog()) {
        const bool checked = std::find(values.scopes.begin(), values.scopes.end(), scope.name) != values.scopes.end();
        body += "<input type=\"checkbox\" name=\"scope\" value=\"" + html_escape(scope.name) + "\"" +
                (checked ? " checked" : "") + "> <code>" + html_escape(scope.name) + "</code> " +
                html_escape(scope.allows) + "<br>";
    }
    body += "<p><code>offline_access</code> only for confidential clients, and never alone.</p>"
            "<button type=\"submit\">Register</button></form><p><a href=\"/clients\">Back to the list</a></p>";
    return html_response(status, html_page("Register a client", body));
}

HttpResponse SandboxApp::clients_list(const RequestContext& ctx) {
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients");
    std::string body = "<h1>OAuth clients</h1><p><a href=\"/clients/new\">Register a new client</a></p>"
                       "<table id=\"clients\"><tr><th>name</th><th>client ID</th><th>type</th><th>redirect URIs</th></tr>";
    for (const RegisteredClient* c : oauth_.clients()) {
        body += "<tr><td><a href=\"" + html_escape(client_path(c->config.client_id)) + "\">" + html_escape(c->name) +
                "</a></td><td><code>" + html_escape(c->config.client_id) + "</code></td><td>" +
                html_escape(to_string(c->config.type)) + "</td><td>" + list_items(c->config.redirect_uris) +
                "</td></tr>";
    }
    body += "</table><form method=\"post\" action=\"/logout\">" + hidden_field("csrf", session->csrf) +
            "<button type=\"submit\">Log out</button></form>";
    return html_response(200, html_page("OAuth clients", body));
}

HttpResponse SandboxApp::clients_new(const RequestContext& ctx) {
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients/new");
    return client_form(200, *session, ClientRegistration{}, {});
}

HttpResponse SandboxApp::clients_create(const RequestContext& ctx) {
    const auto form = has_form_content_type(ctx.request.headers) ? decode_form(ctx.request.body) : std::nullopt;
    if (!form) return html_response(400, html_page("Bad request", "<h1>Bad request</h1><p>Not a form.</p>"));
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients/new");
    if (!constant_time_equals(form_get(*form, "csrf").value_or(""), session->csrf)) {
        return html_response(403, html_page("Form expired", "<h1>Form expired</h1><p><a href=\"/clients/new\">Open "
                                                            "the form again</a>.</p>"));
    }
    ClientForm read = read_client_form(*form);
    ClientRegistration& reg = read.registration;
    std::vector<std::string>& problems = read.problems;
    if (problems.empty()) {
        auto registered = oauth_.register_client(reg, {}, {}, session->account, ctx.now);
        if (registered) return redirect_response(client_path(registered.value()->config.client_id));
        for (const auto& v : registered.error().violations) {
            std::string text(user_message(v.kind));
            if (!v.detail.empty()) text += " (" + v.detail + ")";
            problems.push_back(std::move(text));
        }
        if (!registered.error().message.empty()) problems.push_back(registered.error().message);
    }
    return client_form(400, *session, reg, problems);
}

HttpResponse SandboxApp::clients_item(const RequestContext& ctx) {
    const auto id = percent_decode(std::string_view(ctx.path).substr(std::string_view("/clients/").size()));
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients");
    const RegisteredClient* c = id ? oauth_.client(*id) : nullptr;
    if (!c) return html_response(404, html_page("No such client", "<h1>No such client</h1><p><a href=\"/clients\">"
                                                                   "Back to the list</a></p>"));
    std::string scopes;
    for (const auto& s : c->config.scopes) scopes += "<code>" + html_escape(s) + "</code> ";
    std::string body = "<h1>" + html_escape(c->name) + "</h1><table><tr><th>client ID</th><td class=\"secret\" "
                       "id=\"client-id\">" + html_escape(c->config.client_id) + "</td></tr><tr><th>client type</th>"
                       "<td id=\"client-type\">" + html_escape(to_string(c->config.type)) + "</td></tr>";
    const bool owner = owns(*c, *session);
    if (c->config.type == ClientType::confidential) {
        body += owner ? "<tr><th>client secret</th><td class=\"secret\" id=\"client-secret\">" +
                            html_escape(c->secret) + "</td></tr>"
                      : std::string(
                            "<tr><th>client secret</th><td id=\"client-secret-hidden\">shown only to the "
                            "user who registered this client</td></tr>");
    }
    body += "<tr><th>redirect URIs</th><td>" + list_items(c->config.redirect_uris) + "</td></tr><tr><th>scopes</th>"
            "<td>" + scopes + "</td></tr></table>";
    if (c->config.type == ClientType::confidential) {
        body += "<p>Use the secret as the Basic authentication password at the token endpoint. Keep it on the "
                "server; never put it in a browser app.</p>";
    } else {
        body += "<p>A public client has no secret: it sends <code>client_id</code> to the token endpoint and must "
                "use PKCE (S256).</p>";
    }
    if (owner) {
        body += "<form method=\"post\" action=\"" + html_escape(client_path(c->config.client_id)) + "/delete\">" +
                hidden_field("csrf", session->csrf) +
                "<button type=\"submit\" id=\"delete-client\">Delete this client (revokes its tokens)</button>"
                "</form>";
    } else if (c->owner == 0) {
        body += "<p>Registered at start-up (flag or config file): read-only here.</p>";
    } else {
        body += "<p>Registered by another user: only they can see its secret or delete it.</p>";
    }
    body += "<p><a href=\"/clients\">Back to the list</a></p>";
    return html_response(200, html_page(c->name, body));
}

HttpResponse SandboxApp::clients_item_post(const RequestContext& ctx) {
    std::string_view rest = std::string_view(ctx.path).substr(std::string_view("/clients/").size());
    constexpr std::string_view kDelete = "/delete";
    if (rest.size() <= kDelete.size() || rest.substr(rest.size() - kDelete.size()) != kDelete) {
        return html_response(404, html_page("Not found", "<h1>Not found</h1>"));
    }
    const auto id = percent_decode(rest.substr(0, rest.size() - kDelete.size()));
    const auto form = has_form_content_type(ctx.request.headers) ? decode_form(ctx.request.body) : std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients");
    if (!form || !constant_time_equals(form_get(*form, "csrf").value_or(""), session->csrf)) {
        return html_response(403, html_page("Form expired", "<h1>Form expired</h1>"));
    }
    const RegisteredClient* c = id ? oauth_.client(*id) : nullptr;
    if (!c) return html_response(404, html_page("No such client", "<h1>No such client</h1>"));
    if (!owns(*c, *session)) {
        return html_response(403, html_page("Not yours",
                                            "<h1>Not yours</h1><p>Only the user who registered this "
                                            "client can delete it; clients registered at start-up "
                                            "cannot be deleted here.</p>"));
    }
    oauth_.remove_client(*id);
    return redirect_response("/clients");
}

}  // namespace roomkey::sandbox
