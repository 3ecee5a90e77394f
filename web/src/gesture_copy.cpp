// gesture_copy.cpp: see gesture_copy.hpp.
#include "gesture_copy.hpp"

#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

namespace {

// clang-format off
// The listeners run in the capture phase, before GLFW's and the tree's own.
// A press counts when it began on the canvas over the control and the click
// ends over it too (a drag off the control copies nothing, as in ImGui).
EM_JS(void, roomkey_js_gesture_copy_install, (), {
    var armed = [];        // every copying control of the frame: {id, rect: [x, y, w, h] in CSS px of the canvas, focused, text}
    var pressed = null;    // the control a press began on
    var wrote = null;      // the last write made here: {text, ok (null while pending), at}
    var under = function(event) {
        var canvas = document.getElementById('canvas');
        if (!canvas) return null;
        var box = canvas.getBoundingClientRect();
        var x = event.clientX - box.left, y = event.clientY - box.top;
        for (var i = 0; i < armed.length; i++) {
            var r = armed[i]['rect'];
            if (x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3]) return armed[i];
        }
        return null;
    };
    var write = function(control) {
        if (!navigator.clipboard || !navigator.clipboard.writeText) return;
        var entry = {text: control['text'], ok: null, at: performance.now()};
        wrote = entry;
        navigator.clipboard.writeText(entry.text).then(function() { entry.ok = true; },
                                                       function() { entry.ok = false; });
    };
    window.addEventListener('mousedown', function(event) {
        pressed = event.button === 0 && event.target && event.target.id === 'canvas' ? under(event) : null;
    }, true);
    window.addEventListener('click', function(event) {
        var target = event.target;
        var id = target && target.dataset ? Number(target.dataset.id) : NaN;
        var inTree = armed.filter(function(c) { return c['id'] === id; })[0];
        var control = pressed && under(event) === pressed ? pressed : inTree;
        if (control) write(control);
        pressed = null;
    }, true);
    window.addEventListener('keydown', function(event) {
        if (event.repeat || event.ctrlKey || event.altKey || event.metaKey) return;
        if (event.key !== 'Enter' && event.key !== ' ') return;
        var control = armed.filter(function(c) { return c['focused']; })[0];
        if (control) write(control);
    }, true);
    Module['roomkeyGestureCopy'] = {
        'arm': function(json) { armed = json ? JSON.parse(json) : []; },
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

struct Control {
    ImGuiID id = 0;
    ImRect rect;
    std::string text;
};

struct Armed {
    bool installed = false;
    std::vector<Control> controls;  // this frame's
    std::string published;          // the JSON the page holds ("" nothing)
};

Armed& armed() {
    static Armed instance;
    return instance;
}

}  // namespace

namespace roomkey::web::gesture_copy {

void arm_last_item(const std::string& text) {
    armed().controls.push_back({ImGui::GetItemID(), ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()), text});
}

void publish(float scale) {
    Armed& a = armed();
    if (!a.installed) {
        roomkey_js_gesture_copy_install();
        a.installed = true;
    }
    std::string json;
    if (!a.controls.empty()) {
        const ImGuiContext& g = *GImGui;
        const float s = scale > 0 ? scale : 1.0f;
        const auto css = [s](float v) { return static_cast<int>(std::lround(v / s)); };
        nlohmann::json list = nlohmann::json::array();
        for (const Control& c : a.controls) {
            list.push_back({{"id", c.id},
                            {"rect", {css(c.rect.Min.x), css(c.rect.Min.y), css(c.rect.GetWidth()), css(c.rect.GetHeight())}},
                            {"focused", g.NavId == c.id && !g.NavDisableHighlight},
                            {"text", c.text}});
        }
        json = list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (json != a.published) {
        roomkey_js_gesture_copy_arm(json.c_str());
        a.published = std::move(json);
    }
    a.controls.clear();
}

}  // namespace roomkey::web::gesture_copy
