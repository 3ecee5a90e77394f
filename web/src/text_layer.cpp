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
    nlohmann::json runs = nlohmann::json::array();
};

struct Layer {
    ImGuiWindow* window = nullptr;  // the conversation's, this frame
    ImRect clip;
    std::vector<Message> messages;  // every message when the texts changed, else the drawn ones
    std::size_t current = 0;  // 1 + the index of the message drawn now (its lines go to it); 0: none
    std::uint64_t texts = 0;            // this frame's texts (begin's key); 0: no conversation
    std::uint64_t texts_published = 0;  // the texts the page holds
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
        if (drawn) l.messages.push_back(Message{id, {}});
        l.current = drawn ? l.messages.size() : 0;
        return;
    }
    l.messages.push_back(Message{id, text});
    l.current = drawn ? l.messages.size() : 0;
}

void run(const char* begin, const char* end, ImVec2 at, float width, float size, Run kind) {
    Layer& l = layer();
    // Every line of a drawn message, on screen or in the margin drawn around
    // it: the layer clips them, and find reaches them all.
    if (l.current == 0 || ImGui::GetCurrentWindow() != l.window || begin == end) return;
    l.messages[l.current - 1].runs.push_back({at.x, at.y, width, size, std::string(begin, end), static_cast<int>(kind)});
}

void item(std::string_view text, Run kind, ImVec2 pad) {
    const ImVec2 at = ImGui::GetItemRectMin();
    const float width = ImGui::GetItemRectSize().x - 2.0f * pad.x;  // as drawn (emoji folded)
    run(text.data(), text.data() + text.size(), ImVec2(at.x + pad.x, at.y + pad.y), width, ImGui::GetFontSize(), kind);
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
    }
    // The drawn lines, in CSS px of the page.
    nlohmann::json drawn = nlohmann::json::object();
    for (Message& m : l.messages) {
        if (m.runs.empty()) continue;
        for (nlohmann::json& r : m.runs) {
            r[0] = css(r[0].get<float>() - l.clip.Min.x);
            r[1] = css(r[1].get<float>() - l.clip.Min.y);
            r[2] = css(r[2].get<float>());
            r[3] = css(r[3].get<float>());
        }
        drawn[m.id] = std::move(m.runs);
    }
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
