// canvas_painter.cpp: see canvas_painter.hpp.
#include "canvas_painter.hpp"

#include <GLES3/gl3.h>
#include <emscripten/html5.h>
#include <imgui.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace roomkey::web {

namespace {

static_assert(sizeof(app::DrawnVertex) == sizeof(ImDrawVert) && offsetof(ImDrawVert, col) == 16 &&
                  std::is_trivially_copyable_v<ImDrawVert>,
              "DrawnVertex mirrors ImDrawVert: position, uv, colour");

// ImGui's draw lists as one triangle sequence, indices made absolute.
app::DrawnFrame drawn_frame(const ImDrawData& draw_data) {
    app::DrawnFrame frame;
    frame.width = draw_data.DisplaySize.x;
    frame.height = draw_data.DisplaySize.y;
    frame.vertices.reserve(static_cast<std::size_t>(draw_data.TotalVtxCount));
    frame.indices.reserve(static_cast<std::size_t>(draw_data.TotalIdxCount));
    for (int n = 0; n < draw_data.CmdListsCount; ++n) {
        const ImDrawList& list = *draw_data.CmdLists[n];
        const auto list_base = static_cast<std::uint32_t>(frame.vertices.size());
        frame.vertices.resize(frame.vertices.size() + static_cast<std::size_t>(list.VtxBuffer.Size));
        std::memcpy(&frame.vertices[list_base], list.VtxBuffer.Data, list.VtxBuffer.size_in_bytes());
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            if (cmd.UserCallback != nullptr) continue;  // roomkey installs none
            app::DrawnBatch batch;
            batch.clip = {cmd.ClipRect.x - draw_data.DisplayPos.x, cmd.ClipRect.y - draw_data.DisplayPos.y,
                          cmd.ClipRect.z - draw_data.DisplayPos.x, cmd.ClipRect.w - draw_data.DisplayPos.y};
            batch.texture = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(cmd.TextureId));
            batch.first_index = static_cast<std::uint32_t>(frame.indices.size());
            batch.index_count = cmd.ElemCount;
            for (unsigned i = 0; i < cmd.ElemCount; ++i) {
                frame.indices.push_back(list_base + cmd.VtxOffset + list.IdxBuffer[static_cast<int>(cmd.IdxOffset + i)]);
            }
            frame.batches.push_back(batch);
        }
    }
    return frame;
}

// The canvas's own program and buffers, made once. ImGui's OpenGL3 backend
// reads back some twenty GL states at every RenderDrawData to restore them
// after (nothing else draws here), and in Chromium each read of the
// viewport, the scissor box or the blend state waits for the GPU process:
// most of a scrolled frame's time went there. This draws the same triangles
// with the same shader and blending, and reads nothing back.
struct Gl {
    GLuint program = 0, vao = 0, vbo = 0, ebo = 0;
    GLint projection = -1;
};

GLuint compiled(GLenum kind, const char* source) {
    const GLuint shader = glCreateShader(kind);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    return shader;
}

const Gl& gl() {
    static Gl g;
    if (g.program != 0) return g;
    const GLuint vertex = compiled(GL_VERTEX_SHADER,
                                   "#version 300 es\n"
                                   "precision highp float;\n"
                                   "layout (location = 0) in vec2 position;\n"
                                   "layout (location = 1) in vec2 uv;\n"
                                   "layout (location = 2) in vec4 colour;\n"
                                   "uniform mat4 projection;\n"
                                   "out vec2 frag_uv;\n"
                                   "out vec4 frag_colour;\n"
                                   "void main() {\n"
                                   "  frag_uv = uv;\n"
                                   "  frag_colour = colour;\n"
                                   "  gl_Position = projection * vec4(position, 0.0, 1.0);\n"
                                   "}\n");
    const GLuint fragment = compiled(GL_FRAGMENT_SHADER,
                                     "#version 300 es\n"
                                     "precision mediump float;\n"
                                     "uniform sampler2D atlas;\n"
                                     "in vec2 frag_uv;\n"
                                     "in vec4 frag_colour;\n"
                                     "layout (location = 0) out vec4 out_colour;\n"
                                     "void main() { out_colour = frag_colour * texture(atlas, frag_uv); }\n");
    g.program = glCreateProgram();
    glAttachShader(g.program, vertex);
    glAttachShader(g.program, fragment);
    glLinkProgram(g.program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    g.projection = glGetUniformLocation(g.program, "projection");
    glUseProgram(g.program);
    glUniform1i(glGetUniformLocation(g.program, "atlas"), 0);
    glGenVertexArrays(1, &g.vao);
    glGenBuffers(1, &g.vbo);
    glGenBuffers(1, &g.ebo);
    glBindVertexArray(g.vao);  // holds the buffers and the layout below
    glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.ebo);
    const auto stride = static_cast<GLsizei>(sizeof(app::DrawnVertex));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(app::DrawnVertex, x)));
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(app::DrawnVertex, u)));
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          reinterpret_cast<const void*>(offsetof(app::DrawnVertex, colour)));
    return g;
}

}  // namespace

bool create_canvas_context() {
    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.minorVersion = 0;
    attributes.alpha = EM_TRUE;  // the page shows through until the first frame, as before
    attributes.depth = EM_FALSE;
    attributes.stencil = EM_FALSE;
    attributes.antialias = EM_FALSE;
    attributes.preserveDrawingBuffer = EM_TRUE;
    const EMSCRIPTEN_WEBGL_CONTEXT_HANDLE context = emscripten_webgl_create_context("#canvas", &attributes);
    return context > 0 && emscripten_webgl_make_context_current(context) == EMSCRIPTEN_RESULT_SUCCESS;
}

void CanvasPainter::paint(ImDrawData& draw_data, const ImVec4& background, bool canvas_intact) {
    app::DrawnFrame next = drawn_frame(draw_data);
    const app::PixelRect canvas{0, 0, next.width, next.height};
    last_region_ = canvas_intact && shown_ ? app::changed_region(*shown_, next) : canvas;
    shown_ = std::move(next);
    if (!last_region_) return;
    const app::PixelRect& r = *last_region_;
    const app::DrawnFrame& frame = *shown_;
    const auto height = static_cast<GLint>(canvas.y1);
    // GL's scissor counts rows from the bottom.
    auto scissor = [height](float x0, float y0, float x1, float y1) {
        glScissor(static_cast<GLint>(x0), static_cast<GLint>(static_cast<float>(height) - y1),
                  static_cast<GLsizei>(x1 - x0), static_cast<GLsizei>(y1 - y0));
    };
    glViewport(0, 0, static_cast<GLsizei>(canvas.x1), height);
    glEnable(GL_SCISSOR_TEST);
    scissor(r.x0, r.y0, r.x1, r.y1);
    glClearColor(background.x, background.y, background.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (frame.indices.empty()) {
        glDisable(GL_SCISSOR_TEST);
        return;
    }
    // ImGui's state: blending as its backend sets it, no culling, depth or stencil.
    const Gl& g = gl();
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_STENCIL_TEST);
    glUseProgram(g.program);
    const float left = draw_data.DisplayPos.x, right = left + draw_data.DisplaySize.x;
    const float top = draw_data.DisplayPos.y, bottom = top + draw_data.DisplaySize.y;
    // clang-format off
    const float projection[16] = {2.0f / (right - left), 0, 0, 0,
                                  0, 2.0f / (top - bottom), 0, 0,
                                  0, 0, -1.0f, 0,
                                  (right + left) / (left - right), (top + bottom) / (bottom - top), 0, 1.0f};
    // clang-format on
    glUniformMatrix4fv(g.projection, 1, GL_FALSE, projection);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(g.vao);
    glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(frame.vertices.size() * sizeof(app::DrawnVertex)),
                 frame.vertices.data(), GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(frame.indices.size() * sizeof(std::uint32_t)),
                 frame.indices.data(), GL_STREAM_DRAW);
    for (const app::DrawnBatch& b : frame.batches) {
        // Each batch inside its clip rectangle and the repainted region.
        const float x0 = std::max(b.clip.x0, r.x0), y0 = std::max(b.clip.y0, r.y0);
        const float x1 = std::min(b.clip.x1, r.x1), y1 = std::min(b.clip.y1, r.y1);
        if (x1 <= x0 || y1 <= y0 || b.index_count == 0) continue;
        scissor(x0, y0, x1, y1);
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(b.texture));
        glDrawElements(
            GL_TRIANGLES, static_cast<GLsizei>(b.index_count), GL_UNSIGNED_INT,
            reinterpret_cast<const void*>(static_cast<std::uintptr_t>(b.first_index) * sizeof(std::uint32_t)));
    }
    glDisable(GL_SCISSOR_TEST);
}

}  // namespace roomkey::web
