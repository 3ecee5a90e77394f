// ui_composer.cpp: the composer beneath the conversation. The text wraps
// (app/soft_wrap.hpp: Dear ImGui 1.90's multiline field does not) and the
// box grows with it up to a third of the pane; the text is the open room's
// draft (app/drafts.hpp: kept per room and account). Enter or Ctrl+Enter
// sends, as the user chose (app/settings.hpp); "@bo" offers the members
// whose name starts so (app/member_completion.hpp); the To picker, Info and
// Code helpers; replies, quotes and mentions asked for elsewhere
// (Workspace::composer_fill) are taken in once each, the caret put in the box.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstring>

#include "a11y.hpp"
#include "app/i18n.hpp"
#include "app/member_completion.hpp"
#include "app/soft_wrap.hpp"
#include "emoji_glyphs.hpp"
#include "input_queue.hpp"
#include "roomkey/composer.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

namespace {

using Box = UiState::Composer;

float g_field_max = 0;   // a third of the pane, less the rest of the box (composer_height)
float g_box_height = 0;  // the box as last drawn (it fits its content)

std::size_t fit(std::string_view line, float width) {
    const char* end = ImGui::GetFont()->CalcWordWrapPositionA(1.0f, line.data(), line.data() + line.size(), width);
    return static_cast<std::size_t>(end - line.data());
}

// The field holds the text folded (emoji_glyphs.hpp: each emoji sequence one
// codepoint, so ImGui draws it as one glyph and the caret steps over it
// whole), with soft breaks; the text is what the user typed, exactly.
// `pos` in `from` (text or folded) as a position in the other form.
std::size_t fold_pos(const std::string& text, std::size_t pos) {
    return emoji_folded(std::string_view(text).substr(0, std::min(pos, text.size())), false).size();
}
std::size_t unfold_pos(const std::string& folded, std::size_t pos) {
    return emoji_unfolded(std::string_view(folded).substr(0, std::min(pos, folded.size()))).size();
}

void wrap(Box& box, const std::string& text, std::size_t caret) {
    app::Wrapped w = app::soft_wrap(emoji_folded(text, false), box.width, fit);
    box.shown = std::move(w.shown);
    box.soft = std::move(w.soft);
    box.caret = app::shown_pos(fold_pos(text, caret), box.soft);
}

std::string text_of(const Box& box) {
    return emoji_unfolded(app::unwrap(box.shown, box.soft));
}

// The caret (in the field) as a position in the text.
std::size_t text_caret(const Box& box) {
    return unfold_pos(app::unwrap(box.shown, box.soft), app::text_pos(std::min(box.caret, box.shown.size()), box.soft));
}

// Puts `text` in the field with the caret at `caret` (in the text), taking
// the field from ImGui when it is being edited, so it reads the new text.
void replace(Box& box, const std::string& text, std::size_t caret, bool focus) {
    if (box.field != 0 && ImGui::GetActiveID() == box.field) ImGui::ClearActiveID();
    wrap(box, text, caret);
    box.set_caret = static_cast<int>(box.caret);
    box.focus = box.focus || focus;
}

// Every frame the field is edited: the caret asked for; an edit read back
// into the text and wrapped again; a new width wrapped again.
int on_field(ImGuiInputTextCallbackData* data) {
    Box& box = *static_cast<Box*>(data->UserData);
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        box.shown.resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = box.shown.data();
        return 0;
    }
    if (box.set_caret >= 0) {
        data->CursorPos = data->SelectionStart = data->SelectionEnd = std::min(box.set_caret, data->BufTextLen);
        box.set_caret = -1;
    }
    const std::string_view now(data->Buf, static_cast<std::size_t>(data->BufTextLen));
    const std::size_t caret = static_cast<std::size_t>(data->CursorPos);
    // box.shown is the field as ImGui last copied it out (it copies again after this returns).
    app::Edited e{app::unwrap(box.shown, box.soft), app::text_pos(std::min(caret, box.shown.size()), box.soft)};
    if (now != box.shown) e = app::after_edit(box.shown, box.soft, now, std::min(box.caret, box.shown.size()), caret);
    e = {emoji_unfolded(e.text), unfold_pos(e.text, e.caret)};  // as typed
    // Enter took an offered name: written in here, so the field stays in use and no key typed next is lost.
    if (box.take) {
        if (const auto q = app::mention_query(e.text, e.caret))
            e = app::complete_mention(e.text, e.caret, *q, *box.take);
        box.take = nullptr;
    }
    app::Wrapped w = app::soft_wrap(emoji_folded(e.text, false), box.width, fit);
    if (w.shown != now) {
        data->DeleteChars(0, data->BufTextLen);
        data->InsertChars(0, w.shown.data(), w.shown.data() + w.shown.size());
        data->CursorPos = data->SelectionStart = data->SelectionEnd =
            static_cast<int>(app::shown_pos(fold_pos(e.text, e.caret), w.soft));
    }
    box.soft = std::move(w.soft);
    box.caret = static_cast<std::size_t>(data->CursorPos);
    return 0;
}

int shown_lines(const Box& box) {
    return static_cast<int>(std::count(box.shown.begin(), box.shown.end(), '\n')) + 1;
}

float field_height(const Box& box) {
    const float line = ImGui::GetTextLineHeight();
    const float want = line * static_cast<float>(std::max(2, shown_lines(box))) + ImGui::GetStyle().FramePadding.y * 2;
    return std::max(line * 2.0f, std::min(want, g_field_max));
}

// The box around the field: a row of controls and the paddings.
float box_extra() {
    const ImGuiStyle& style = ImGui::GetStyle();
    return ImGui::GetFrameHeightWithSpacing() + style.ItemSpacing.y + style.WindowPadding.y * 2 + 2.0f;
}

// True when it took one in (the draft says so from the next frame on).
bool take_fill(const App& app, UiState& ui, Intents& out) {
    const app::ComposerFill& fill = app.workspace().composer_fill();
    if (fill.seq == ui.fill_seq) return false;
    ui.fill_seq = fill.seq;
    std::string typed = text_of(ui.composer);
    std::string text;
    if (fill.replace) {
        text = fill.text + typed;
    } else {
        if (!typed.empty() && typed.back() != '\n') typed += '\n';
        text = typed + fill.text;
    }
    const std::size_t caret = fill.replace ? fill.text.size() + typed.size() : text.size();
    // The field is entered at the next frame, the caret at the end of what came in, by the road
    // Enter's send takes: the page's text input follows, so the next keys land in the box.
    // (ImGui's SetKeyboardFocusHere left the page's text input behind.)
    replace(ui.composer, text, caret, false);
    if (ui.composer.field != 0) {
        a11y::keep_editing(ui.composer.field);
        redraw_at(ui, Instant{});  // the frame that enters it
    }
    out.push_back(app::intent::SetDraft{ui.composer.room, text});
    return true;
}

void send(const std::string& room, UiState& ui, Intents& out) {
    const std::string text = text_of(ui.composer);
    out.push_back(app::intent::QueueMessage{room, text, 1});
    out.push_back(app::intent::SetDraft{room, ""});
    replace(ui.composer, "", 0, false);
    a11y::keep_editing(ui.composer.field);  // sent by Enter or Send, the caret stays in the box
}

}  // namespace

void keys_to_composer(const UiState& ui) {
    if (ui.composer.field != 0) input_queue::keys_for_field(ui.composer.field);
}

void send_key_choice(const app::Settings& settings, Intents& out) {
    const bool enter = settings.send_key() == app::SendKey::enter;
    if (ImGui::MenuItem(tr("composer.send_enter"), nullptr, enter) && !enter)
        out.push_back(app::intent::SetSetting{"send_key", "enter"});
    if (ImGui::MenuItem(tr("composer.send_ctrl_enter"), nullptr, !enter) && enter)
        out.push_back(app::intent::SetSetting{"send_key", "ctrl_enter"});
}

int caret_to_end(ImGuiInputTextCallbackData* data) {
    bool& pending = *static_cast<bool*>(data->UserData);
    if (pending) data->CursorPos = data->SelectionStart = data->SelectionEnd = data->BufTextLen;
    pending = false;
    return 0;
}

float composer_height() {
    g_field_max = std::max(ImGui::GetTextLineHeight() * 2.0f, ImGui::GetContentRegionAvail().y / 3.0f - box_extra());
    // As last drawn: a box that grew asks for the next frame (its picture changed), which fits it.
    return g_box_height > 0 ? g_box_height : ImGui::GetTextLineHeight() * 2.0f + box_extra();
}

void composer(const App& app, UiState& ui, Intents& out) {
    Box& box = ui.composer;
    const app::RoomView& room = app.open_room().view();
    const app::Workspace& ws = app.workspace();
    const std::string& draft = ws.drafts().text(room.room_id());
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::GetContentRegionAvail().x - style.WindowPadding.x * 2 - style.FramePadding.x * 2 -
                        style.ScrollbarSize - 2.0f;
    if (box.room != room.room_id()) {
        box.room = room.room_id();
        box.width = width;
        replace(box, draft, draft.size(), false);
        box.caret = std::string::npos;
    }
    if (width != box.width) {
        box.width = width;
        wrap(box, text_of(box), text_caret(box));
    }
    const bool filled = take_fill(app, ui, out);

    ImGui::BeginChild("composer_box", ImVec2(0, 0), ImGuiChildFlags_Border | ImGuiChildFlags_AutoResizeY,
                      ImGuiWindowFlags_NoScrollbar);
    box.field = ImGui::GetID("##message");
    const bool editing = ImGui::GetActiveID() == box.field;
    // Not edited: the draft is the text (restored after a reload, or cleared by a send).
    if (!editing && !box.focus && !filled && text_of(box) != draft) replace(box, draft, draft.size(), false);

    const std::string text = text_of(box);
    const std::size_t caret = box.caret == std::string::npos ? std::string::npos : text_caret(box);
    std::optional<app::MentionQuery> query;
    if (caret != std::string::npos) query = app::mention_query(text, caret);
    const std::vector<const RoomMember*> offered =
        query ? app::matching_members(room.members(), query->query) : std::vector<const RoomMember*>{};

    const bool enter_sends = ws.settings().send_key() == app::SendKey::enter;
    ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackAlways |
                                ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_NoHorizontalScroll;
    // Enter sends when Enter sends (Ctrl+Enter too, as the service's client does); Shift+Enter is a new line.
    if (enter_sends && !ImGui::GetIO().KeyShift && !ImGui::GetIO().KeyCtrl)
        flags |= ImGuiInputTextFlags_CtrlEnterForNewLine;
    // Names offered: Enter takes the first; the field does not see that Enter.
    if (editing && !offered.empty() &&
        (ImGui::IsKeyPressed(ImGuiKey_Enter) || ImGui::IsKeyPressed(ImGuiKey_KeypadEnter))) {
        box.take = offered.front();
        ImGui::SetKeyOwner(ImGuiKey_Enter, box.field, ImGuiInputFlags_LockThisFrame);
        ImGui::SetKeyOwner(ImGuiKey_KeypadEnter, box.field, ImGuiInputFlags_LockThisFrame);
    }
    if (box.focus) {
        ImGui::SetKeyboardFocusHere();
        box.focus = false;
    }
    if (box.shown.capacity() < 16) box.shown.reserve(16);
    const bool entered = ImGui::InputTextMultiline("##message", box.shown.data(), box.shown.capacity() + 1,
                                                   ImVec2(-FLT_MIN, field_height(box)), flags, on_field, &box);
    note_widget(ui, "message");
    ux::main_action();  // signed in: the first Tab lands in the message
    // Escape leaves the field; ImGui would also put back the text it had when
    // entered: what was typed stays (the draft holds it, as of the last frame).
    if (ImGui::IsItemDeactivated() && ImGui::IsKeyPressed(ImGuiKey_Escape, false))
        replace(box, draft, draft.size(), false);
    const std::string now_text = text_of(box);
    if (now_text != draft && (ImGui::IsItemActive() || ImGui::IsItemDeactivated())) {
        out.push_back(app::intent::SetDraft{room.room_id(), now_text});
    }
    // Clicked away: nothing is being typed at a caret (a tap on an offered name keeps it).
    if (ImGui::IsItemDeactivated() && !entered && !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) {
        box.caret = std::string::npos;
    }
    const auto take = [&](const RoomMember& m) {
        const app::Edited e = app::complete_mention(now_text, text_caret(box), *query, m);
        replace(box, e.text, e.caret, true);
        out.push_back(app::intent::SetDraft{room.room_id(), e.text});
    };
    const bool can_send = !now_text.empty();
    box.take = nullptr;  // taken in the callback, or the field was not in use
    if (entered) {
        box.focus = true;  // sent or not, the caret stays in the box
        a11y::keep_editing(box.field);  // and the page's input keeps the browser's focus (IME, next keys)
        if (can_send) send(room.room_id(), ui, out);
    }

    if (!offered.empty()) {
        // The names offered for "@...", where the tools are, so nothing below moves.
        for (const RoomMember* m : offered) {
            const std::string label = m->name + "##offer" + m->account_id;
            if (tap_button(beside(label.c_str()))) take(*m);
            if (m == offered.front()) note_widget(ui, "mention_option");
        }
        ImGui::NewLine();
    } else {
        ImGui::BeginDisabled(!can_send);
        a11y::shortcut_next(enter_sends ? "Enter" : "Control+Enter");  // i18n: not shown (aria-keyshortcuts names)
        if (primary_button(tr("conversation.send")) && can_send) send(room.room_id(), ui, out);
        ImGui::EndDisabled();
        note_widget(ui, "queue_message");
        // A file, with what was typed as its message (the draft goes once the upload starts).
        if (tap_button(beside(tr("composer.attach")))) out.push_back(app::intent::PickFile{room.room_id(), now_text});
        note_widget(ui, "attach");
        if (tap_button(beside(tr("composer.to")))) ImGui::OpenPopup("to_picker");
        if (ImGui::BeginPopup("to_picker")) {
            if (room.members().empty()) text_dim(tr("room.no_members"));
            for (const RoomMember& m : room.members()) {
                const std::string label = m.name + "##to" + m.account_id;
                if (ImGui::Selectable(label.c_str())) out.push_back(app::intent::Mention{m.account_id});
            }
            ImGui::EndPopup();
        }
        if (tap_button(beside(tr("composer.info")))) {
            if (auto info = composer::info_box("", now_text)) {
                replace(box, *info, info->size(), true);
                out.push_back(app::intent::SetDraft{room.room_id(), *info});
            }
        }
        if (tap_button(beside(tr("composer.code")))) {
            if (auto code = composer::code_block(now_text)) {
                replace(box, *code, code->size(), true);
                out.push_back(app::intent::SetDraft{room.room_id(), *code});
            }
        }
        // What Enter does now, one control: a choice of the two (the service's
        // client offers both), and the key for a new line beside it. A touch
        // screen has no keys to hint: the choice stays in the header's settings.
        if (!ui.touch) {
            const std::string label = std::string(tr(enter_sends ? "composer.send_enter" : "composer.send_ctrl_enter")) + "##send_key";
            if (tap_button(beside(label.c_str()))) ImGui::OpenPopup("send_key_choice");
            note_widget(ui, "send_key");
            if (ImGui::BeginPopup("send_key_choice")) {
                send_key_choice(ws.settings(), out);
                ImGui::EndPopup();
            }
            if (short_hint(tr(enter_sends ? "composer.hint_new_line" : "composer.hint_enter_new_line")))
                note_widget(ui, "queue_hint");
        }
    }
    ImGui::EndChild();
    // The conversation above was sized from the box as last drawn: a box
    // that changed height lays the pane out again in the next frame, so the
    // two never overlap while nothing else happens.
    const float drawn_height = ImGui::GetItemRectSize().y;
    if (drawn_height != g_box_height) redraw_at(ui, Instant{});
    g_box_height = drawn_height;
    note_widget(ui, "composer");
}

}  // namespace roomkey::web::parts
