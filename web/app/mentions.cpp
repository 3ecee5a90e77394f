// mentions.cpp: mentions in rooms that are not open (see mentions.hpp).
#include "app/mentions.hpp"

#include <algorithm>

#include "app/app_detail.hpp"
#include "app/i18n.hpp"
#include "app/mention_text.hpp"
#include "app/view_answer.hpp"
#include "roomkey/polling.hpp"

namespace roomkey::app {

namespace {

// Rooms read for their mention's text after one room list read; a rise
// beyond these is told by its count (the budget is shared with the user).
constexpr std::size_t kMentionReadsPerList = 3;
std::string mention_words() { return tr("views.mention_text"); }

}  // namespace

// The read is GET /messages with force=1, the latest 100, as the open room's
// own reads are: without force the service answers only what is new since
// the account's last read of the room (docs/sandbox.md: a cursor per
// account, which force=1 reads move too), so it could answer nothing at all
// when the room was open a moment ago, and it would move the cursor of any
// other unread-only reader of the account.
void Mentions::on_room_list_read(Instant now) {
    if (dashboard_.rooms().value) workspace_.on_rooms(*dashboard_.rooms().value);
    std::size_t reads = 0;
    for (MentionRise& rise : workspace_.take_rises()) {
        auto pending = rises_.find(rise.room_id);
        const bool reading = std::any_of(reading_.begin(), reading_.end(),
                                         [&](const auto& entry) { return entry.second == rise.room_id; });
        // (An entry whose read is gone, dropped at a sign-out, is stale.)
        if (pending != rises_.end() && reading) {
            pending->second.more += rise.more;  // one alert for both, when the read answers
        } else if (reads < kMentionReadsPerList) {
            ++reads;
            Outgoing out;
            out.label = mention_words();
            out.request = built(api_request(host_.api_config(), HeldByHelper{}, Method::Get,
                                            "/rooms/" + rise.room_id + "/messages", {{"force", "1"}}));
            out.options = view_options();
            const RequestTag tag = host_.new_tag();
            reading_[tag] = rise.room_id;
            const std::string room_id = rise.room_id;
            rises_[room_id] = std::move(rise);
            host_.submit(*this, std::move(out), now, tag);
        } else {
            workspace_.alert(rise, std::nullopt);
        }
    }
    poll_at_ = now + poll_interval(host_.scheduler().overall(now), now, kRoomListPart);
}

void Mentions::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    if (reading_.count(waiting.tag)) host_.notice_words(rate_limited({"views.mention_text"}, host_, now));
}

void Mentions::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    (void)now;
    const auto read = reading_.find(tag);
    if (read == reading_.end()) return;
    const std::string room_id = read->second;
    reading_.erase(read);
    auto pending = rises_.find(room_id);
    if (pending == rises_.end()) return;
    const MentionRise rise = std::move(pending->second);
    rises_.erase(pending);
    std::optional<std::string> text;
    const auto& account = dashboard_.account().value;
    if (answer.response && detail::is_success(answer.response->status) && account) {
        if (auto messages = read_messages(*answer.response)) {
            const std::string me = account->account_id;
            const std::string my_name = account->name.value_or("");
            const auto& contacts = contacts_.contacts().value;
            const notation::NameLookup names = [&](std::string_view id) -> std::string {
                if (id == me) return my_name;
                if (contacts) {
                    for (const Contact& c : *contacts) {
                        if (c.account_id == id) return c.name;
                    }
                }
                return {};
            };
            text = mention_text(*messages, me, names);
        }
    }
    // Unread (a failure, or the mention already gone): the count says it.
    workspace_.alert(rise, std::move(text));
}

std::optional<Instant> Mentions::poll_at() const {
    if (!page_visible_ || !host_.can_send() || !dashboard_.rooms().value) return std::nullopt;
    // Only while someone is reading: a room is open (its poll runs anyway)
    // or desktop notifications are on. An idle app waits for nothing.
    if (!room_.view().is_open() && !workspace_.notifications_enabled()) return std::nullopt;
    return poll_at_;
}

void Mentions::run_poll(Instant now) {
    const auto at = poll_at();
    if (!at || now < *at) return;
    poll_at_.reset();  // set again when this read answers
    dashboard_.reload_rooms(now);
}

}  // namespace roomkey::app
