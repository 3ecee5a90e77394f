// main.cpp: the browser platform layer: GLFW + WebGL2 setup, the frame loop,
// and the hand-off between app state, UI and page. Everything browser-specific
// stays here and in page_bridge.cpp.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <string>

#include "page_bridge.hpp"
#include "roomkey/encoding.hpp"
#include "roomkey/random.hpp"
#include "roomkey/sha256.hpp"
#include "ui.hpp"

namespace {

struct App {
    GLFWwindow* window = nullptr;
    roomkey::web::UiView view;
    long frame = 0;
    std::string last_published;
};

App g_app;

std::string make_challenge() {
    // 32 random bytes -> 43-char verifier -> S256 challenge (spec 4.2, RFC 7636).
    const roomkey::RandomSource random = roomkey::web::browser_random;
    const std::string verifier = roomkey::base64url_encode(roomkey::random_bytes(random, 32));
    return roomkey::base64url_encode(roomkey::to_bytes(roomkey::sha256(verifier)));
}

void publish(App& app) {
    // Hand-built JSON: the values are plain ASCII we produced ourselves.
    std::string json = "{\"ready\":true,\"frame\":" + std::to_string(app.frame) + ",\"session\":\"" +
                       app.view.status_line + "\"}";
    // Publish on the first frame and whenever the state text changes, not every frame.
    const std::string key = app.view.status_line;
    if (app.frame == 1 || key != app.last_published) {
        roomkey::web::publish_state(json);
        app.last_published = key;
    }
}

void frame() {
    App& app = g_app;
    const roomkey::web::CanvasSize size = roomkey::web::canvas_size();
    int width = 0;
    int height = 0;
    glfwGetWindowSize(app.window, &width, &height);
    if (size.css_width > 0 && size.css_height > 0 && (size.css_width != width || size.css_height != height)) {
        glfwSetWindowSize(app.window, size.css_width, size.css_height);
    }

    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const roomkey::web::UiIntents intents = roomkey::web::draw_ui(app.view);
    if (intents.make_new_pkce) app.view.pkce_challenge = make_challenge();
    ImGui::Render();

    int fb_width = 0;
    int fb_height = 0;
    glfwGetFramebufferSize(app.window, &fb_width, &fb_height);
    glViewport(0, 0, fb_width, fb_height);
    glClearColor(0.11f, 0.12f, 0.14f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    ++app.frame;
    publish(app);
}

}  // namespace

int main() {
    if (!glfwInit()) {
        std::fprintf(stderr, "roomkey: could not initialise GLFW\n");
        return 1;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    const roomkey::web::CanvasSize size = roomkey::web::canvas_size();
    g_app.window = glfwCreateWindow(size.css_width > 0 ? size.css_width : 1280,
                                    size.css_height > 0 ? size.css_height : 720, "roomkey", nullptr, nullptr);
    if (!g_app.window) {
        std::fprintf(stderr, "roomkey: could not create a WebGL2 context\n");
        return 1;
    }
    glfwMakeContextCurrent(g_app.window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // nothing is written to storage
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(g_app.window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");

    g_app.view.status_line = "signed out";
    g_app.view.pkce_challenge = make_challenge();
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
