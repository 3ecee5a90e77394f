// workspace.cpp: the workspace's own state (see workspace.hpp).
#include "app/workspace.hpp"
#include "app/i18n.hpp"

#include "roomkey/composer.hpp"

namespace roomkey::app {

namespace {

const ChatMessage* find_message(const RoomView& room, std::string_view message_id) {
    for (const ChatMessage& m : room.messages()) {
        if (m.message_id == message_id) return &m;
    }
    return nullptr;
}

}  // namespace

std::string_view to_string(View view) {
    return view == View::developer ? "developer" : "workspace";
}

std::string location(View view, const std::string& open_room_id, DetailsTab details) {
    if (view == View::developer) return "#/developer";
    if (open_room_id.empty()) return "#/";
    return "#/rooms/" + open_room_id + (details == DetailsTab::tasks ? "/tasks" : "");
}

void Workspace::show_details(DetailsTab tab) {
    if (tab == details_) return;
    details_ = tab;
    ++details_seq_;
}

void Workspace::fill(std::string text, bool replace) {
    ++fill_.seq;
    fill_.text = std::move(text);
    fill_.replace = replace;
}

bool Workspace::reply(const RoomView& room, std::string_view message_id) {
    const ChatMessage* m = find_message(room, message_id);
    if (!m) return false;
    auto head = composer::reply(m->account.account_id, room.room_id(), m->message_id, m->account.name);
    if (!head) return false;
    fill(std::move(*head), true);
    return true;
}

bool Workspace::quote(const RoomView& room, std::string_view message_id) {
    const ChatMessage* m = find_message(room, message_id);
    if (!m) return false;
    auto text = composer::quote(m->account.account_id, m->send_time, m->body);
    if (!text) return false;
    fill(std::move(*text), false);
    return true;
}

bool Workspace::mention(const RoomView& room, std::string_view account_id) {
    std::string name;
    for (const RoomMember& member : room.members()) {
        if (member.account_id == account_id) name = member.name;
    }
    auto text = composer::mention(account_id, name);
    if (!text) return false;
    fill(*text + "\n", false);
    return true;
}

void Workspace::on_rooms(const std::vector<Room>& rooms) {
    std::int64_t total = 0;
    for (const Room& room : rooms) {
        const std::int64_t now = room.mention_num.value_or(0);
        total += now;
        const auto seen = mentions_.find(room.room_id);
        const std::int64_t before = seen == mentions_.end() ? 0 : seen->second;
        if (rooms_seen_ && now > before && notify_ && permission_ == "granted") {
            rises_.push_back({room.room_id, room.name, now - before});
        }
        mentions_[room.room_id] = now;
    }
    mention_total_ = total;
    rooms_seen_ = true;
}

std::string mention_count_text(const MentionRise& rise) {
    return tr_n("mentions.new_in_room", rise.more, {{"room", rise.name}});
}

std::vector<MentionRise> Workspace::take_rises() {
    std::vector<MentionRise> out;
    out.swap(rises_);
    return out;
}

void Workspace::alert(const MentionRise& rise, std::optional<std::string> text) {
    alerts_.push_back({rise.room_id, rise.name, text ? std::move(*text) : mention_count_text(rise)});
}

std::vector<MentionAlert> Workspace::take_alerts() {
    std::vector<MentionAlert> out;
    out.swap(alerts_);
    return out;
}

std::string Workspace::title() const {
    return mention_total_ > 0 ? tr_n("workspace.title_mentions", mention_total_) : "roomkey";
}

}  // namespace roomkey::app
