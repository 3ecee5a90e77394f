// links.cpp: rooms' invitation links (chatwork/api PR #7: GET/POST/PUT/DELETE
// /rooms/{room_id}/link, and link=1 on POST /rooms): making a new one, its
// URL, and the page that URL opens. The endpoints themselves are in
// api_handlers.cpp; code and length rules are the catalog's (url_code).
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
    const std::string code = ctx.path.substr(3);  // after "/g/"
    std::lock_guard<std::mutex> lock(mutex_);
    const Room* room = chat_.room_with_link_code(code);
    if (!room) {
        return html_response(404, html_page("Invitation not found",
                                            "<h1>Invitation not found</h1><p>No room has this invitation link; it "
                                            "may have been changed or removed.</p>"));
    }
    const std::string how = room->link->need_acceptance
                                ? "An administrator of the room accepts each request to join."
                                : "Anyone with this link can join.";
    return html_response(200, html_page("Invitation to " + room->name,
                                        "<h1>Invitation to " + html_escape(room->name) + "</h1><p>" +
                                            html_escape(room->link->description) + "</p><p>" + how +
                                            " (The sandbox shows this page only; joining is not simulated.)</p>"));
}

}  // namespace roomkey::sandbox
