// gesture_copy.cpp: see gesture_copy.hpp.
#include "gesture_copy.hpp"

#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace {

// clang-format off
// The listeners run in the capture phase, before GLFW's and the tree's own.
// A press counts when it began on the canvas over the control and the click
// ends over it too (a drag off the control copies nothing, as in ImGui).
EM_JS(void, roomkey_js_gesture_copy_install, (), {
    var armed = null;      // {id, rect: [x, y, w, h] in CSS px of the canvas, focused, text}
    var pressedOn = false;
    var wrote = null;      // the last write made here: {text, ok (null while pending), at}
    var over = function(event) {
        var canvas = document.getElementById('canvas');
        if (!armed || !canvas) return false;
        var box = canvas.getBoundingClientRect();
        var x = event.clientX - box.left, y = event.clientY - box.top, r = armed['rect'];
        return x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3];
    };
    var write = function() {
        if (!navigator.clipboard || !navigator.clipboard.writeText) return;
        var entry = {text: armed['text'], ok: null, at: performance.now()};
        wrote = entry;
        navigator.clipboard.writeText(entry.text).then(function() { entry.ok = true; },
                                                       function() { entry.ok = false; });
    };
    window.addEventListener('mousedown', function(event) {
        pressedOn = event.button === 0 && event.target && event.target.id === 'canvas' && over(event);
    }, true);
    window.addEventListener('click', function(event) {
        var target = event.target;
        var inTree = armed && target && target.dataset && Number(target.dataset.id) === armed['id'];
        if (armed && ((pressedOn && over(event)) || inTree)) write();
        pressedOn = false;
    }, true);
    window.addEventListener('keydown', function(event) {
        if (!armed || !armed['focused'] || event.repeat || event.ctrlKey || event.altKey || event.metaKey) return;
        if (event.key === 'Enter' || event.key === ' ') write();
    }, true);
    Module['roomkeyGestureCopy'] = {
        'arm': function(json) { armed = json ? JSON.parse(json) : null; },
        // True when `text` was written here (or is being) in the last 10 s:
        // the app's own write of the same copy is not needed.
        'wrote': function(text) {
            return !!wrote && wrote.text === text && wrote.ok !== false && performance.now() - wrote.at < 10000;
        }
    };
});

EM_JS(void, roomkey_js_gesture_copy_arm, (const char* json), {
    Module['roomkeyGestureCopy']['arm'](UTF8ToString(json));
});
// clang-format on

struct Armed {
    bool installed = false;
    ImGuiID id = 0;  // this frame's
    ImRect rect;
    std::string text;
    std::string published;  // the JSON the page holds ("" nothing)
};

Armed& armed() {
    static Armed instance;
    return instance;
}

}  // namespace

namespace roomkey::web::gesture_copy {

void arm_last_item(const std::string& text) {
    Armed& a = armed();
    a.id = ImGui::GetItemID();
    a.rect = ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    a.text = text;
}

void publish(float scale) {
    Armed& a = armed();
    if (!a.installed) {
        roomkey_js_gesture_copy_install();
        a.installed = true;
    }
    std::string json;
    if (a.id != 0) {
        const ImGuiContext& g = *GImGui;
        const float s = scale > 0 ? scale : 1.0f;
        const auto css = [s](float v) { return static_cast<int>(std::lround(v / s)); };
        json = nlohmann::json{{"id", a.id},
                              {"rect", {css(a.rect.Min.x), css(a.rect.Min.y), css(a.rect.GetWidth()),
                                        css(a.rect.GetHeight())}},
                              {"focused", g.NavId == a.id && !g.NavDisableHighlight},
                              {"text", a.text}}
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (json != a.published) {
        roomkey_js_gesture_copy_arm(json.c_str());
        a.published = std::move(json);
    }
    a.id = 0;
    a.text.clear();
}

}  // namespace roomkey::web::gesture_copy
