// gesture_copy.hpp: a clipboard write inside the user's own gesture (issue
// 28). ImGui answers a click in the animation frame after it, outside the
// click's event handler, and WebKit (and Firefox after a while) refuses a
// clipboard write there. So a control that copies says what it would copy
// when it is drawn; the page keeps that text and the control's place, and
// writes the clipboard in the click's own handler (a press and release on
// the control, as ImGui's button takes it), or in the key's when Enter or
// Space activates the focused control, or in the accessibility tree's
// click. The app's own copy a frame later then finds it done
// (browser.cpp's clipboard write skips a text already written this way).
// Emscripten-only.
#pragma once

#include <string>

namespace roomkey::web::gesture_copy {

// The item just drawn copies `text` when activated (every such control of
// a frame is armed).
void arm_last_item(const std::string& text);

// After ImGui::Render: hands the page what is armed this frame (nothing
// when no copying control was drawn). `scale`: device pixels per CSS pixel.
void publish(float scale);

}  // namespace roomkey::web::gesture_copy
