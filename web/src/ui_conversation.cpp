// ui_conversation.cpp: the open room's conversation: newest at the
// bottom, a separator above each local day, each message's notation drawn
// from its parts (app/message_view.hpp: mentions of you highlighted, a reply
// naming whom it answers, quotes, info boxes, the service's events and code
// as boxes, tasks with assignee and deadline, unknown tags as text:
// ui_message_body.cpp), Reply, Quote and a menu (ui_message_menu.cpp) on
// every message, Edit and Delete on your own (beside its name with a mouse,
// one row under its text on a touch screen); the composer
// directly beneath (ui_composer.cpp). Only the messages on screen are
// drawn: the others keep their measured height (app/message_layout.hpp);
// the accessibility tree's log holds every message, the ones not drawn as
// text without controls.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "a11y.hpp"
#include "browser_font.hpp"
#include "input_queue.hpp"
#include "app/digest.hpp"
#include "app/i18n.hpp"
#include "app/message_layout.hpp"
#include "app/message_view.hpp"
#include "emoji_glyphs.hpp"
#include "text_layer.hpp"
#include "ui_image_preview.hpp"
#include "ui_message_body.hpp"
#include "ui_message_menu.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

// A message's actions: Reply, Quote, Edit and Delete on your own, the menu.
// With a mouse they follow its name on its line, the menu last: Edit and
// Delete, when they do not fit there, are left to the menu, which lists
// them all (a narrow window wrapped them one by one, the menu alone on a
// line of its own); Reply, Quote and the menu always show. On
// a touch screen they are one row of their own under the text, frameless
// (the text reads first, as in a chat app) yet each a finger tall. Returns
// whether one holds the keyboard focus.
bool message_actions(const App& app, UiState& ui, const ChatMessage& m, bool system, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    if (ui.touch) {
        ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
        ImGui::PushStyleColor(ImGuiCol_Text, kAccent);
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding,
                            ImVec2(ImGui::GetFontSize() * 0.4f, ImGui::GetStyle().FramePadding.y));
    }
    bool focused = false;
    bool first = ui.touch;  // the row's first starts the line
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto width_of = [&](const char* label) {
        return ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2.0f + style.ItemSpacing.x;
    };
    // With a mouse: what the line has left beside Reply, Quote and the menu
    // (always shown; when even they do not fit beside the name, the row goes
    // under it whole).
    float line_left = 0.0f;
    if (!ui.touch) {
        const float kept = width_of(tr("menu.reply")) + width_of(tr("menu.quote")) +
                           ImGui::CalcTextSize(kMoreLabel, nullptr, true).x + 4.0f + style.ItemSpacing.x;
        ImGui::SameLine();
        line_left = ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX() - kept;
        if (line_left < 0.0f) {
            ImGui::NewLine();
            first = true;
            line_left = ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX() - kept;
        }
    }
    const auto action = [&](const char* label, bool folds) {
        if (!ui.touch && folds && (line_left -= width_of(label)) < 0.0f) return false;
        const bool pressed = tap_button(first ? label : beside(label));
        first = false;
        focused = focused || ImGui::IsItemFocused();
        return pressed;
    };
    if (action(tr("menu.reply"), false)) {
        out.push_back(app::intent::Reply{room.room_id(), m.message_id});
        keys_to_composer(ui);  // the keys typed next go on the reply
    }
    if (action(tr("menu.quote"), false)) {
        out.push_back(app::intent::Quote{room.room_id(), m.message_id});
        keys_to_composer(ui);
    }
    const bool mine =
        app.dashboard().account().value && app.dashboard().account().value->account_id == m.account.account_id;
    if (mine && !system) {
        if (action(tr("conversation.edit"), true)) {
            begin_edit(ui, m.message_id, m.body);
            input_queue::keys_for_field(ImGui::GetID("##edit"));  // with the keys typed from now on
        }
        if (action(tr("menu.delete"), true)) out.push_back(app::intent::DeleteMessage{room.room_id(), m.message_id});
    }
    focused = message_more(ui, room.room_id(), m.message_id, out) || focused;
    if (ui.touch) {
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
    }
    return focused;
}

void message_row(const App& app, UiState& ui, const ChatMessage& m, const app::DrawnMessage& drawn,
                 const notation::NameLookup& names, std::int64_t now, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    ImGui::PushID(m.message_id.c_str());
    if (ui.jump_to == m.message_id) {
        ImGui::SetScrollHereY(0.0f);
        ui.jump_to.clear();
    }
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const std::string& who = drawn.sender;
    // For assistive technology: an item of the conversation's log that reads
    // as the message is drawn (no tags), its controls inside it.
    a11y::begin_log_item(m.message_id.c_str(), drawn.spoken, true);
    text_layer::message(m.message_id, drawn.text, true);  // its lines, as the page's text (text_layer.hpp)
    ImGui::BeginGroup();
    ImGui::TextColored(kAccent, "%s", emoji_folded(who, false).c_str());  // each emoji one glyph (emoji_glyphs.hpp)
    const std::string when = drawn.time_text + (drawn.edited ? "  " + std::string(tr("conversation.edited")) : "");
    beside(when.c_str());
    text_dim(when);
    bool focused = !ui.touch && message_actions(app, ui, m, drawn.system, out);
    if (ui.editing == m.message_id) {
        // Entered at the next frame, the caret after the text (as the composer after a Reply).
        if (ui.edit_focus) {
            a11y::keep_editing(ImGui::GetID("##edit"));
            redraw_at(ui, Instant{});
        }
        ui.edit_caret_end = ui.edit_caret_end || ui.edit_focus;
        ui.edit_focus = false;
        ImGui::InputTextMultiline("##edit", ui.edit_body.data(), ui.edit_body.size(),
                                  ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f),
                                  ImGuiInputTextFlags_CallbackAlways, caret_to_end, &ui.edit_caret_end);
        note_widget(ui, "edit_message");
        const bool save = tap_button(tr("conversation.save"));
        note_widget(ui, "edit_save");
        if (save) {
            out.push_back(app::intent::EditMessage{room.room_id(), m.message_id, ui.edit_body.data()});
            ui.editing.clear();
        }
        ImGui::SameLine();
        if (tap_button(tr("common.cancel"))) ui.editing.clear();
    } else {
        std::string open_file;
        const Drawing d{drawn.parts, names, app.workspace().user_time(), now, &ui.jump_to, &open_file, &app.previews()};
        draw_parts(d, drawn.parts.parts);
        if (!open_file.empty()) out.push_back(app::intent::OpenFile{room.room_id(), open_file});
        if (ui.touch) focused = message_actions(app, ui, m, drawn.system, out);
    }
    ImGui::EndGroup();
    message_menu_opener(room.room_id(), m.message_id, focused, out);
    a11y::end_log_item();
    if (drawn.mentions_me) {
        // Mentions of you: a band in the warning colour on the left.
        const ImVec2 bottom = ImGui::GetItemRectMax();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(top.x - 6.0f, top.y), ImVec2(top.x - 2.0f, bottom.y),
                                                  ImGui::GetColorU32(kWarn));
    }
    ImGui::Spacing();
    ImGui::PopID();
}

// The conversation's rows as last drawn (one conversation is on screen).
struct Rows {
    app::RowHeights heights;
    std::uint64_t keys_of = 0;    // the room (version) and offset the keys below are of
    std::vector<bool> day_above;  // by row: a day separator above it
    std::string room;        // the room they are of
    app::ReaderPlace place;  // where the reader is (app/message_layout.hpp)
    RequestId post = 0;      // the room's last post seen (its request id)
};

// The last post written in `room_id` (its request id, growing; 0: none).
// A post sent and answered before a frame drew it "Sending…" still counts.
RequestId last_post(const App& app, const std::string& room_id) {
    RequestId last = 0;
    for (const app::PostJob& job : app.posting().posts()) {
        if (job.kind == app::PostKind::message && job.room_id == room_id) last = std::max(last, job.id);
    }
    return last;
}
Rows& conversation_rows() {
    static Rows rows;
    return rows;
}

}  // namespace

void conversation_pane(const App& app, UiState& ui, Instant now, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    waiting_posts_offer(app, ui, out);
    if (!room.is_open()) {
        text_dim(tr(app.dashboard().rooms().value ? "conversation.choose_room" : "conversation.loading_rooms"));
        return;
    }
    // A way to the rooms wherever their list gave way: a phone's Back, or beside the details (they close).
    if (ui.show_back || ui.show_rooms) {
        if (ImGui::Button(tr("conversation.back_to_rooms"))) ui.nav = app::navigate_back(ui.nav);
        note_widget(ui, "back");
        ImGui::SameLine();
    }
    ImGui::AlignTextToFramePadding();
    const std::string name = emoji_folded(room.name().empty() ? "#" + room.room_id() : room.name(), false);
    const char* details = tr(ui.nav.details_open ? "conversation.hide_details" : "conversation.details");
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto after = [&](const char* label) {
        return ImGui::CalcTextSize(label).x + style.FramePadding.x * 2.0f + style.ItemSpacing.x;
    };
    // The name first: when it does not fit beside both buttons, Mark as read
    // goes into a "⋯" menu at the line's end (Details stays: it is a place),
    // and only a name wider than what is left is cut. One line on a phone.
    const char* more = "\xE2\x8B\xAF##room_menu";  // "⋯"
    const float line = ImGui::GetContentRegionAvail().x - 1.0f;
    const float name_width = ImGui::CalcTextSize(name.c_str()).x;
    const bool in_menu = name_width > line - after(tr("conversation.mark_read")) - after(details);
    const float room_for_name = line - after(details) - (in_menu ? after("\xE2\x8B\xAF") : after(tr("conversation.mark_read")));
    std::string drawn_name = name;
    if (name_width > room_for_name && room_for_name >= ImGui::GetFontSize() * 3.0f) {
        const char* ellipsis = "\xE2\x80\xA6";  // …
        const char* cut = name.c_str();  // where the part that fits ends, on a character boundary
        ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), room_for_name - ImGui::CalcTextSize(ellipsis).x, 0.0f,
                                        name.c_str(), nullptr, &cut);
        drawn_name = std::string(name.c_str(), cut) + ellipsis;
    }
    ImGui::TextColored(kAccent, "%s", drawn_name.c_str());
    a11y::describe_last_item("room_name", drawn_name);  // the name as drawn
    if (!in_menu && tap_button(beside(tr("conversation.mark_read")))) out.push_back(app::intent::MarkRead{room.room_id()});
    if (!in_menu) note_widget(ui, "mark_read");
    if (tap_button(beside(details))) {
        ui.nav.details_open = !ui.nav.details_open;
    }
    note_widget(ui, "details_toggle");
    if (in_menu) {
        a11y::name_next(tr("conversation.room_menu"));
        if (tap_button(beside(more))) ImGui::OpenPopup("room_menu");
        note_widget(ui, "room_menu");
        if (ImGui::BeginPopup("room_menu")) {
            if (tap_button(tr("conversation.mark_read"))) {  // finger-sized on a touch screen
                out.push_back(app::intent::MarkRead{room.room_id()});
                ImGui::CloseCurrentPopup();
            }
            note_widget(ui, "mark_read");
            ImGui::EndPopup();
        }
    }
    if (room.loading()) {
        ImGui::SameLine();
        loading_text(ui, tr("common.loading"), now);
    }
    // A failure of the room is said once, in words, by the error box (ui_header.cpp).

    const float composer_h = composer_height();
    // Scrolled up, "Jump to latest" has a strip of its own under the log: it covers no message's controls.
    const float jump_h = ui.conv.behind ? ImGui::GetFrameHeightWithSpacing() : 0.0f;
    const float height = std::max(ImGui::GetTextLineHeightWithSpacing() * 3.0f,
                                  ImGui::GetContentRegionAvail().y - composer_h - ImGui::GetStyle().ItemSpacing.y - jump_h);
    const std::string me =
        app.dashboard().account().value ? app.dashboard().account().value->account_id : std::string();
    const std::vector<Contact>* contacts = app.contacts().contacts().value ? &*app.contacts().contacts().value : nullptr;
    const notation::NameLookup names = app::account_names(room, contacts);
    const std::int64_t now_unix = unix_ms(now) / 1000;
    const app::UserTime& offset = app.workspace().user_time();
    const app::DrawnContext context = app::drawn_context(room, contacts, me, now_unix, offset);
    // Every message's text as the log and the text layer hold it: while this
    // stays, neither copies a text again (only the rows drawn cost a frame).
    const std::uint64_t texts = app::Digest()
                                    .add(room.room_id())
                                    .add(static_cast<std::int64_t>(room.version()))
                                    .add(static_cast<std::int64_t>(context.base))
                                    .add(static_cast<std::int64_t>(context.names))
                                    .value();
    a11y::begin_log(tr("conversation.log"), texts);  // its messages, each read as drawn (a11y.hpp)
    ImGui::BeginChild("conversation_log", ImVec2(0, height), ImGuiChildFlags_Border);
    const bool dragging = text_layer::begin(texts);  // scrolling on under a held selecting drag
    if (dragging) redraw_at(ui, Instant{});
    if (std::string shown = text_layer::take_shown(); !shown.empty()) ui.jump_to = std::move(shown);
    if (auto selected = text_layer::take_selection()) {
        out.push_back(app::intent::SelectionChanged{std::move(selected->text), std::move(selected->message_ids)});
    }
    if (room.messages().empty()) text_dim(tr(room.loading() ? "conversation.loading_messages" : "conversation.empty"));
    Rows& rows = conversation_rows();
    const bool jumped = !ui.jump_to.empty();
    const std::string& first_unread = app.open_room().first_unread_id();
    // Only the rows on screen are parsed, laid out and drawn; the others
    // keep the height they were drawn at (app/message_layout.hpp).
    const std::vector<ChatMessage>& messages = room.messages();
    // The rows' keys, texts' extents (the height a row not drawn yet is
    // given) and day separators, worked out again only when the room (or the
    // UTC offset) changed: each day asks the browser for its offset.
    const std::uint64_t keys_of = app::Digest()
                                      .add(room.room_id())
                                      .add(static_cast<std::int64_t>(room.version()))
                                      .add(static_cast<std::int64_t>(offset.offset(now_unix)))
                                      .value();
    app::DrawnMessages& parsed = app.open_room().drawn();  // parsed once, with the page state's
    parsed.keep_only(messages);
    if (keys_of != rows.keys_of || rows.day_above.size() != messages.size()) {
        rows.keys_of = keys_of;
        rows.day_above.assign(messages.size(), true);
        std::vector<app::RowKey> keys(messages.size());
        for (std::size_t i = 0; i < messages.size(); ++i) {
            rows.day_above[i] =
                i == 0 || !app::same_local_day(messages[i - 1].send_time, messages[i].send_time, offset);
            keys[i] = {messages[i].message_id, app::message_version(messages[i], rows.day_above[i]),
                       line_break::extent(parsed.get(messages[i], context, me, names, now_unix, offset).text)};
        }
        rows.heights.set_rows(keys);
    }
    const std::vector<bool>& day_above = rows.day_above;
    std::size_t jump_row = messages.size();
    for (std::size_t i = 0; jumped && i < messages.size(); ++i) {
        if (messages[i].message_id == ui.jump_to) jump_row = i;
    }
    rows.heights.set_layout(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize(),
                            ImGui::GetTextLineHeightWithSpacing() * 3.0f, font_em());
    const float list_top = ImGui::GetCursorPosY();
    const float view = ImGui::GetWindowHeight();
    // A room's messages come in at the bottom, where the newest are.
    const bool fresh = rows.room != room.room_id() || messages.empty();
    rows.room = room.room_id();
    float scroll = rows.place.begin(ImGui::GetScrollY(), ImGui::GetScrollMaxY(), list_top, view, rows.heights, fresh, jumped);
    // A room with unread messages opens at its first unread, once.
    if (!messages.empty() && take_open_at_unread(app, ui)) scroll = rows.place.show(first_unread, rows.heights);
    // A reply's target off screen: the window around it, where message_row scrolls to it.
    if (jump_row < messages.size()) scroll = rows.heights.top_of(jump_row);
    const app::RowWindow shown = rows.heights.drawn(scroll, view, view * 0.5f);
    bool all_known = true;
    for (std::size_t i = shown.first; i < shown.last; ++i) all_known = all_known && rows.heights.known(i);
    // The log still holds every message, in order: those not drawn read as text.
    // While the texts stay, neither the log nor the text layer copies one.
    const bool texts_changed = a11y::log_texts_changed() || text_layer::texts_changed();
    const std::string kept;  // (the text of a row not drawn while the texts stay: not read)
    auto not_drawn = [&](std::size_t i) {
        ImGui::PushID(messages[i].message_id.c_str());
        const app::DrawnMessage* drawn =
            texts_changed ? &parsed.get(messages[i], context, me, names, now_unix, offset) : nullptr;
        a11y::log_item_not_drawn(messages[i].message_id.c_str(), drawn ? drawn->spoken : kept);
        text_layer::message(messages[i].message_id, drawn ? drawn->text : kept, false);
        ImGui::PopID();
    };
    for (std::size_t i = 0; i < shown.first; ++i) not_drawn(i);
    ImGui::SetCursorPosY(list_top + shown.before);
    for (std::size_t i = shown.first; i < shown.last; ++i) {
        const ChatMessage& m = messages[i];
        const float top = ImGui::GetCursorPosY();
        if (day_above[i]) {
            ImGui::Spacing();
            text_dim("--- " + app::date_separator_text(m.send_time, now_unix, offset) + " ---");
        }
        if (m.message_id == first_unread) new_messages_line();
        message_row(app, ui, m, parsed.get(m, context, me, names, now_unix, offset), names, now_unix, out);
        rows.heights.measured(i, ImGui::GetCursorPosY() - top);
    }
    for (std::size_t i = shown.last; i < messages.size(); ++i) not_drawn(i);
    previews_measured(all_known);
    if (shown.after > 0) {
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + shown.after - ImGui::GetStyle().ItemSpacing.y);
        ImGui::Dummy(ImVec2(1.0f, 0.0f));  // the list's whole height, for the scroll bar
    }
    const std::size_t pending = pending_rows(app, ui, out);
    // "Jump to latest", and a post: the newest, even when scrolled up.
    const RequestId post = last_post(app, room.room_id());
    if (ui.conv.to_end || (post > rows.post && !fresh) || pending > ui.conv.pending) rows.place.to_newest();
    rows.post = std::max(rows.post, post);
    if (const float ask = rows.place.end(ImGui::GetCursorPosY(), jumped || dragging); ask >= 0.0f) {
        ImGui::SetScrollY(ask);
        ui.conv.scrolled = true;  // not settled until a frame draws without one
    }
    conversation_end(app, ui, pending, !rows.place.newest(), now, out);
    message_menu(app, ui, out);
    ImGui::EndChild();
    a11y::end_log();
    note_widget(ui, "conversation");
    jump_to_latest(ui, jump_h, now);
    composer(app, ui, out);
}

}  // namespace roomkey::web::parts
