// bare_main.cpp: the reference build bench/web_size.mjs measures roomkey
// against: Dear ImGui on GLFW + WebGL2 and one emscripten_fetch, built with
// the same size flags, and no roomkey code. The difference in size and in
// time to first frame is what roomkey itself costs.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/fetch.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

namespace {

GLFWwindow* g_window = nullptr;
int g_status = 0;
bool g_reported = false;

// clang-format off
EM_JS(void, bare_js_first_frame, (), {
    window['bareFirstFrameAt'] = performance.now();
});
// clang-format on

void fetched(emscripten_fetch_t* fetch) {
    g_status = fetch->status;
    emscripten_fetch_close(fetch);
}

void frame() {
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ImGui::Begin("bare");
    ImGui::Text("Dear ImGui + fetch, no roomkey code. Fetch status: %d", g_status);
    ImGui::End();
    ImGui::Render();
    int width = 0;
    int height = 0;
    glfwGetFramebufferSize(g_window, &width, &height);
    glViewport(0, 0, width, height);
    glClearColor(0.11f, 0.12f, 0.14f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (!g_reported) {
        g_reported = true;
        bare_js_first_frame();
    }
}

}  // namespace

int main() {
    emscripten_fetch_attr_t attr;
    emscripten_fetch_attr_init(&attr);
    attr.requestMethod[0] = 'G';
    attr.requestMethod[1] = 'E';
    attr.requestMethod[2] = 'T';
    attr.requestMethod[3] = '\0';
    attr.attributes = EMSCRIPTEN_FETCH_LOAD_TO_MEMORY;
    attr.onsuccess = fetched;
    attr.onerror = fetched;
    emscripten_fetch(&attr, "bare.html");

    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    g_window = glfwCreateWindow(1280, 800, "bare", nullptr, nullptr);
    if (!g_window) return 1;
    glfwMakeContextCurrent(g_window);
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(g_window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
