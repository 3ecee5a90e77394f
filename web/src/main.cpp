// main.cpp: the browser platform layer: GLFW + WebGL2 setup, HiDPI and
// resizes, the frame runner (draw on change: app/frame_clock.hpp), and the
// hand-off between the app (web/app), the UI (ui.cpp), the transport
// (fetch_transport.cpp) and the browser glue (browser.cpp), both reached
// through the app's effects (perform_effects.cpp), and the page
// (page_bridge.cpp). Everything browser-specific stays in web/src.
//
// There is no permanent frame loop. Everything that can change something
// calls in: input and resizes (page_events.hpp), fetch answers
// (on_fetch_outcome), page API actions (on_page_event), the app's own timer
// (on_wake). Each hands the app what arrived, publishes the new state at
// once, and asks for one animation frame only when the frame clock says a
// frame is due; the frame asks for the next one only while the picture has
// not settled. An idle page therefore runs no code at all, and one timer
// wakes it for the next thing that is due (a countdown's next second, a
// paced post, the token refresh).
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
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/app.hpp"
#include "app/frame_clock.hpp"
#include "app/intents.hpp"
#include "app/page_state.hpp"
#include "app/scope_help.hpp"
#include "roomkey/upload_limits.hpp"
#include "browser.hpp"
#include "browser_font.hpp"
#include "canvas_painter.hpp"
#include "emoji_glyphs.hpp"
#include "fetch_transport.hpp"
#include "file_images.hpp"
#include "file_transfer.hpp"
#include "frame_picture.hpp"
#include "input_queue.hpp"
#include "local_store.hpp"
#include "mention_alerts.hpp"
#include "language.hpp"
#include "page_bridge.hpp"
#include "page_events.hpp"
#include "perform_effects.hpp"
#include "ui.hpp"
#include "ux_frame.hpp"
#include "view_prefs.hpp"

namespace {

// clang-format off
// Whether an animation frame is asked for and not yet run: the page API's
// frameStats().asked_ms, which a test reads when a wait for a frame times out.
EM_JS(void, roomkey_js_frame_asked, (int asked), {
    var api = window['roomkey'];
    if (api && api['_frameAsked']) api['_frameAsked'](asked !== 0);
});
// clang-format on

struct Platform {
    GLFWwindow* window = nullptr;
    std::unique_ptr<roomkey::app::App> app;
    roomkey::web::UiState ui;
    int width = 0;  // canvas backing store, device pixels
    int height = 0;
    float scale = 0.0f;  // device-pixel ratio the fonts and style were built for
    // The canvas's size and ratio are read again (fit_canvas) only after the
    // window changed (kResize): reading them lays the page out, a frame's
    // cost when the text layer or the accessibility tree changed.
    bool resized = true;
    int text_size = -1;  // ui.text_size the fonts were built for
    int dark = -1;       // the theme the style was built for (1 dark, 0 light)
    bool device_objects = false;  // ImGui's GL shaders, buffers and font texture exist
    long frame = 0;
    // The digest of the picture the canvas shows (frame_picture.hpp); none
    // after the canvas was resized or the font texture replaced.
    std::optional<std::uint64_t> on_screen;
    roomkey::web::CanvasPainter painter;
    roomkey::app::PageStatePublisher published;  // what the page holds of the state
    std::string last_widgets;
    bool scope_help_published = false;
    std::string clipboard;  // keeps the pointer ImGui gets alive
    // Draw on change: whether a frame is due and when (app/frame_clock.hpp).
    roomkey::app::FrameClock clock;
    // The animation frame asked for and not yet run (0: none), and when. A
    // hidden tab runs none until it is shown again.
    long frame_request = 0;
    roomkey::Instant frame_asked_at{};
    bool hidden = false;
    // Frames the timer drew because the browser ran no animation frame
    // (kFrameFallback): the page API's frameStats().late.
    long late_frames = 0;
    bool catching_up = false;  // drawing the frames a copy waits for
    // The one timer: the app's next_wake_at() and, while no animation frame
    // is pending, the clock's next frame (a countdown's next second).
    long wake_timer = 0;
    std::optional<roomkey::Instant> wake_at;
    // The room and message of the file picker last opened (effect::PickFile):
    // the chosen file is uploaded there.
    roomkey::app::effect::PickFile pick;
};

Platform g_platform;

const char* get_clipboard(void*) {
    // In a DOM text field the paste event brings the text (once, from the
    // event itself): ImGui's own Ctrl+V must not paste it a second time.
    g_platform.clipboard = roomkey::web::ux::imgui_may_paste() ? roomkey::web::clipboard_text() : std::string();
    return g_platform.clipboard.c_str();
}

// The composer's field holds emoji sequences folded (emoji_glyphs.hpp): a
// copy out of it is the text as typed.
void set_clipboard(void*, const char* text) {
    roomkey::web::copy_to_clipboard(roomkey::web::emoji_unfolded(text ? text : ""));
}

// The canvas backing store follows its CSS size times the device-pixel ratio,
// so text is drawn at the display's own resolution; the fonts and the style
// are rebuilt when the ratio (HiDPI, browser zoom) or the text size changes.
void fit_canvas(Platform& p) {
    float ratio = p.scale;
    if (p.resized) {
        const roomkey::web::CanvasSize size = roomkey::web::canvas_size();
        ratio = static_cast<float>(size.device_pixel_ratio > 0 ? size.device_pixel_ratio : 1.0);
        const int width = static_cast<int>(std::lround(static_cast<float>(size.css_width) * ratio));
        const int height = static_cast<int>(std::lround(static_cast<float>(size.css_height) * ratio));
        p.resized = width <= 0 || height <= 0;  // not laid out yet: asked again next frame
        // Set on the canvas directly: Emscripten's glfwSetWindowSize asks for
        // fullscreen when the size equals the screen's.
        if (width > 0 && height > 0 && (width != p.width || height != p.height)) {
            emscripten_set_canvas_element_size("#canvas", width, height);
            p.width = width;
            p.height = height;
            p.on_screen.reset();  // a resized canvas is blank
        }
    }
    if (ratio != p.scale || p.ui.text_size != p.text_size || roomkey::web::ux::atlas_stale()) {
        p.scale = ratio;
        // The user changed the text size: it lasts for the session.
        if (p.text_size >= 0 && p.ui.text_size != p.text_size) roomkey::web::store_text_size(p.ui.text_size);
        p.text_size = p.ui.text_size;
        // Only the font texture is replaced, all a new atlas needs (1.90.1's
        // DestroyDeviceObjects would also recompile the shaders for nothing).
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        roomkey::web::build_font_atlas(std::round(roomkey::web::kTextSizes[p.text_size] * ratio));
        if (p.device_objects) {
            ImGui_ImplOpenGL3_CreateFontsTexture();
        } else {
            // The first build: the device objects are made now, with the
            // texture of this atlas. Made before it, they would upload an
            // atlas ImGui builds of its own font, only to be replaced here.
            ImGui_ImplOpenGL3_CreateDeviceObjects();
            p.device_objects = true;
        }
        p.dark = -1;  // the style is sized for the ratio too
    }
    // The scheme is asked only when it may have changed (kScheme, a new
    // ratio): a matchMedia at every frame was a scroll's cost.
    if (p.dark < 0) {
        p.dark = roomkey::web::prefers_dark_scheme() ? 1 : 0;
        roomkey::web::apply_theme(ratio, p.dark == 1);
        p.on_screen.reset();  // the background (the clear colour) changed
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

// The page's state, its aria mirror and its scope description change only
// when the snapshot does. Called after everything that can change the app,
// frame or no frame: page API callers see an action's result at once, and a
// hidden tab's page state stays current.
// state().frame is the number of the frame that drew this state,
// or that will (the next one) when it changed outside a frame; widget()
// answers with the number of the last frame drawn. A script that waits for
// a state and then for widget(name).frame >= state().frame clicks where
// that state's control is. `drawn`: called right after a frame drew the
// app as it is now, which nothing but time changed since the last publish
// (a frame that changed the app settles it): only what counts down is built.
void publish(Platform& p, roomkey::Instant now, bool drawn = false) {
    if (p.frame == 0) return;  // ready() means drawn: the first frame publishes first
    roomkey::web::follow_language();  // a new language is kept and put on <html lang>
    std::string text = p.published.changes(*p.app, now, drawn);
    if (!text.empty()) {
        const long frame = drawn ? p.frame : p.frame + 1;
        text.insert(text.size() - 1, ",\"frame\":" + std::to_string(frame));  // i18n: not shown (JSON)
        roomkey::web::publish_state(text);
    }
    if (!p.scope_help_published && p.app->config()) {
        roomkey::web::publish_scope_help(roomkey::app::scope_help_json(p.app->config()->client_type));
        p.scope_help_published = true;
    }
}

EM_BOOL frame(double, void*);
void on_wake(void*);

// A shown page whose animation frame has not run this long after it was
// asked for gets the frame from the timer: WebKit under heavy load was seen
// running none for 30 s while the page was shown (a picture left unsettled).
// Far above a slow frame's interval (software WebGL: 60-170 ms here).
constexpr roomkey::Millis kFrameFallback{500};

void request_frame(Platform& p, roomkey::Instant now) {
    if (p.frame_request != 0) return;
    p.frame_request = emscripten_request_animation_frame(frame, nullptr);
    p.frame_asked_at = now;
    roomkey_js_frame_asked(1);
}

// The animation frame asked for will not run (a hidden or frozen page's, one
// the timer runs instead): the next request asks again.
void drop_frame_request(Platform& p) {
    if (p.frame_request != 0) emscripten_cancel_animation_frame(p.frame_request);
    p.frame_request = 0;
    roomkey_js_frame_asked(0);
}

// Asks for what is due next: an animation frame now, and the timer for the
// app's next wake-up or the clock's next frame. While a frame is pending
// the clock's times wait for it: a hidden tab that runs no frames is then
// woken only for the app's own work (paced posts, the refresh).
void schedule(Platform& p, roomkey::Instant now) {
    if (p.clock.due(now)) request_frame(p, now);
    std::optional<roomkey::Instant> due = p.app->next_wake_at(now);
    std::optional<roomkey::Instant> frame_at;
    if (p.frame_request == 0) {
        frame_at = p.clock.next_at(now);
    } else if (!p.hidden) {
        frame_at = p.frame_asked_at + kFrameFallback;
    }
    if (frame_at && (!due || *frame_at < *due)) due = frame_at;
    if (due == p.wake_at && (p.wake_timer != 0 || !due)) return;
    if (p.wake_timer != 0) emscripten_clear_timeout(p.wake_timer);
    p.wake_timer = 0;
    p.wake_at = due;
    if (!due) return;
    // +1 ms: the timer fires when the time has come, not a hair before it.
    const auto delay = std::chrono::duration_cast<roomkey::Millis>(*due - now).count() + 1;
    p.wake_timer = emscripten_set_timeout(on_wake, static_cast<double>(std::max<long long>(delay, 1)), nullptr);
}

void settle_app(Platform& p, roomkey::Instant now);

// What the browser answers later for the mention alerts (mention_alerts.hpp).
void deliver_intents(const std::vector<roomkey::app::Intent>& intents) {
    Platform& p = g_platform;
    if (!p.app) return;
    const roomkey::Instant now = roomkey::web::now();
    for (const roomkey::app::Intent& intent : intents) p.app->apply(intent, now);
    settle_app(p, now);
}

// After the app changed (or may have): its effects go out and its state is
// published. Returns the ids of the requests sent.
std::vector<std::uint64_t> run_effects(Platform& p, roomkey::Instant now) {
    p.app->tick(now);
    for (const roomkey::app::Intent& kept : roomkey::web::sync_local_store(*p.app)) p.app->apply(kept, now);
    std::vector<std::uint64_t> sent = roomkey::web::perform_effects(p.app->take_effects(), p.pick);
    for (const roomkey::app::effect::LoadImage& load : p.app->take_image_loads()) roomkey::web::load_image(load.file_id, load.url);
    roomkey::web::show_mention_alerts(*p.app);  // title, notifications
    publish(p, now);
    return sent;
}

// ... and a frame shows it.
void settle_app(Platform& p, roomkey::Instant now) {
    run_effects(p, now);
    p.clock.on_change();
    schedule(p, now);
}

// The timer: the app's next wake-up (paced posts, the refresh; browsers
// may delay it to about 1 s in a background tab), the clock's next frame, or
// an animation frame the browser withheld from a shown page (kFrameFallback).
void on_wake(void*) {
    Platform& p = g_platform;
    p.wake_timer = 0;
    p.wake_at.reset();
    if (!p.app) return;
    const roomkey::Instant now = roomkey::web::now();
    if (p.frame_request != 0 && !p.hidden && now >= p.frame_asked_at + kFrameFallback) {
        drop_frame_request(p);
        ++p.late_frames;
        frame(0, nullptr);
        return;
    }
    settle_app(p, now);
}

// An HTTP answer arrived: the app reacts now (the next paced post goes out
// without waiting for a frame), and a frame shows it: at once, or, when the
// answer sent requests of its own, once those are answered too (frame_clock.hpp).
void on_fetch_outcome() {
    Platform& p = g_platform;
    if (!p.app) return;
    const roomkey::Instant now = roomkey::web::now();
    std::vector<std::uint64_t> answered;
    for (roomkey::web::FetchOutcome& outcome : roomkey::web::take_fetch_outcomes()) {
        answered.push_back(outcome.id);
        if (outcome.response) {
            p.app->on_response(outcome.id, *outcome.response, now);
        } else {
            p.app->on_transport_error(outcome.id,
                                      outcome.failure.value_or(roomkey::app::TransportFailure::network_error),
                                      outcome.error, now);
        }
    }
    const std::vector<std::uint64_t> sent = run_effects(p, now);
    p.clock.on_answers(answered, sent, now);
    schedule(p, now);
}

// An upload's body went further: room.upload shows it at once (a
// progress event is a change: it publishes and asks for a frame).
void on_upload_progress(std::uint64_t id, std::int64_t sent, std::int64_t total) {
    Platform& p = g_platform;
    if (!p.app) return;
    p.app->on_upload_progress(id, sent, total);
    settle_app(p, roomkey::web::now());
}

// An image preview loaded, failed or freed (file_images.hpp).
void on_image_answer(const std::string& file_id, bool ok, bool freed, int width, int height) {
    Platform& p = g_platform;
    if (!p.app) return;
    p.app->preview_loaded(file_id, ok, freed, width, height, roomkey::web::now());
    settle_app(p, roomkey::web::now());
}

// A file chosen in the picker goes to the room the picker was opened for;
// a file dropped on the canvas to the open room, with the composer's text.
void on_file_chosen(roomkey::web::ChosenFile file) {
    Platform& p = g_platform;
    if (!p.app) return;
    roomkey::app::intent::UploadFile upload;
    if (file.dropped) {
        if (!p.app->open_room().view().is_open()) return;  // nowhere to put it
        upload.room_id = p.app->open_room().view().room_id();
        upload.message = p.app->workspace().drafts().text(upload.room_id);
    } else {
        upload.room_id = p.pick.room_id;
        upload.message = p.pick.message;
    }
    if (upload.room_id.empty()) return;
    upload.name = std::move(file.name);
    upload.mime = std::move(file.mime);
    upload.data = std::move(file.data);
    upload.size = file.size;
    const roomkey::Instant now = roomkey::web::now();
    p.app->apply(upload, now);
    settle_app(p, now);
}

// Page API actions (window.roomkey.act) are applied as they come, so the
// next state() already shows them.
void take_actions(Platform& p, roomkey::Instant now) {
    const std::string actions = roomkey::web::take_actions();
    if (actions.empty()) return;
    std::vector<std::string> errors;
    for (const roomkey::app::Intent& intent : roomkey::app::parse_actions(actions, errors)) {
        p.app->apply(intent, now);
    }
    for (const std::string& error : errors) roomkey::web::console_warn("roomkey.act: " + error);
}

// What became of clearing the system clipboard (browser.hpp install_clipboard).
void on_clipboard_outcome(int cleared) {
    Platform& p = g_platform;
    if (!p.app) return;
    const roomkey::Instant now = roomkey::web::now();
    p.app->apply(roomkey::app::intent::ClipboardCleared{cleared != 0}, now);
    settle_app(p, now);
}

void on_page_event(int kind) {
    Platform& p = g_platform;
    if (!p.app) return;
    const roomkey::Instant now = roomkey::web::now();
    switch (kind) {
        case roomkey::web::kInput:
            p.clock.on_input();
            break;
        case roomkey::web::kDomInput:
            // Taken now, not at the next frame: behind the keys before it
            // and ahead of those after it (input_queue.hpp).
            roomkey::web::ux::take_dom_requests();
            // A copy or cut: the frames that apply the keys before it, now (input_queue.hpp).
            while (!p.catching_up && roomkey::web::input_queue::catch_up()) {
                drop_frame_request(p);
                p.catching_up = true;  // no frame inside a frame (its events may ask again)
                p.clock.on_input();
                frame(0, nullptr);
                p.catching_up = false;
            }
            p.clock.on_input();
            break;
        case roomkey::web::kScheme:
            p.dark = -1;  // fit_canvas asks for the scheme again
            [[fallthrough]];
        case roomkey::web::kResize:
            p.resized = true;
            p.clock.on_change();  // fit_canvas picks up the new ratio or theme
            break;
        case roomkey::web::kVisible:
            // A frame asked for while hidden may never have run (a page that
            // stopped requestAnimationFrame): ask again.
            drop_frame_request(p);
            p.hidden = false;
            p.app->apply(roomkey::app::intent::SetPageVisible{true}, now);
            settle_app(p, now);
            return;
        case roomkey::web::kHidden:
            p.hidden = true;
            p.app->apply(roomkey::app::intent::SetPageVisible{false}, now);
            settle_app(p, now);
            return;
        case roomkey::web::kRestored:
            // As for kVisible: a frame asked for before the page was frozen
            // may never run; and the whole canvas is painted again.
            drop_frame_request(p);
            p.hidden = false;
            p.resized = true;  // the window may have changed meanwhile
            p.on_screen.reset();
            p.app->apply(roomkey::app::intent::PageRestored{}, now);
            settle_app(p, now);
            return;
        case roomkey::web::kAction:
            take_actions(p, now);
            settle_app(p, now);
            return;
        default:
            return;
    }
    schedule(p, now);
}

// An animation frame asked for by request_frame: draws when the frame clock
// says a frame is due, then asks for the next only if one is.
EM_BOOL frame(double, void*) {
    Platform& p = g_platform;
    if (p.frame_request != 0) roomkey_js_frame_asked(0);
    p.frame_request = 0;
    const roomkey::Instant now = roomkey::web::now();
    if (!p.clock.due(now)) {
        schedule(p, now);
        return EM_FALSE;
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
    roomkey::web::ux::before_new_frame();
    ImGui::NewFrame();
    roomkey::web::ux::after_new_frame();
    const std::vector<roomkey::app::Intent> intents = roomkey::web::draw_ui(*p.app, p.ui, now, p.scale);
    for (const roomkey::app::Intent& intent : intents) p.app->apply(intent, now);
    roomkey::web::ux::after_draw();
    ImGui::Render();

    std::string widgets = widgets_json(p);
    const roomkey::app::FramePicture picture = roomkey::web::frame_picture(*ImGui::GetDrawData(), widgets);
    // The canvas already shows this picture (a frame that only confirms the
    // last one settled, or a tick that changed nothing visible): no GL work,
    // and the browser keeps showing what is there.
    // Otherwise only the part that changed is painted again (a countdown's
    // digit, the caret's line), unless the canvas was blanked.
    if (p.on_screen != picture.digest) {
        p.painter.paint(*ImGui::GetDrawData(), ImGui::GetStyle().Colors[ImGuiCol_WindowBg], p.on_screen.has_value());
        p.on_screen = picture.digest;
    }
    ++p.frame;
    // Glyphs this frame drew that the atlas lacks (rebuilt before the next
    // frame): one more frame.
    const bool ux_needs_frame = roomkey::web::ux::after_render(p.scale);

    p.clock.on_frame(now, picture);
    p.clock.request_at(p.ui.redraw_at);
    if (ux_needs_frame) p.clock.on_change();
    // DOM input that waited for this frame (text behind a key press, an
    // activation) goes on now; what still waits asks for the next frame.
    if (roomkey::web::input_queue::after_frame()) p.clock.on_input();
    if (widgets != p.last_widgets) {
        roomkey::web::publish_widgets(widgets);
        p.last_widgets = std::move(widgets);
    }
    // widget().frame, and whether this picture is final (intents from it change the app).
    roomkey::web::publish_frame(p.frame, intents.empty() && !p.clock.due(now), p.late_frames);
    if (intents.empty()) {
        publish(p, now, true);  // the first frame's, and what only time changed (expires_in)
        schedule(p, now);
    } else {
        settle_app(p, now);
    }
    return EM_FALSE;
}

}  // namespace

int main() {
    // Before anything else: the launch URL and the single-use pending
    // authorization are taken from the page's memory (shell/page.js took the
    // answer out of the address bar and the record out of sessionStorage
    // before the app's files were even asked for).
    std::string launch_url = roomkey::web::take_launch_url();
    const std::optional<std::string> pending = roomkey::web::take_pending_authorization();
    roomkey::web::install_paste_listener();
    roomkey::web::install_clipboard(on_clipboard_outcome);

    Platform& p = g_platform;
    p.ui.utc_offset = roomkey::web::local_utc_offset;
    // The text size this session chose survives a reload (view_prefs.hpp).
    if (const auto size = roomkey::web::stored_text_size()) p.ui.text_size = *size;
    p.ui.touch = roomkey::web::coarse_pointer();
    roomkey::web::install_language();  // before the app says its first word (language.hpp)
    p.app = std::make_unique<roomkey::app::App>(roomkey::web::browser_random, roomkey::web::page_origin());
    p.app->set_user_time(roomkey::web::browser_user_time());  // zone and locale (user_time.hpp)
    p.app->restore_posts(roomkey::web::stored_posts());  // what a session left unsent, for its account
    p.app->start(launch_url, pending, roomkey::web::now());
    roomkey::web::install_mention_alerts(*p.app, deliver_intents, roomkey::web::now());
    launch_url.clear();
    roomkey::web::perform_effects(p.app->take_effects(), p.pick);

    if (!glfwInit()) {
        std::fprintf(stderr, "roomkey: could not initialise GLFW\n");  // i18n: not shown (the console)
        return 1;
    }
    // GLFW brings the window's input; the WebGL2 context is made here, with
    // the attributes partial repaints need (canvas_painter.hpp), which
    // Emscripten's GLFW cannot ask for.
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    const roomkey::web::CanvasSize size = roomkey::web::canvas_size();
    p.window = glfwCreateWindow(size.css_width > 0 ? size.css_width : 1280, size.css_height > 0 ? size.css_height : 720,
                                "roomkey", nullptr, nullptr);
    if (!p.window || !roomkey::web::create_canvas_context()) {
        std::fprintf(stderr, "roomkey: could not create a WebGL2 context\n");  // i18n: not shown (the console)
        roomkey::web::report_cannot_draw();  // not a page that loads forever
        return 1;
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // nothing is written to storage
    io.LogFilename = nullptr;
    // Draw on change: a blinking cursor would need frames forever; a steady
    // one is drawn once.
    io.ConfigInputTextCursorBlink = false;
    ImGui_ImplGlfw_InitForOpenGL(p.window, true);
    roomkey::web::input_queue::install(p.window);
    roomkey::web::ux::init();
    ImGui_ImplOpenGL3_Init("#version 300 es");
    // After the GLFW backend: it installs its own (empty, in Emscripten) clipboard.
    io.GetClipboardTextFn = get_clipboard;
    io.SetClipboardTextFn = set_clipboard;
    io.ClipboardUserData = nullptr;
    fit_canvas(p);  // also makes ImGui's device objects, with the first font atlas

    // From now on the page calls in; the first frame draws what start() set up.
    roomkey::web::set_fetch_listener(on_fetch_outcome);
    roomkey::web::set_upload_progress_listener(on_upload_progress);
    roomkey::web::install_file_input(static_cast<std::int64_t>(roomkey::kMaxUploadFileBytes), on_file_chosen);
    roomkey::web::install_image_loader(on_image_answer);
    roomkey::web::listen_page_events(on_page_event);
    take_actions(p, roomkey::web::now());  // any queued before the app started
    settle_app(p, roomkey::web::now());
    return 0;
}
