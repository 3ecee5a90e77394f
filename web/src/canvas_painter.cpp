// canvas_painter.cpp: see canvas_painter.hpp.
#include "canvas_painter.hpp"

#include <GLES3/gl3.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
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

// Every draw command is clipped to `region` too: the backend's scissor then
// keeps each one inside it.
void clip_to(ImDrawData& draw_data, const app::PixelRect& region) {
    const ImVec2 origin = draw_data.DisplayPos;
    for (int n = 0; n < draw_data.CmdListsCount; ++n) {
        for (ImDrawCmd& cmd : draw_data.CmdLists[n]->CmdBuffer) {
            cmd.ClipRect.x = std::max(cmd.ClipRect.x, region.x0 + origin.x);
            cmd.ClipRect.y = std::max(cmd.ClipRect.y, region.y0 + origin.y);
            cmd.ClipRect.z = std::min(cmd.ClipRect.z, region.x1 + origin.x);
            cmd.ClipRect.w = std::min(cmd.ClipRect.w, region.y1 + origin.y);
        }
    }
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
    const auto height = static_cast<GLint>(canvas.y1);
    glViewport(0, 0, static_cast<GLsizei>(canvas.x1), height);
    // GL's scissor counts rows from the bottom.
    glEnable(GL_SCISSOR_TEST);
    glScissor(static_cast<GLint>(r.x0), height - static_cast<GLint>(r.y1), static_cast<GLsizei>(r.x1 - r.x0),
              static_cast<GLsizei>(r.y1 - r.y0));
    glClearColor(background.x, background.y, background.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    clip_to(draw_data, r);
    ImGui_ImplOpenGL3_RenderDrawData(&draw_data);
    glDisable(GL_SCISSOR_TEST);
}

}  // namespace roomkey::web
