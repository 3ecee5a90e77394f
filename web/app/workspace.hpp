// workspace.hpp: the state of the chat-first workspace that is not a
// room's records: which view is shown (workspace or developer), the room
// list's filter, what the composer is asked to take in (a reply, a quote, a
// mention) and the desktop-notification switch. Pure: App owns one and
// delegates its intents here; the UI reads it and the page API publishes it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/details_tab.hpp"
#include "app/drafts.hpp"
#include "app/room_view.hpp"
#include "app/settings.hpp"
#include "app/time_text.hpp"
#include "roomkey/api.hpp"

namespace roomkey::app {

enum class View { workspace, developer };
std::string_view to_string(View view);

// Where the user is, as the address says it: "#/developer", "#/rooms/2100",
// "#/rooms/2100/tasks" (its Tasks tab), "#/" (no room open).
std::string location(View view, const std::string& open_room_id, DetailsTab details);

// Text for the composer. `replace`: the composer's text becomes `text` (a
// reply's head goes first, then what was typed); otherwise it is appended.
// The UI applies each fill once, when `seq` moves on.
struct ComposerFill {
    std::uint64_t seq = 0;
    std::string text;
    bool replace = false;
};

// A desktop notification the platform shows.
struct MentionAlert {
    std::string room_id;
    std::string title;  // the room's name
    std::string text;   // the mention's text (mention_text.hpp); a count when it could not be read
};

// A room whose mention count rose while notifications were on: App reads
// its newest messages for the mention's text, then makes the alert.
struct MentionRise {
    std::string room_id;
    std::string name;
    std::int64_t more = 0;  // by how many
};

// "2 new mentions in Ops": an alert's text when the mention could not be read.
std::string mention_count_text(const MentionRise& rise);

class Workspace {
public:
    View view() const { return view_; }
    void show(View view) { view_ = view; }
    const std::string& room_filter() const { return room_filter_; }
    void set_room_filter(std::string text) { room_filter_ = std::move(text); }

    // Reply / Quote: the composer gets the tag for message `message_id` of
    // the open room; false when the message is not loaded.
    bool reply(const RoomView& room, std::string_view message_id);
    bool quote(const RoomView& room, std::string_view message_id);
    // "[To:id]Name" appended, the name from the open room's members.
    bool mention(const RoomView& room, std::string_view account_id);
    const ComposerFill& composer_fill() const { return fill_; }

    // The details pane of the open room: what the UI shows, or what a place
    // (the address, Back, a script) asks it to show; `details_seq` moves on
    // at each change, so the UI tells the two apart.
    DetailsTab details() const { return details_; }
    std::uint64_t details_seq() const { return details_seq_; }
    void show_details(DetailsTab tab);

    // Notifications: `permission` is the browser's ("default", "granted",
    // "denied"; "unsupported" when it has none).
    bool notifications_enabled() const { return notify_; }
    const std::string& permission() const { return permission_; }
    void set_notifications(bool on) { notify_ = on; }
    void set_permission(std::string permission) { permission_ = std::move(permission); }

    // A new room list: mention counts that rose make rises (when enabled)
    // and the title's count. The first list only sets the baseline.
    void on_rooms(const std::vector<Room>& rooms);
    std::vector<MentionRise> take_rises();
    // A rise read: its alert, with the mention's text or, without it, the count.
    void alert(const MentionRise& rise, std::optional<std::string> text);
    std::vector<MentionAlert> take_alerts();
    // The tab's title: "(N) roomkey" with N the mentions across rooms, else "roomkey".
    std::string title() const;

    // The composer's drafts (this account's, per room) and the user's settings (this browser's).
    const Drafts& drafts() const { return drafts_; }
    Drafts& drafts() { return drafts_; }
    const Settings& settings() const { return settings_; }
    Settings& settings() { return settings_; }

    // The user's zone and locale (the platform sets the browser's; UTC and digits until then).
    const UserTime& user_time() const { return user_time_; }
    void set_user_time(UserTime user) { user_time_ = std::move(user); }

private:
    void fill(std::string text, bool replace);
    View view_ = View::workspace;
    std::string room_filter_;
    ComposerFill fill_;
    DetailsTab details_ = DetailsTab::none;
    std::uint64_t details_seq_ = 0;
    bool notify_ = false;
    std::string permission_ = "default";
    bool rooms_seen_ = false;
    std::map<std::string, std::int64_t> mentions_;
    std::int64_t mention_total_ = 0;
    std::vector<MentionRise> rises_;
    std::vector<MentionAlert> alerts_;
    UserTime user_time_;
    Drafts drafts_;
    Settings settings_;
};

}  // namespace roomkey::app
