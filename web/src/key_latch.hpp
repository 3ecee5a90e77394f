// key_latch.hpp: keeps a key press visible to at least one ImGui frame.
// Dear ImGui 1.86 reads keys as io.KeysDown[] at NewFrame; its GLFW backend
// sets and clears that array as the browser's keydown/keyup arrive. With
// draw on change (main.cpp) frames come only on demand, so a quick tap (or a
// script's keyboard.press) can go down and up between two frames and never
// be seen: Enter on a focused button then does nothing. This latch holds a
// release back until a frame has seen the press, and every key event after
// a held one waits behind it, so order is kept (Ctrl+A, a key pressed
// twice): the way the backend already latches mouse buttons
// (MouseJustPressed), and what ImGui 1.87's input queue does. Emscripten-only.
#pragma once

struct GLFWwindow;

namespace roomkey::web::key_latch {

// After ImGui_ImplGlfw_InitForOpenGL(window, true): puts the latch in front
// of the backend's key callback.
void install(GLFWwindow* window);

// Right after ImGui::NewFrame: every key down now has been seen.
void frame_saw_keys();

// After the frame: the key events held back go to ImGui now, in order, up
// to a release whose press no frame has seen. True when any waited (a frame
// must follow).
bool release_held_keys();

}  // namespace roomkey::web::key_latch
