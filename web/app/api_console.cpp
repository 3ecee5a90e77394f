// api_console.cpp: the API console feature (see api_console.hpp).
#include "app/api_console.hpp"

#include "app/app_detail.hpp"
#include "app/i18n.hpp"
#include "app/view_answer.hpp"

namespace roomkey::app {

using detail::kNoAnswer;

void ApiConsole::apply(const intent::ConsoleCall& i, Instant now) {
    const Console::Decision decision =
        console_.prepare(i.method, i.path, i.params, host_.granted_scopes(), i.confirmed, i.anyway);
    if (decision.verdict == Console::Verdict::send) send(decision.call, now);
}

void ApiConsole::apply(const intent::ConfirmConsoleCall&, Instant now) {
    if (auto call = console_.confirm()) send(*call, now);
}

void ApiConsole::apply(const intent::CancelConsoleCall&, Instant) {
    console_.cancel();
    change_.reset();  // a delete asked from the conversation is not sent
}

void ApiConsole::apply(const intent::EditMessage& i, Instant now) {
    change_ = MessageChange{i.room_id, i.message_id, i.body};
    apply(intent::ConsoleCall{Method::Put, "/rooms/" + i.room_id + "/messages/" + i.message_id, {{"body", i.body}}, true},
          now);
}

void ApiConsole::apply(const intent::DeleteMessage& i, Instant now) {
    change_ = MessageChange{i.room_id, i.message_id, std::nullopt};
    apply(intent::ConsoleCall{Method::Delete, "/rooms/" + i.room_id + "/messages/" + i.message_id, {}, false}, now);
}

void ApiConsole::send(const ConsolePending& call, Instant now) {
    if (!host_.can_send()) {
        console_.on_failure(tr("console.not_signed_in"));
        return;
    }
    Outgoing out;
    const bool anyway = console_.last() && console_.last()->anyway;
    const std::string what = std::string(to_string(call.method)) + " " + call.path;
    out.label = tr(anyway ? "console.purpose_anyway" : "console.purpose", {{"call", what}});
    out.request = built(api_request(host_.api_config(), HeldByHelper{}, call.method, call.path, call.params));
    out.options = view_options();
    if (call.room_post && !call.room_id.empty()) out.options.room_for_post = call.room_id;
    const RequestTag tag = host_.new_tag();
    sending_[tag] = what;
    host_.submit(*this, std::move(out), now, tag);
}

void ApiConsole::on_sent(RequestTag tag, Instant now) {
    (void)now;
    if (sending_.count(tag)) console_.on_sent();
}

void ApiConsole::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    const auto it = sending_.find(waiting.tag);
    if (it != sending_.end()) host_.notice_words(rate_limited({"console.purpose", "call", it->second}, host_, now));
}

void ApiConsole::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    (void)now;
    if (sending_.erase(tag) == 0) return;
    if (answer.response) {
        on_message_changed(*answer.response);
        console_.on_answer(*answer.response);
    } else {
        const std::string& reason = answer.reason;
        console_.on_failure(reason.rfind(kNoAnswer, 0) == 0 ? reason.substr(kNoAnswer.size()) : reason);
    }
}

void ApiConsole::on_message_changed(const HttpResponse& response) {
    if (!change_) return;
    const MessageChange change = *change_;
    change_.reset();
    if (response.status < 200 || response.status >= 300 || room_.room_id() != change.room_id) return;
    if (change.body) {
        // The service's own update_time comes with the next read; a mark now.
        room_.edit_message(change.message_id, *change.body, 1);
    } else {
        room_.remove_message(change.message_id);
    }
}

}  // namespace roomkey::app
