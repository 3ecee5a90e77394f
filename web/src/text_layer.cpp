// text_layer.cpp: see text_layer.hpp.
#include "text_layer.hpp"

#include <emscripten.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <nlohmann/json.hpp>
#include <vector>

namespace {

// clang-format off
EM_JS(void, roomkey_js_text_messages, (const char* json), {
    window['roomkey']['_textMessages'](UTF8ToString(json));
});
EM_JS(void, roomkey_js_text_runs, (const char* json), {
    window['roomkey']['_textRuns'](UTF8ToString(json));
});
EM_JS(void, roomkey_js_text_select, (const char* id, double start, double end), {
    window['roomkey']['_textSelect'](UTF8ToString(id), start, end);
});
EM_JS(int, roomkey_js_text_dragging, (), {
    return window['roomkey']['_textDragging']() ? 1 : 0;
});
EM_JS(void, roomkey_js_text_copy, (), {
    window['roomkey']['_textCopy']();
});
// clang-format on

struct Message {
    std::string id;
    std::string text;  // only in a frame whose texts changed (texts_changed)
    std::size_t first = 0, end = 0;  // its lines in Layer::lines
};

// A line as drawn, in device px; its text in Layer::chars (kept across
// frames: a frame's lines cost no allocation once the buffers have grown).
struct LayerLine {
    float x, y, width, size;
    int kind;
    std::uint32_t at, length;  // in chars
};

// What the page holds of a drawn message: its lines relative to its first
// one, so a message only moved (a scroll) is sent as its place alone.
struct HeldMessage {
    std::string id;
    std::vector<LayerLine> lines;
    std::string chars;
};

struct Layer {
    ImGuiWindow* window = nullptr;  // the conversation's, this frame
    ImRect clip;
    std::vector<Message> messages;  // every message when the texts changed, else the drawn ones
    std::vector<LayerLine> lines;   // this frame's, of the drawn messages
    std::string chars;              // their texts
    std::size_t current = 0;  // 1 + the index of the message drawn now (its lines go to it); 0: none
    std::uint64_t texts = 0;            // this frame's texts (begin's key); 0: no conversation
    std::uint64_t texts_published = 0;  // the texts the page holds
    std::vector<HeldMessage> held, holding;  // the drawn messages the page holds; this frame's
    std::string runs_published;
    std::string shown;
};

Layer& layer() {
    static Layer instance;
    return instance;
}

std::optional<roomkey::web::text_layer::Selection>& selection() {
    static std::optional<roomkey::web::text_layer::Selection> changed;
    return changed;
}

}  // namespace

namespace roomkey::web::text_layer {

bool begin(std::uint64_t texts) {
    Layer& l = layer();
    l.texts = texts | 1;  // never 0: that is "no conversation"
    l.window = ImGui::GetCurrentWindow();
    l.clip = l.window->InnerClipRect;
    l.messages.clear();
    l.lines.clear();
    l.chars.clear();
    l.current = 0;
    const ImGuiIO& io = ImGui::GetIO();
    const float y = io.MousePos.y;
    if (!io.MouseDown[0] || (y >= l.clip.Min.y && y < l.clip.Max.y) || !roomkey_js_text_dragging()) return false;
    // Faster the further beyond the edge, as in a browser's own text.
    const float step = ImGui::GetFontSize();
    const float over = y < l.clip.Min.y ? y - l.clip.Min.y : y - l.clip.Max.y + 1.0f;
    if (over < 0 ? l.window->Scroll.y <= 0.0f : l.window->Scroll.y >= l.window->ScrollMax.y) return false;
    ImGui::SetScrollY(l.window->Scroll.y + std::clamp(over, -3.0f * step, 3.0f * step));
    return true;
}

bool texts_changed() {
    const Layer& l = layer();
    return l.texts != l.texts_published;
}

void message(const std::string& id, const std::string& text, bool drawn) {
    Layer& l = layer();
    if (!l.window) return;
    if (!texts_changed()) {
        // The page holds every text: only the drawn messages' lines are new.
        if (drawn) l.messages.push_back(Message{id, {}, l.lines.size(), l.lines.size()});
        l.current = drawn ? l.messages.size() : 0;
        return;
    }
    l.messages.push_back(Message{id, text, l.lines.size(), l.lines.size()});
    l.current = drawn ? l.messages.size() : 0;
}

void run(const char* begin, const char* end, ImVec2 at, float width, float size, Run kind) {
    Layer& l = layer();
    // Every line of a drawn message, on screen or in the margin drawn around
    // it: the layer clips them, and find reaches them all.
    if (l.current == 0 || ImGui::GetCurrentWindow() != l.window || begin == end) return;
    const auto length = static_cast<std::uint32_t>(end - begin);
    const auto at_char = static_cast<std::uint32_t>(l.chars.size());
    l.lines.push_back(LayerLine{at.x, at.y, width, size, static_cast<int>(kind), at_char, length});
    l.chars.append(begin, length);
    l.messages[l.current - 1].end = l.lines.size();
}

void item(std::string_view text, Run kind, ImVec2 pad) {
    const ImVec2 at = ImGui::GetItemRectMin();
    const float width = ImGui::GetItemRectSize().x - 2.0f * pad.x;  // as drawn (emoji folded)
    run(text.data(), text.data() + text.size(), ImVec2(at.x + pad.x, at.y + pad.y), width, ImGui::GetFontSize(), kind);
}

// Whether the page still holds message `m`'s lines as drawn this frame,
// relative to its first: a scroll moves every line alike (within rounding).
bool page_holds(const HeldMessage& held, const Layer& l, const Message& m) {
    if (held.lines.size() != m.end - m.first) return false;
    const LayerLine& origin = l.lines[m.first];
    const auto near = [](float a, float b) { return std::fabs(a - b) < 0.05f; };
    for (std::size_t i = 0; i < held.lines.size(); ++i) {
        const LayerLine& a = held.lines[i];
        const LayerLine& b = l.lines[m.first + i];
        if (a.kind != b.kind || a.length != b.length || a.size != b.size || !near(a.x, b.x - origin.x) ||
            !near(a.y, b.y - origin.y) || !near(a.width, b.width) ||
            held.chars.compare(a.at, a.length, l.chars, b.at, b.length) != 0) {
            return false;
        }
    }
    return true;
}

void publish(float scale) {
    Layer& l = layer();
    const float s = scale > 0 ? scale : 1.0f;
    const auto css = [s](float v) { return std::round(v / s * 100.0f) / 100.0f; };
    // The messages' texts: sent again only when they changed (a new message,
    // an edit, other names, another room: the key begin() was given).
    if (texts_changed()) {
        nlohmann::json list = nlohmann::json::array();
        for (const Message& m : l.messages) list.push_back({m.id, m.text});
        roomkey_js_text_messages(list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        l.texts_published = l.texts;
        l.runs_published.clear();
        l.held.clear();  // a changed text is a new message to the page: its lines go again
    }
    // The drawn messages, each at the place of its first line (CSS px of the
    // page); its lines relative to that, only when they changed: a scroll
    // sends places, not text. A message all beyond the clip by more than a
    // quarter of the clip's height stays hidden text (find still reaches it).
    const float margin = l.clip.GetHeight() * 0.25f;
    l.holding.clear();
    nlohmann::json drawn = nlohmann::json::object();
    for (const Message& m : l.messages) {
        bool near_view = false;
        for (std::size_t i = m.first; i < m.end && !near_view; ++i) {
            near_view = l.lines[i].y + l.lines[i].size > l.clip.Min.y - margin && l.lines[i].y < l.clip.Max.y + margin;
        }
        if (!near_view) continue;
        const LayerLine& origin = l.lines[m.first];
        nlohmann::json entry = {css(origin.x - l.clip.Min.x), css(origin.y - l.clip.Min.y)};
        const auto before =
            std::find_if(l.held.begin(), l.held.end(), [&](const HeldMessage& h) { return h.id == m.id; });
        if (before != l.held.end() && page_holds(*before, l, m)) {
            l.holding.push_back(std::move(*before));  // only moved: its place alone
        } else {
            HeldMessage now{m.id, {}, {}};
            nlohmann::json runs = nlohmann::json::array();
            for (std::size_t i = m.first; i < m.end; ++i) {
                LayerLine r = l.lines[i];
                r.x -= origin.x;
                r.y -= origin.y;
                r.at = static_cast<std::uint32_t>(now.chars.size());
                now.chars.append(l.chars, l.lines[i].at, r.length);
                now.lines.push_back(r);
                runs.push_back(
                    {css(r.x), css(r.y), css(r.width), css(r.size), now.chars.substr(r.at, r.length), r.kind});
            }
            entry.push_back(std::move(runs));
            l.holding.push_back(std::move(now));
        }
        drawn[m.id] = std::move(entry);
    }
    std::swap(l.held, l.holding);
    const nlohmann::json box = l.window ? nlohmann::json{css(l.clip.Min.x), css(l.clip.Min.y), css(l.clip.GetWidth()),
                                                         css(l.clip.GetHeight())}
                                        : nlohmann::json{0, 0, 0, 0};
    std::string json = nlohmann::json{{"clip", box}, {"runs", std::move(drawn)}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (json != l.runs_published) {
        roomkey_js_text_runs(json.c_str());
        l.runs_published = std::move(json);
    }
    l.window = nullptr;
    l.current = 0;
    l.texts = 0;
    l.messages.clear();
}

std::optional<Selection> take_selection() {
    return std::exchange(selection(), std::nullopt);
}

void selection_changed(Selection changed) {
    selection() = std::move(changed);
}

std::string take_shown() {
    return std::exchange(layer().shown, std::string());
}

void show(std::string message_id) {
    layer().shown = std::move(message_id);
}

void perform(const app::effect::SelectText& select) {
    roomkey_js_text_select(select.message_id.c_str(), static_cast<double>(select.start),
                           static_cast<double>(select.end));
}

void perform(const app::effect::CopySelection&) {
    roomkey_js_text_copy();
}

}  // namespace roomkey::web::text_layer
