// ui.hpp: draws the app's panels with Dear ImGui from a read-only App and
// returns what the user asked for (intents). No network, no browser calls:
// the only state it keeps is what is being typed (UiState).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/app.hpp"
#include "app/format.hpp"
#include "app/intents.hpp"
#include "app/workspace_layout.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"

namespace roomkey::web {

// Text sizes the user can pick, in CSS pixels (the default is index 1).
inline constexpr float kTextSizes[] = {13.0f, 15.0f, 17.0f, 20.0f};
inline constexpr int kTextSizeCount = 4;

struct UiState {
    // Connection: the scopes being picked (starts from the helper's default).
    bool scopes_initialised = false;
    ScopeSet chosen_scopes;
    std::array<char, 512> api_token{};
    // Session: the scopes kept for "refresh with fewer scopes", picked from
    // the grant `narrow_of` (a new grant starts the choice afresh).
    ScopeSet narrow_scopes;
    std::string narrow_of;
    // Posting.
    std::array<char, 2048> message{};
    int repeat = 1;
    std::array<char, 1024> task_body{};
    std::array<char, 256> task_assignees{};
    std::array<char, 16> task_due{};
    // Files tab: the message sent with the next upload (ui_room.cpp).
    std::array<char, 1024> upload_message{};
    int task_limit_type = 0;  // 0 none, 1 date
    // How far local time is ahead of UTC on a date (the platform sets it): a
    // due date means the end of that day in the user's local time.
    app::UtcOffsetOf utc_offset = nullptr;
    std::string form_error;
    // HTTP log: the entry whose details are shown; the newest entry shown
    // while the pointer rests on the list (0: live, new entries appear); the
    // filter's text as typed; newest first instead of at the end.
    std::uint64_t selected_log = 0;
    std::uint64_t log_hold = 0;
    std::array<char, 96> log_filter{};
    bool log_newest_first = false;
    // API console (ui_console.cpp): the chosen catalog entry and its
    // parameters as typed, by name.
    int console_endpoint = 0;
    std::map<std::string, std::array<char, 512>> console_params;
    // View.
    int text_size = 1;
    // The workspace: where the user is (a room open, its details),
    // for workspace_layout; the room list's filter as typed; the composer
    // fill last taken in (Workspace::composer_fill); the message being edited.
    app::Navigation nav;
    std::string nav_room;
    bool show_back = false;  // one pane at a time, off the room list: a back control  // the open room nav.room_open was last set for
    bool show_rooms = false;  // the room list gave way to the details: "< Rooms" in the conversation
    std::array<char, 128> room_filter{};
    std::uint64_t fill_seq = 0;
    // The details' tab as the app last said it (Workspace::details_seq), and
    // the tab the details show (ui_details.cpp, room_tabs).
    std::uint64_t details_seq = 0;
    app::DetailsTab select_tab = app::DetailsTab::none;
    std::string editing;  // message_id, "" when none
    std::string jump_to;  // a reply's target to scroll to, "" when none
    int task_assignee = -1;  // the details' task form: a member, by index
    std::array<char, 2048> edit_body{};
    // The conversation (ui_pending.cpp): the room opened at its first unread
    // already, a jump to the newest asked for, the pending posts last drawn.
    struct Conversation {
        std::string opened_at;
        bool to_end = false;
        bool scrolled = false;  // a scroll was asked for this frame
        float end = -1.0f;      // where the content ended last frame
        std::size_t pending = 0;
        bool behind = false;  // not at the newest: "Jump to latest" shows under the log
    } conv;
    bool edit_focus = false;  // Edit was pressed: the caret goes into the edit field
    bool edit_caret_end = false;  // ... at the end of its text, once it is being edited (caret_to_end)
    // The composer (ui_composer.cpp): the field's text with soft line breaks
    // (app/soft_wrap.hpp) for the room `room`, the caret last seen (in
    // `shown`), the width it was wrapped for; what to do when next drawn.
    struct Composer {
        std::string room;
        std::string shown;
        std::vector<std::size_t> soft;
        std::size_t caret = std::string::npos;
        float width = 0;
        int set_caret = -1;
        bool focus = false;
        unsigned int field = 0;  // the field's ImGui id
        const RoomMember* take = nullptr;  // an offered name Enter took: written in by the field's callback
    } composer;
    // The pointer is coarse (a touch screen): bigger targets, no keyboard hints.
    bool touch = false;
    // The app's mode last frame: on sign-out what was typed for the session
    // (message, task, the chosen log entry) is forgotten too.
    CredentialHolder last_mode = CredentialHolder::none;
    // Where the main controls were drawn this frame (device pixels: x, y, w, h),
    // for the page API (tests click the real buttons through it).
    std::map<std::string, std::array<float, 4>> widgets;
    // Draw on change: when the picture next changes by itself (a countdown's
    // next second, the next step of a "Loading" animation); nullopt when it
    // stays as drawn until something happens.
    std::optional<Instant> redraw_at;
};

// `scale` is the device-pixel ratio: sizes in the UI are multiplied by it.
std::vector<app::Intent> draw_ui(const app::App& app, UiState& ui, Instant now, float scale);

// The theme, sized for `scale`: dark or light as the browser prefers
// (prefers-color-scheme, followed live by main.cpp).
void apply_theme(float scale, bool dark);

}  // namespace roomkey::web
