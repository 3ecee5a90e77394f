// a11y.cpp: the accessibility tree's collection and the DOM text path (see
// a11y.hpp); shell/a11y.js is its other half.
#include "a11y.hpp"

#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "app/a11y_tree.hpp"
#include "app/i18n.hpp"
#include "emoji_glyphs.hpp"
#include "imgui_hooks.hpp"
#include "input_queue.hpp"
#include "page_bridge.hpp"
#include "roomkey/json_text.hpp"
#include "text_layer.hpp"

namespace {

// clang-format off
EM_JS(void, roomkey_js_a11y_apply, (const char* ops), {
    window['roomkey']['_a11yApply'](UTF8ToString(ops));
});

// id 0: no control of the tree has focus (the canvas keeps it).
EM_JS(void, roomkey_js_a11y_focus, (unsigned int id), {
    window['roomkey']['_a11yFocus'](id >>> 0);
});

EM_JS(void, roomkey_js_a11y_caret, (unsigned int id, int x, int y, int height), {
    window['roomkey']['_a11yCaret'](id >>> 0, x, y, height);
});

// url "": no link under the pointer.
EM_JS(void, roomkey_js_a11y_selected, (const char* text), {
    window['roomkey']['_a11ySelected'](UTF8ToString(text));
});

EM_JS(void, roomkey_js_link, (const char* url, int x, int y, int width, int height), {
    window['roomkey']['_a11yLink'](UTF8ToString(url), x, y, width, height);
});

EM_JS(void, roomkey_js_open_link, (const char* url), {
    window.open(UTF8ToString(url), '_blank', 'noopener,noreferrer');
});

EM_JS(int, roomkey_js_a11y_stage_requests, (), {
    return lengthBytesUTF8(window['roomkey']['_stageText'](window['roomkey']['_a11yTake']()));
});

EM_JS(int, roomkey_js_a11y_text_focused, (), {
    return window['roomkey']['_a11yTextFocused']() ? 1 : 0;
});
// clang-format on

using roomkey::app::A11yNode;
using roomkey::app::A11yRole;

struct ItemAdded {
    ImGuiID id;
    ImRect box;
    ImGuiWindow* window;
};

// The latest item `id` added (an item's info follows its ItemAdd): null when none.
const ItemAdded* find_added(const std::vector<ItemAdded>& added, ImGuiID id) {
    for (auto it = added.rbegin(); it != added.rend(); ++it) {
        if (it->id == id) return &*it;
    }
    return nullptr;
}

struct Tree {
    std::vector<A11yNode> nodes;  // this frame, in submission order
    // Flat and reused across frames: every item of every frame passes here,
    // so nothing is allocated per item once they have grown.
    ImGuiStorage index;               // a node's id -> its place in nodes
    std::vector<ItemAdded> added;     // this frame's ItemAdd boxes, in order
    std::vector<ItemAdded> last_added;
    std::vector<A11yNode> published;
    std::string next_shortcut;
    std::string next_name;
    ImGuiID focus_published = 0;
    std::array<int, 4> caret_published{};
    std::string selected_published;  // the focused field's selection, as typed
    std::string link_url;  // under the pointer this frame, and as published
    ImRect link_box;
    std::string link_published;
    std::array<int, 4> link_box_published{};
    ImGuiID compose_id = 0;
    std::string compose_text;
    ImGuiID list = 0;  // the list open now (begin_list): its items become list items
    ImGuiID log = 0;   // the log open now (begin_log)
    ImGuiID log_item = 0;  // its item open now (begin_log_item): the controls' parent
    ImGuiID dialog = 0;    // the dialog open now (begin_dialog): the controls' parent
    // The log's message texts: while their key stays, an item takes its
    // name from the item published last frame (moved, not copied or compared).
    std::uint64_t log_texts = 0;
    std::uint64_t log_texts_published = 0;
    std::size_t log_cursor = 0;  // where the next published item is looked for
    std::vector<std::size_t> names_kept;  // this frame's node, the published node, ...
};

Tree& tree() {
    static Tree instance;
    return instance;
}

// "Reload##rooms" -> "Reload"; "##message" -> "Message"; "###x" -> "X".
std::string accessible_name(const char* label) {
    if (!label) return {};
    std::string text(label);
    const std::size_t hidden = text.find("##");
    std::string visible = text.substr(0, hidden);
    if (!visible.empty() || hidden == std::string::npos) return visible;
    std::string id = text.substr(hidden);
    id.erase(0, id.find_first_not_of('#'));
    for (char& c : id) {
        if (c == '_') c = ' ';
    }
    if (!id.empty() && id[0] >= 'a' && id[0] <= 'z') id[0] = static_cast<char>(id[0] - 'a' + 'A');
    return id;
}

void on_item_add(ImGuiContext& g, const ImRect& bb, ImGuiID id) {
    Tree& t = tree();
    t.added.push_back(ItemAdded{id, bb, g.CurrentWindow});
}

void on_item_info(ImGuiContext& g, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
    Tree& t = tree();
    A11yNode node;
    node.id = id;
    if (flags & ImGuiItemStatusFlags_Checkable) {
        node.role = A11yRole::Checkbox;
        if (flags & ImGuiItemStatusFlags_Checked) node.state |= roomkey::app::kA11yChecked;
    } else if (flags & ImGuiItemStatusFlags_Openable) {
        node.role = A11yRole::Heading;
        node.value = "2";
        node.state |= roomkey::app::kA11yExpandable;
        if (flags & ImGuiItemStatusFlags_Opened) node.state |= roomkey::app::kA11yExpanded;
    } else if ((g.LastItemData.InFlags & ImGuiItemFlags_Inputable) || g.InputTextState.ID == id) {
        // (A multiline field being edited reports its child window's item
        // data here: the text state tells it is this field.)
        node.role = A11yRole::TextField;
        const ImGuiInputTextState& state = g.InputTextState;
        if (state.ID == id) {
            if (state.Flags & ImGuiInputTextFlags_Password) {
                node.state |= roomkey::app::kA11yPassword;
            } else if (state.TextA.Data) {
                // As typed: the composer holds emoji sequences folded (emoji_glyphs.hpp).
                node.value = roomkey::web::emoji_unfolded(std::string_view(state.TextA.Data, static_cast<std::size_t>(state.CurLenA)));
            }
            // One element for the field whatever its state: a role change
            // would replace the DOM input and lose its focus mid-typing.
        }
    } else {
        node.role = A11yRole::Button;
    }
    if (g.LastItemData.InFlags & ImGuiItemFlags_Disabled) node.state |= roomkey::app::kA11yDisabled;
    node.name = t.next_name.empty() ? accessible_name(label) : std::move(t.next_name);
    t.next_name.clear();
    node.shortcut = std::move(t.next_shortcut);
    t.next_shortcut.clear();
    if (const ItemAdded* added = find_added(t.added, id)) {
        const ImRect& r = added->box;
        node.rect = {static_cast<int>(r.Min.x), static_cast<int>(r.Min.y), static_cast<int>(r.GetWidth()),
                     static_cast<int>(r.GetHeight())};
    }
    if (const int existing = t.index.GetInt(id, -1); existing >= 0) {
        const auto at = static_cast<std::size_t>(existing);
        node.parent = t.nodes[at].parent;
        t.nodes[at] = std::move(node);
        return;
    }
    if (t.log != 0) {
        // Inside a log, a control belongs to the message it is drawn in.
        node.parent = t.log_item != 0 ? t.log_item : t.log;
    } else if (t.list != 0) {
        // Inside a list each control is one list item (ul > li > button).
        A11yNode item;
        item.id = ImHashData(&id, sizeof(id), t.list);
        if (item.id == 0) item.id = 1;
        item.parent = t.list;
        item.role = A11yRole::ListItem;
        item.rect = node.rect;
        node.parent = item.id;
        t.nodes.push_back(std::move(item));
    } else if (t.dialog != 0) {
        node.parent = t.dialog;
    }
    t.index.SetInt(id, static_cast<int>(t.nodes.size()));
    t.nodes.push_back(std::move(node));
}

// A node the UI declares itself (a list, a figure), not an ImGui item.
void add_declared(A11yNode node) {
    Tree& t = tree();
    if (t.index.GetInt(node.id, -1) >= 0) return;
    t.index.SetInt(node.id, static_cast<int>(t.nodes.size()));
    t.nodes.push_back(std::move(node));
}

// A list or a log the UI declares, named `name`; its id from `kind` and the name.
ImGuiID declare_container(A11yRole role, const char* kind, const char* name) {
    A11yNode node;
    node.id = ImGui::GetID((std::string("##a11y_") + kind + ":" + name).c_str());
    node.role = role;
    node.name = name;
    add_declared(node);
    return node.id;
}

bool is_text_field(ImGuiID id) {
    // Last frame's nodes (asked only on a focus or an activation, not per frame).
    for (const A11yNode& node : tree().published) {
        if (node.id == id) return node.role == A11yRole::TextField || node.role == A11yRole::MultilineTextField;
    }
    return false;
}

ImGuiWindow* window_of(ImGuiID id) {
    const ItemAdded* added = find_added(tree().last_added, id);
    return added ? added->window : nullptr;
}

// Moves keyboard focus (and the visible focus ring) to `id`; a text field
// also starts editing, so the next typed or composed text lands in it.
void focus_item(ImGuiID id) {
    ImGuiContext& g = *GImGui;
    ImGuiWindow* window = window_of(id);
    if (!window) return;
    ImGui::FocusWindow(window);
    ImGui::SetFocusID(id, window);
    g.NavDisableHighlight = false;
    g.NavDisableMouseHover = true;
    if (is_text_field(id) && g.ActiveId != id) {
        g.NavNextActivateId = id;
        g.NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
    }
}

void activate_item(ImGuiID id) {
    ImGuiContext& g = *GImGui;
    if (!window_of(id)) return;
    focus_item(id);
    if (!is_text_field(id)) {
        g.NavNextActivateId = id;
        g.NavNextActivateFlags = ImGuiActivateFlags_None;
    }
}

}  // namespace

namespace roomkey::web::a11y {

void install() {
    imgui_hooks::hooks().item_add = on_item_add;
    imgui_hooks::hooks().item_info = on_item_info;
    GImGui->TestEngineHookItems = true;
}

void name_next(std::string name) {
    tree().next_name = std::move(name);
}

void shortcut_next(const char* keys) {
    tree().next_shortcut = keys ? keys : "";
}

void begin_list(const char* name) {
    tree().list = declare_container(A11yRole::List, "list", name);
}

void end_list() {
    tree().list = 0;
}

void begin_log(const char* name, std::uint64_t texts) {
    tree().log = declare_container(A11yRole::Log, "log", name);
    tree().log_item = 0;
    tree().log_texts = texts | 1;
}

bool log_texts_changed() {
    return tree().log_texts != tree().log_texts_published;
}

void end_log() {
    tree().log = 0;
    tree().log_item = 0;
}

void begin_dialog(const std::string& title) {
    // One id whatever the title: its name changes with the language, its node stays.
    A11yNode node;
    node.id = ImGui::GetID("##a11y_dialog");
    node.role = A11yRole::Dialog;
    node.name = title;
    tree().dialog = node.id;
    add_declared(std::move(node));
}

void end_dialog() {
    tree().dialog = 0;
}

void begin_log_item(const char* id, const std::string& text, bool keyed) {
    Tree& t = tree();
    if (t.log == 0) return;
    A11yNode node;
    node.id = ImGui::GetID((std::string("##a11y_log_item:") + id).c_str());
    node.parent = t.log;
    node.role = A11yRole::Article;
    t.log_item = node.id;
    if (t.index.GetInt(node.id, -1) >= 0) return;
    std::size_t kept = t.published.size();
    if (keyed && !log_texts_changed()) {
        // The same text as last frame: the published item's, moved over after the diff.
        for (std::size_t n = 0; n < t.published.size() && kept == t.published.size(); ++n) {
            const std::size_t i = (t.log_cursor + n) % t.published.size();
            if (t.published[i].id == node.id && t.published[i].role == A11yRole::Article) kept = i;
        }
    }
    if (kept < t.published.size()) {
        t.log_cursor = kept + 1;
        t.names_kept.push_back(t.nodes.size());
        t.names_kept.push_back(kept);
    } else {
        node.name = text;
    }
    add_declared(std::move(node));
}

void end_log_item() {
    Tree& t = tree();
    if (t.log == 0) return;
    // Over the message as drawn (the group just ended): touch exploration and magnifiers find it there.
    if (const int at = t.index.GetInt(t.log_item, -1); at >= 0) {
        const ImVec2 min = ImGui::GetItemRectMin();
        const ImVec2 max = ImGui::GetItemRectMax();
        t.nodes[static_cast<std::size_t>(at)].rect = {static_cast<int>(min.x), static_cast<int>(min.y),
                                                      static_cast<int>(max.x - min.x), static_cast<int>(max.y - min.y)};
    }
    t.log_item = 0;
}

void log_item_not_drawn(const char* id, const std::string& text) {
    begin_log_item(id, text, true);
    tree().log_item = 0;  // no rect: it is not on the canvas
}

void describe_last_item(const char* id, const std::string& description) {
    A11yNode node;
    node.id = ImGui::GetID((std::string("##a11y_image:") + id).c_str());
    node.role = A11yRole::Image;
    node.name = description;
    const Tree& t = tree();
    node.parent = t.log != 0 ? (t.log_item != 0 ? t.log_item : t.log) : t.list;  // a message's image is in it
    const ImVec2 min = ImGui::GetItemRectMin();
    const ImVec2 max = ImGui::GetItemRectMax();
    node.rect = {static_cast<int>(min.x), static_cast<int>(min.y), static_cast<int>(max.x - min.x),
                 static_cast<int>(max.y - min.y)};
    add_declared(std::move(node));
}

bool take_dom_requests() {
    Tree& t = tree();
    const std::string staged = detail::read_staged(roomkey_js_a11y_stage_requests());
    if (staged.empty()) return false;
    const nlohmann::json requests = roomkey::parse_json_text(staged);
    if (!requests.is_array()) return false;
    bool taken = false;
    for (const nlohmann::json& r : requests) {
        if (!r.is_object()) continue;
        const std::string type = r.value("type", "");
        if (type == "show") {
            // The page's find or selection reached a message not drawn: show it.
            text_layer::show(r.value("message_id", ""));
            taken = true;
            continue;
        }
        if (type == "selection") {
            // The conversation's selection changed: a Quote of the menu takes it.
            text_layer::Selection changed{r.value("text", ""), {}};
            if (const auto ids = r.find("message_ids"); ids != r.end() && ids->is_array()) {
                for (const nlohmann::json& id : *ids) {
                    if (id.is_string()) changed.message_ids.push_back(id.get<std::string>());
                }
            }
            text_layer::selection_changed(std::move(changed));
            taken = true;
            continue;
        }
        if (type == "keys_first") {
            // A copy or cut: the keys before it first (input_queue.hpp).
            input_queue::copy_first();
            taken = true;
            continue;
        }
        if (!r.contains("id") || !r["id"].is_number_unsigned()) continue;
        const auto id = r["id"].get<ImGuiID>();
        taken = true;
        // Activation, focus, text and deletions take the one road keys take, in the
        // order the DOM delivered them (input_queue.hpp).
        if (type == "activate") {
            input_queue::push_activate(id);
        } else if (type == "focus") {
            input_queue::push_focus(id);
        } else if (type == "text") {
            input_queue::push_text(r.value("text", ""), id, r.value("replace", false));
        } else if (type == "delete") {
            const std::string span = r.value("span", "char");
            input_queue::push_deletion(id, r.value("forward", false),
                                       span == "word"   ? input_queue::DeletionSpan::Word
                                       : span == "line" ? input_queue::DeletionSpan::Line
                                                        : input_queue::DeletionSpan::Character,
                                       r.value("replace", false));
        } else if (type == "compose") {
            // The composition in progress is only drawn, never typed.
            t.compose_id = id;
            t.compose_text = r.value("text", "");
        }
    }
    return taken;
}

void draw_composition() {
    Tree& t = tree();
    ImGuiContext& g = *GImGui;
    if (t.compose_text.empty() || g.ActiveId != t.compose_id) return;
    if (!g.PlatformImeData.WantVisible) return;  // no field drew a caret this frame
    // At the caret (InputPos is the caret's top left), clipped to the field.
    const ImVec2 pos = g.PlatformImeData.InputPos;
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const ItemAdded* box = find_added(t.added, t.compose_id);
    if (box) draw->PushClipRect(box->box.Min, box->box.Max, true);
    const ImVec2 at(pos.x + 1.0f, pos.y);
    const ImVec2 size = ImGui::CalcTextSize(t.compose_text.c_str());
    draw->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), ImGui::GetColorU32(ImGuiCol_FrameBgActive));
    draw->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), t.compose_text.c_str());
    const float underline = std::max(1.0f, std::round(g.FontSize / 14.0f));
    draw->AddLine(ImVec2(at.x, at.y + size.y - underline), ImVec2(at.x + size.x, at.y + size.y - underline),
                  ImGui::GetColorU32(ImGuiCol_Text), underline);
    if (box) draw->PopClipRect();
}

void publish(float scale) {
    Tree& t = tree();
    ImGuiContext& g = *GImGui;
    const float s = scale > 0 ? scale : 1.0f;
    for (A11yNode& node : t.nodes) {
        for (int& v : node.rect) v = static_cast<int>(std::lround(static_cast<float>(v) / s));
    }
    text_layer::publish(s);
    // A log item whose text stayed: the diff sees no name on either side,
    // then the item takes the published one's.
    std::vector<std::string> names;
    for (std::size_t i = 1; i < t.names_kept.size(); i += 2) names.push_back(std::move(t.published[t.names_kept[i]].name));
    std::vector<app::A11yOp> ops = app::diff_a11y_tree(t.published, t.nodes);
    for (std::size_t i = 0; i < names.size(); ++i) {
        A11yNode& node = t.nodes[t.names_kept[2 * i]];
        for (app::A11yOp& op : ops) {  // an item that moved (a row drawn) is sent with its text
            if (op.node.id == node.id && op.kind != app::A11yOp::Kind::Remove) op.node.name = names[i];
        }
        node.name = std::move(names[i]);
    }
    if (!ops.empty()) roomkey_js_a11y_apply(app::a11y_ops_json(ops).c_str());
    t.names_kept.clear();
    t.log_texts_published = t.log_texts;
    t.log_texts = 0;
    t.log_cursor = 0;

    // Focus: the field being edited, else the item the keyboard ring is on.
    ImGuiID focus = 0;
    if (g.ActiveId != 0 && t.index.GetInt(g.ActiveId, -1) >= 0 && g.InputTextState.ID == g.ActiveId) {
        focus = g.ActiveId;
    } else if (g.NavId != 0 && !g.NavDisableHighlight && t.index.GetInt(g.NavId, -1) >= 0) {
        focus = g.NavId;
    }
    // A press on the field being edited hands the page's focus back to it:
    // the page may have moved its focus away meanwhile (a script, the
    // browser's own UI) while the app still edits the field.
    bool pressed_on_focus = false;
    if (focus != 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        const std::array<int, 4>& r = t.nodes[static_cast<std::size_t>(t.index.GetInt(focus))].rect;
        const int x = static_cast<int>(g.IO.MousePos.x / s), y = static_cast<int>(g.IO.MousePos.y / s);
        pressed_on_focus = x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3];
    }
    if (focus != t.focus_published || pressed_on_focus) {
        roomkey_js_a11y_focus(focus);
        t.focus_published = focus;
    }
    // What the field being edited has selected, as typed (emoji unfolded):
    // the page's copy and cut events put it on the clipboard in their own
    // handler (a11y.js), the one place every engine allows the write.
    std::string selected;
    const ImGuiInputTextState& field = g.InputTextState;
    if (focus != 0 && focus == g.ActiveId && field.ID == focus && field.HasSelection() &&
        !(field.Flags & ImGuiInputTextFlags_Password) && field.TextA.Data) {
        const ImWchar* w = field.TextW.Data;
        const int a = ImClamp(ImMin(field.Stb.select_start, field.Stb.select_end), 0, field.CurLenW);
        const int b = ImClamp(ImMax(field.Stb.select_start, field.Stb.select_end), 0, field.CurLenW);
        const int from = ImTextCountUtf8BytesFromStr(w, w + a), to = from + ImTextCountUtf8BytesFromStr(w + a, w + b);
        if (to <= field.CurLenA) selected = roomkey::web::emoji_unfolded(std::string_view(field.TextA.Data + from, static_cast<std::size_t>(to - from)));
    }
    if (selected != t.selected_published) {
        roomkey_js_a11y_selected(selected.c_str());
        t.selected_published = std::move(selected);
    }
    // The DOM input follows the caret, so an IME's candidate window opens
    // next to the text being composed.
    std::array<int, 4> caret{};
    const ImVec2 pos = g.PlatformImeData.InputPos;
    if (focus != 0 && focus == g.ActiveId && g.PlatformImeData.WantVisible) {
        caret = {static_cast<int>(focus), static_cast<int>(std::lround(pos.x / s)),
                 static_cast<int>(std::lround(pos.y / s)),
                 static_cast<int>(std::lround(g.FontSize / s))};
    }
    if (caret != t.caret_published) {
        if (caret[0] != 0) roomkey_js_a11y_caret(static_cast<unsigned int>(caret[0]), caret[1], caret[2], caret[3]);
        t.caret_published = caret;
    }

    // The link under the pointer gets the page's <a> over it.
    std::array<int, 4> link_box{};
    if (!t.link_url.empty()) {
        link_box = {static_cast<int>(std::lround(t.link_box.Min.x / s)), static_cast<int>(std::lround(t.link_box.Min.y / s)),
                    static_cast<int>(std::lround(t.link_box.GetWidth() / s)),
                    static_cast<int>(std::lround(t.link_box.GetHeight() / s))};
    }
    if (t.link_url != t.link_published || link_box != t.link_box_published) {
        roomkey_js_link(t.link_url.c_str(), link_box[0], link_box[1], link_box[2], link_box[3]);
        t.link_published = t.link_url;
        t.link_box_published = link_box;
    }
    t.link_url.clear();

    t.published = std::move(t.nodes);
    t.nodes.clear();
    t.list = 0;
    t.log = 0;
    t.log_item = 0;
    t.index.Data.resize(0);  // (ImGuiStorage::Clear would free it)
    std::swap(t.last_added, t.added);
    t.added.clear();
}

void focus(unsigned int id) {
    focus_item(id);
}

void activate(unsigned int id) {
    activate_item(id);
}

void hover_link(const std::string& url, ImVec2 min, ImVec2 max) {
    tree().link_url = url;
    tree().link_box = ImRect(min, max);
}

void open_link(const std::string& url) {
    roomkey_js_open_link(url.c_str());
}

void keep_editing(unsigned int id) {
    ImGuiContext& g = *GImGui;
    g.NavNextActivateId = id;
    g.NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
}

bool text_field_ready(unsigned int id) {
    const ImGuiContext& g = *GImGui;
    return g.ActiveId == id && g.InputTextState.ID == id;
}

void select_all(unsigned int id) {
    ImGuiContext& g = *GImGui;
    if (g.InputTextState.ID == id) g.InputTextState.SelectAll();
}

void select_to_edge(unsigned int id, bool forward) {
    ImGuiContext& g = *GImGui;
    if (g.InputTextState.ID != id) return;
    ImGuiInputTextState& field = g.InputTextState;
    field.Stb.select_start = field.Stb.cursor;
    field.Stb.select_end = forward ? field.CurLenW : 0;
}

bool dom_text_focused() {
    return roomkey_js_a11y_text_focused() != 0;
}

}  // namespace roomkey::web::a11y
