// links.cpp: rooms' invitation links (chatwork/api PR #7: GET/POST/PUT/DELETE
// /rooms/{room_id}/link, and link=1 on POST /rooms): making a new one, its
// URL, and the page that URL opens. The endpoints themselves are in
// api_handlers.cpp; code and length rules are the catalog's (url_code).
#include "app/i18n.hpp"
#include "sandbox/app.hpp"
#include "sandbox/html.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

std::string SandboxApp::link_url_prefix() const {
    return "https://127.0.0.1:" + std::to_string(port_) + "/g/";
}

Result<InviteLink, HttpResponse> SandboxApp::new_link(const std::optional<std::string>& code, std::string description,
                                                      bool need_acceptance) {
    InviteLink link;
    link.description = std::move(description);
    link.need_acceptance = need_acceptance;
    if (code) {
        if (chat_.room_with_link_code(*code)) {
            return Err{api_error(400, "The invitation link code '" + *code + "' is already used by another room.")};
        }
        link.code = *code;
        return link;
    }
    static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    do {
        const std::string bytes = random_bytes(random_, kLinkCodeLength);
        link.code.clear();
        for (unsigned char b : bytes) link.code += kAlphabet[b % 36];
    } while (chat_.room_with_link_code(link.code));
    return link;
}

HttpResponse SandboxApp::invitation_page(const RequestContext& ctx) {
    use_page_language(ctx.request.headers);
    const std::string code = ctx.path.substr(3);  // after "/g/"
    std::lock_guard<std::mutex> lock(mutex_);
    const Room* room = chat_.room_with_link_code(code);
    if (!room) {
        return html_response(404, html_page(app::tr("sandbox.invite.not_found"),
                                            "<h1>" + html_escape(app::tr("sandbox.invite.not_found")) + "</h1><p>" +
                                                html_escape(app::tr("sandbox.invite.not_found_text")) + "</p>"));
    }
    const char* how = app::tr(room->link->need_acceptance ? "sandbox.invite.acceptance" : "sandbox.invite.anyone");
    const std::string title = app::tr("sandbox.invite.title", {{"room", room->name}});
    return html_response(200, html_page(title, "<h1>" + html_escape(title) + "</h1><p>" +
                                                   html_escape(room->link->description) + "</p><p>" +
                                                   html_escape(how) + " " +
                                                   html_escape(app::tr("sandbox.invite.not_simulated")) + "</p>"));
}

}  // namespace roomkey::sandbox
