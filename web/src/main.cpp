// main.cpp: the browser platform layer: GLFW + WebGL2 setup, HiDPI and
// resizes, the frame loop (draw on change: app/frame_clock.hpp), and the hand-off between the app (web/app), the
// UI (ui.cpp), the transport (fetch_transport.cpp), the browser glue
// (browser.cpp) and the page (page_bridge.cpp). Everything browser-specific
// stays in web/src.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/eventloop.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "app/app.hpp"
#include "app/frame_clock.hpp"
#include "app/intents.hpp"
#include "app/page_state.hpp"
#include "app/scope_help.hpp"
#include "browser.hpp"
#include "browser_font.hpp"
#include "fetch_transport.hpp"
#include "page_bridge.hpp"
#include "ui.hpp"

namespace {

// Counts the page's input events (and resizes, paste, focus, the tab becoming
// visible) in wasm memory: the frame runner compares it on each animation
// frame without a call into JS. Listeners on window in the capture phase, so
// the ImGui backend's own (GLFW's) listeners still get every event.
EM_JS(void, roomkey_js_count_input, (int* counter), {
    var bump = function() {
        HEAP32[counter >> 2] = (HEAP32[counter >> 2] + 1) | 0;
    };
    [
        'mousemove', 'mousedown', 'mouseup', 'wheel', 'keydown', 'keyup', 'keypress', 'paste', 'focus', 'blur',
        'touchstart', 'touchmove', 'touchend', 'resize', 'visibilitychange'
    ]
        .forEach(function(type) { window.addEventListener(type, bump, {capture : true, passive : true}); });
});

struct Platform {
    GLFWwindow* window = nullptr;
    std::unique_ptr<roomkey::app::App> app;
    roomkey::web::UiState ui;
    int width = 0;  // canvas backing store, device pixels
    int height = 0;
    float scale = 0.0f;  // device-pixel ratio the fonts and style were built for
    int text_size = -1;  // ui.text_size the fonts were built for
    long frame = 0;
    std::string last_published;
    std::string last_widgets;
    bool scope_help_published = false;
    std::string clipboard;  // keeps the pointer ImGui gets alive
    // The timer that runs App::tick when frames stop (a background tab).
    long wake_timer = 0;
    std::optional<roomkey::Instant> wake_at;
    // Draw on change: whether an animation frame draws (input_events is
    // bumped by the page's listeners, roomkey_js_count_input).
    roomkey::app::FrameClock clock;
    int input_events = 0;
    int input_seen = 0;
};

Platform g_platform;

const char* get_clipboard(void*) {
    g_platform.clipboard = roomkey::web::clipboard_text();
    return g_platform.clipboard.c_str();
}

void set_clipboard(void*, const char* text) {
    roomkey::web::copy_to_clipboard(text ? text : "");
}

// The canvas backing store follows its CSS size times the device-pixel ratio,
// so text is drawn at the display's own resolution; the fonts and the style
// are rebuilt when the ratio (HiDPI, browser zoom) or the text size changes.
void fit_canvas(Platform& p) {
    const roomkey::web::CanvasSize size = roomkey::web::canvas_size();
    const float ratio = static_cast<float>(size.device_pixel_ratio > 0 ? size.device_pixel_ratio : 1.0);
    const int width = static_cast<int>(std::lround(static_cast<float>(size.css_width) * ratio));
    const int height = static_cast<int>(std::lround(static_cast<float>(size.css_height) * ratio));
    // Set on the canvas directly: Emscripten's glfwSetWindowSize asks for
    // fullscreen when the size equals the screen's.
    if (width > 0 && height > 0 && (width != p.width || height != p.height)) {
        emscripten_set_canvas_element_size("#canvas", width, height);
        p.width = width;
        p.height = height;
    }
    if (ratio != p.scale || p.ui.text_size != p.text_size) {
        p.scale = ratio;
        p.text_size = p.ui.text_size;
        // Only the font texture is replaced: ImGui 1.86's DestroyDeviceObjects
        // keeps its old buffer sizes, and the next draw would overflow them.
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        roomkey::web::build_font_atlas(std::round(roomkey::web::kTextSizes[p.text_size] * ratio));
        ImGui_ImplOpenGL3_CreateFontsTexture();
        roomkey::web::apply_theme(ratio);
    }
}

// {"sign_in":[x,y,w,h],...} in CSS pixels, rounded.
std::string widgets_json(const Platform& p) {
    std::string json = "{";
    for (const auto& [name, rect] : p.ui.widgets) {
        if (json.size() > 1) json += ",";
        json += "\"" + name + "\":[";
        for (std::size_t i = 0; i < rect.size(); ++i) {
            if (i > 0) json += ",";
            json += std::to_string(std::lround(rect[i] / (p.scale > 0 ? p.scale : 1.0f)));
        }
        json += "]";
    }
    return json + "}";
}

void perform(Platform& p, std::vector<roomkey::app::Effect> effects) {
    namespace effect = roomkey::app::effect;
    for (auto& e : effects) {
        std::visit(
            [&](auto& item) {
                using T = std::decay_t<decltype(item)>;
                if constexpr (std::is_same_v<T, effect::Send>) {
                    roomkey::web::fetch_start(item.id, item.request);
                } else if constexpr (std::is_same_v<T, effect::StorePending>) {
                    roomkey::web::store_pending_authorization(item.record);
                } else if constexpr (std::is_same_v<T, effect::Navigate>) {
                    roomkey::web::navigate(item.url);
                } else if constexpr (std::is_same_v<T, effect::CopyText>) {
                    roomkey::web::copy_to_clipboard(item.text);
                } else if constexpr (std::is_same_v<T, effect::ForgetClipboard>) {
                    roomkey::web::forget_clipboard(item.system);
                }
            },
            e);
    }
    (void)p;
}

// The page's state, its aria mirror and its scope description change only
// when the snapshot does.
void publish(Platform& p, roomkey::Instant now) {
    std::string state = roomkey::app::page_state_json(*p.app, now);
    if (state != p.last_published) {
        roomkey::web::publish_state(state);
        p.last_published = std::move(state);
    }
    if (!p.scope_help_published && p.app->config()) {
        roomkey::web::publish_scope_help(roomkey::app::scope_help_json(p.app->config()->client_type));
        p.scope_help_published = true;
    }
}

void schedule_wake(Platform& p, roomkey::Instant now);

// Frames stop in a background tab (requestAnimationFrame), and fetch
// completions stop once nothing is in flight: this timer keeps paced posts
// and the automatic refresh going (browsers may delay it to about 1 s there).
void on_wake(void*) {
    Platform& p = g_platform;
    p.wake_timer = 0;
    p.wake_at.reset();
    if (!p.app) return;
    const roomkey::Instant now = roomkey::web::now();
    p.app->tick(now);
    perform(p, p.app->take_effects());
    publish(p, now);
    schedule_wake(p, now);
    // One frame shows it: the next animation frame, which a hidden tab does not get.
    p.clock.request_at(now);
}

void schedule_wake(Platform& p, roomkey::Instant now) {
    const std::optional<roomkey::Instant> due = p.app->next_wake_at(now);
    if (due == p.wake_at && (p.wake_timer != 0 || !due)) return;
    if (p.wake_timer != 0) emscripten_clear_timeout(p.wake_timer);
    p.wake_timer = 0;
    p.wake_at = due;
    if (!due) return;
    // +1 ms: the timer fires when the time has come, not a hair before it.
    const auto delay = std::chrono::duration_cast<roomkey::Millis>(*due - now).count() + 1;
    p.wake_timer = emscripten_set_timeout(on_wake, static_cast<double>(std::max<long long>(delay, 1)), nullptr);
}

// Hands the app what arrived since the last animation frame; true when
// anything did (a fetch outcome or a page API action).
bool feed_app(Platform& p, roomkey::Instant now) {
    bool changed = false;
    for (roomkey::web::FetchOutcome& outcome : roomkey::web::take_fetch_outcomes()) {
        changed = true;
        if (outcome.response) {
            p.app->on_response(outcome.id, *outcome.response, now);
        } else {
            p.app->on_transport_error(outcome.id,
                                      outcome.failure.value_or(roomkey::app::TransportFailure::network_error),
                                      outcome.error, now);
        }
    }
    const std::string actions = roomkey::web::take_actions();
    if (!actions.empty()) {
        changed = true;
        std::vector<std::string> errors;
        for (const roomkey::app::Intent& intent : roomkey::app::parse_actions(actions, errors)) {
            p.app->apply(intent, now);
        }
        for (const std::string& error : errors) roomkey::web::console_warn("roomkey.act: " + error);
    }
    p.app->tick(now);
    return changed;
}

// An HTTP answer arrived between frames: let the app react now (the next
// paced post goes out without waiting for a frame); drawing waits.
void on_fetch_outcome() {
    Platform& p = g_platform;
    if (!p.app) return;
    const roomkey::Instant now = roomkey::web::now();
    for (roomkey::web::FetchOutcome& outcome : roomkey::web::take_fetch_outcomes()) {
        if (outcome.response) {
            p.app->on_response(outcome.id, *outcome.response, now);
        } else {
            p.app->on_transport_error(outcome.id,
                                      outcome.failure.value_or(roomkey::app::TransportFailure::network_error),
                                      outcome.error, now);
        }
    }
    p.app->tick(now);
    perform(p, p.app->take_effects());
    publish(p, now);
    schedule_wake(p, now);
    p.clock.request_at(now);
}

// Called on every animation frame (requestAnimationFrame: none in a hidden
// tab). Draws only when the frame clock says a frame is due.
void frame() {
    Platform& p = g_platform;
    const roomkey::Instant now = roomkey::web::now();
    if (p.input_events != p.input_seen) {
        p.input_seen = p.input_events;
        p.clock.on_event(now);
    }
    if (feed_app(p, now)) p.clock.on_event(now);
    if (!p.clock.due(now) && p.frame > 0) {
        // Nothing arrived and nothing is due: only what tick() started goes
        // out (then a frame shows it); the state snapshot is not rebuilt.
        std::vector<roomkey::app::Effect> effects = p.app->take_effects();
        if (effects.empty()) return;
        perform(p, std::move(effects));
        publish(p, now);
        schedule_wake(p, now);
        p.clock.on_event(now);
        return;
    }
    fit_canvas(p);

    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // GLFW does not know the canvas size we set: tell ImGui (mouse positions
    // are already in backing-store pixels).
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(p.width), static_cast<float>(p.height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    ImGui::NewFrame();
    for (const roomkey::app::Intent& intent : roomkey::web::draw_ui(*p.app, p.ui, now, p.scale)) {
        p.app->apply(intent, now);
    }
    ImGui::Render();

    glViewport(0, 0, p.width, p.height);
    glClearColor(0.11f, 0.12f, 0.14f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    perform(p, p.app->take_effects());
    ++p.frame;
    publish(p, now);
    schedule_wake(p, now);
    p.clock.on_frame(now);
    // The app's own next_wake_at() reaches the clock through the wake timer
    // (on_wake), which ticks the app first.
    p.clock.request_at(p.ui.redraw_at);
    std::string widgets = widgets_json(p);
    if (widgets != p.last_widgets) {
        roomkey::web::publish_widgets(widgets);
        p.last_widgets = std::move(widgets);
    }
}

}  // namespace

int main() {
    // Before anything else: the authorization answer leaves the address bar
    // (shell/page.js did so already; this keeps the guarantee), and the
    // single-use pending authorization leaves sessionStorage.
    std::string launch_url = roomkey::web::take_launch_url();
    roomkey::web::strip_callback_params();
    const std::optional<std::string> pending = roomkey::web::take_pending_authorization();
    roomkey::web::install_paste_listener();

    Platform& p = g_platform;
    p.ui.utc_offset = roomkey::web::local_utc_offset;
    p.app = std::make_unique<roomkey::app::App>(roomkey::web::browser_random, roomkey::web::page_origin());
    p.app->start(launch_url, pending, roomkey::web::now());
    launch_url.clear();
    perform(p, p.app->take_effects());
    roomkey::web::set_fetch_listener(on_fetch_outcome);

    if (!glfwInit()) {
        std::fprintf(stderr, "roomkey: could not initialise GLFW\n");
        return 1;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    const roomkey::web::CanvasSize size = roomkey::web::canvas_size();
    p.window = glfwCreateWindow(size.css_width > 0 ? size.css_width : 1280, size.css_height > 0 ? size.css_height : 720,
                                "roomkey", nullptr, nullptr);
    if (!p.window) {
        std::fprintf(stderr, "roomkey: could not create a WebGL2 context\n");
        return 1;
    }
    glfwMakeContextCurrent(p.window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // nothing is written to storage
    io.LogFilename = nullptr;
    // Draw on change: a blinking cursor would need frames forever; a steady
    // one is drawn once.
    io.ConfigInputTextCursorBlink = false;
    ImGui_ImplGlfw_InitForOpenGL(p.window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    ImGui_ImplOpenGL3_CreateDeviceObjects();  // now, so fit_canvas replaces (not leaks) the font texture
    // After the GLFW backend: it installs its own (empty, in Emscripten) clipboard.
    io.GetClipboardTextFn = get_clipboard;
    io.SetClipboardTextFn = set_clipboard;
    io.ClipboardUserData = nullptr;
    fit_canvas(p);
    roomkey_js_count_input(&p.input_events);

    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
