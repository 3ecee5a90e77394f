// pages_clients.cpp: the client creation and client management screens of
// spec 2.1 (HTML forms, no JavaScript). The rules are shared/'s
// check_registration; every violation is shown at once. Every logged-in
// demo user sees every client, but only the user who registered a client
// sees its secret and may delete it; clients registered at start-up (flags,
// config file, the web app's) belong to no one and are read-only here.
#include <algorithm>

#include "app/i18n.hpp"
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

// The page's words, escaped, in the request's language (use_page_language).
std::string t(std::string_view key) { return html_escape(app::tr(key)); }

// A text whose {name} stands for a wire name, shown as code.
std::string t_code(std::string_view key, std::string_view name) {
    std::string text = t(key);
    const std::string mark = "{" + std::string(name) + "}";
    if (const auto at = text.find(mark); at != std::string::npos) {
        text.replace(at, mark.size(), "<code>" + std::string(name) + "</code>");
    }
    return text;
}

std::string list_items(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += "<code>" + html_escape(i) + "</code><br>";
    return out;
}

}  // namespace

HttpResponse SandboxApp::client_form(int status, const LoginSession& session, const ClientRegistration& values,
                                     const std::vector<std::string>& problems) {
    std::string body = "<h1>" + t("sandbox.clients.register_title") + "</h1>";
    if (!problems.empty()) {
        body += "<div class=\"error\" id=\"problems\"><p>" + t("sandbox.clients.not_registered") + "</p><ul>";
        for (const auto& p : problems) body += "<li>" + html_escape(p) + "</li>";
        body += "</ul></div>";
    }
    std::string uris;
    for (const auto& u : values.redirect_uris) uris += u + "\n";
    const bool confidential = values.type == ClientType::confidential;
    body += "<form method=\"post\" action=\"/clients\">" + hidden_field("csrf", session.csrf) +
            "<label for=\"name\">" + t("sandbox.clients.name") +
            "</label><input type=\"text\" id=\"name\" name=\"name\" value=\"" + html_escape(values.name) +
            "\" required><label>" + t("sandbox.clients.type") +
            "</label><input type=\"radio\" id=\"type-public\" name=\"type\" value=\"public\"" +
            (confidential ? "" : " checked") + "> <span>" + t("sandbox.clients.public") +
            "</span><br><input type=\"radio\" id=\"type-confidential\" name=\"type\" value=\"confidential\"" +
            (confidential ? " checked" : "") + "> <span>" + t("sandbox.clients.confidential") +
            "</span><label for=\"redirect_uris\">" + t("sandbox.clients.redirect_uris_label") +
            "</label><textarea id=\"redirect_uris\" name=\"redirect_uris\" rows=\"4\">" + html_escape(uris) +
            "</textarea><label>" + t("sandbox.clients.scopes_label") + "</label>";
    for (const auto& scope : scope_catalog()) {
        const bool checked = std::find(values.scopes.begin(), values.scopes.end(), scope.name) != values.scopes.end();
        body += "<input type=\"checkbox\" name=\"scope\" value=\"" + html_escape(scope.name) + "\"" +
                (checked ? " checked" : "") + "> <code>" + html_escape(scope.name) + "</code> " +
                html_escape(app::i18n::scope_words(scope.name)) + "<br>";
    }
    body += "<p>" + t_code("sandbox.clients.offline_note", "offline_access") + "</p><button type=\"submit\">" +
            t("sandbox.clients.register") + "</button></form><p><a href=\"/clients\">" + t("sandbox.clients.back") +
            "</a></p>";
    return html_response(status, html_page(app::tr("sandbox.clients.register_title"), body));
}

HttpResponse SandboxApp::clients_list(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients");
    std::string body = "<h1>" + t("sandbox.clients.list_title") + "</h1><p><a href=\"/clients/new\">" +
                       t("sandbox.index.register_client") + "</a></p><table id=\"clients\"><tr><th>" +
                       t("sandbox.clients.col_name") + "</th><th>" + t("sandbox.clients.col_id") + "</th><th>" +
                       t("sandbox.clients.col_type") + "</th><th>" + t("sandbox.clients.col_uris") + "</th></tr>";
    for (const RegisteredClient* c : oauth_.clients()) {
        body += "<tr><td><a href=\"" + html_escape(client_path(c->config.client_id)) + "\">" + html_escape(c->name) +
                "</a></td><td><code>" + html_escape(c->config.client_id) + "</code></td><td>" +
                html_escape(to_string(c->config.type)) + "</td><td>" + list_items(c->config.redirect_uris) +
                "</td></tr>";
    }
    body += "</table><form method=\"post\" action=\"/logout\">" + hidden_field("csrf", session->csrf) +
            "<button type=\"submit\">" + t("sandbox.clients.log_out") + "</button></form>";
    return html_response(200, html_page(app::tr("sandbox.clients.list_title"), body));
}

HttpResponse SandboxApp::clients_new(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients/new");
    return client_form(200, *session, ClientRegistration{}, {});
}

HttpResponse SandboxApp::clients_create(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    const auto form = has_form_content_type(ctx.request.headers) ? decode_form(ctx.request.body) : std::nullopt;
    if (!form) {
        return html_response(400, html_page(app::tr("sandbox.bad_request"), "<h1>" + t("sandbox.bad_request") +
                                                                                "</h1><p>" + t("sandbox.not_a_form") +
                                                                                "</p>"));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients/new");
    if (!constant_time_equals(form_get(*form, "csrf").value_or(""), session->csrf)) {
        return html_response(403, html_page(app::tr("sandbox.form_expired"),
                                            "<h1>" + t("sandbox.form_expired") + "</h1><p><a href=\"/clients/new\">" +
                                                t("sandbox.clients.open_again") + "</a></p>"));
    }
    ClientForm read = read_client_form(*form);
    ClientRegistration& reg = read.registration;
    std::vector<std::string>& problems = read.problems;
    if (problems.empty()) {
        auto registered = oauth_.register_client(reg, {}, {}, session->account, ctx.now);
        if (registered) return redirect_response(client_path(registered.value()->config.client_id));
        for (const auto& v : registered.error().violations) {
            std::string text = app::tr("sandbox.violation." + std::string(to_string(v.kind)));
            if (!v.detail.empty()) text += " (" + v.detail + ")";
            problems.push_back(std::move(text));
        }
        if (!registered.error().message.empty()) problems.push_back(registered.error().message);
    }
    return client_form(400, *session, reg, problems);
}

HttpResponse SandboxApp::clients_item(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    const auto id = percent_decode(std::string_view(ctx.path).substr(std::string_view("/clients/").size()));
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients");
    const RegisteredClient* c = id ? oauth_.client(*id) : nullptr;
    if (!c) {
        return html_response(404, html_page(app::tr("sandbox.clients.no_such"),
                                            "<h1>" + t("sandbox.clients.no_such") + "</h1><p><a href=\"/clients\">" +
                                                t("sandbox.clients.back") + "</a></p>"));
    }
    std::string scopes;
    for (const auto& s : c->config.scopes) scopes += "<code>" + html_escape(s) + "</code> ";
    std::string body = "<h1>" + html_escape(c->name) + "</h1><table><tr><th>" + t("sandbox.clients.col_id") +
                       "</th><td class=\"secret\" id=\"client-id\">" + html_escape(c->config.client_id) +
                       "</td></tr><tr><th>" + t("sandbox.clients.col_client_type") + "</th><td id=\"client-type\">" +
                       html_escape(to_string(c->config.type)) + "</td></tr>";
    const bool owner = owns(*c, *session);
    if (c->config.type == ClientType::confidential) {
        body += "<tr><th>" + t("sandbox.clients.col_secret") + "</th>" +
                (owner ? "<td class=\"secret\" id=\"client-secret\">" + html_escape(c->secret)
                       : "<td id=\"client-secret-hidden\">" + t("sandbox.clients.secret_hidden")) +
                "</td></tr>";
    }
    body += "<tr><th>" + t("sandbox.clients.col_uris") + "</th><td>" + list_items(c->config.redirect_uris) +
            "</td></tr><tr><th>" + t("sandbox.clients.col_scopes") + "</th><td>" + scopes + "</td></tr></table>";
    body += "<p>" +
            (c->config.type == ClientType::confidential ? t("sandbox.clients.secret_use")
                                                        : t_code("sandbox.clients.public_note", "client_id")) +
            "</p>";
    if (owner) {
        body += "<form method=\"post\" action=\"" + html_escape(client_path(c->config.client_id)) + "/delete\">" +
                hidden_field("csrf", session->csrf) +
                "<button type=\"submit\" id=\"delete-client\">" + t("sandbox.clients.delete") + "</button></form>";
    } else {
        body += "<p>" + t(c->owner == 0 ? "sandbox.clients.startup" : "sandbox.clients.others") + "</p>";
    }
    body += "<p><a href=\"/clients\">" + t("sandbox.clients.back") + "</a></p>";
    return html_response(200, html_page(c->name, body));
}

HttpResponse SandboxApp::clients_item_post(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    std::string_view rest = std::string_view(ctx.path).substr(std::string_view("/clients/").size());
    constexpr std::string_view kDelete = "/delete";
    if (rest.size() <= kDelete.size() || rest.substr(rest.size() - kDelete.size()) != kDelete) {
        return html_response(404, html_page(app::tr("sandbox.not_found"), "<h1>" + t("sandbox.not_found") + "</h1>"));
    }
    const auto id = percent_decode(rest.substr(0, rest.size() - kDelete.size()));
    const auto form = has_form_content_type(ctx.request.headers) ? decode_form(ctx.request.body) : std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    const LoginSession* session = current_session(ctx);
    if (!session) return login_first("/clients");
    if (!form || !constant_time_equals(form_get(*form, "csrf").value_or(""), session->csrf)) {
        return html_response(403, html_page(app::tr("sandbox.form_expired"), "<h1>" + t("sandbox.form_expired") + "</h1>"));
    }
    const RegisteredClient* c = id ? oauth_.client(*id) : nullptr;
    if (!c) {
        return html_response(404, html_page(app::tr("sandbox.clients.no_such"), "<h1>" + t("sandbox.clients.no_such") + "</h1>"));
    }
    if (!owns(*c, *session)) {
        return html_response(403, html_page(app::tr("sandbox.clients.not_yours"),
                                            "<h1>" + t("sandbox.clients.not_yours") + "</h1><p>" +
                                                t("sandbox.clients.not_yours_text") + "</p>"));
    }
    oauth_.remove_client(*id);
    return redirect_response("/clients");
}

}  // namespace roomkey::sandbox
