// dialog.cpp: see dialog.hpp.
#include "app/dialog.hpp"

#include "app/i18n.hpp"
#include "app/message_view.hpp"
#include "app/words.hpp"

namespace roomkey::app {

namespace {

// The message a DELETE of /rooms/{room}/messages/{id} acts on, when it is loaded.
const ChatMessage* deleted_message(const App& app, const std::string& path) {
    const std::string_view marker = "/messages/";
    const std::size_t at = path.rfind(marker);
    if (at == std::string::npos) return nullptr;
    const std::string id = path.substr(at + marker.size());
    for (const ChatMessage& m : app.open_room().view().messages()) {
        if (m.message_id == id) return &m;
    }
    return nullptr;
}

}  // namespace

std::optional<Question> open_question(const App& app) {
    if (const auto& pending = app.api_console().console().pending()) {
        Question q{tr("dialog.delete_message"), "", tr("dialog.cannot_undo"), tr("dialog.delete"), tr("common.cancel")};
        if (const ChatMessage* m = deleted_message(app, pending->path)) {
            const std::string me = app.dashboard().account().value ? app.dashboard().account().value->account_id : "";
            const DrawnMessage drawn =
                drawn_message(*m, me, account_names(app.open_room().view(), nullptr), 0, app.workspace().user_time());
            q.quote = "'" + cut_short(drawn.text) + "'";
        } else if (pending->path.find("/messages/") == std::string::npos) {
            // A destructive call of the console that is not a message's delete.
            q.title = tr("dialog.go_ahead_title");
            q.yes = tr("dialog.go_ahead");
        }
        return q;
    }
    if (const auto open = app.sign_out_confirm()) {
        return Question{tr("dialog.sign_out_title"), "", tr_n("dialog.sign_out_detail", *open),
                        tr("header.sign_out_discard"), tr("header.stay_signed_in")};
    }
    return std::nullopt;
}

}  // namespace roomkey::app
