// input_queue.hpp: the one road every input event takes to ImGui, in the
// order the page delivered it (the rule: web/app/input_order.hpp). Keys and
// mouse buttons come from GLFW's callbacks; characters typed on the canvas,
// the canvas's paste, and the accessibility tree's text and actions come
// from the DOM. Each is queued the moment its event fires, so "Ctrl+A,
// Backspace, typed, pasted, click Queue" reaches the field in that order
// whatever the frame rate. Emscripten-only.
#pragma once

#include <string>

struct GLFWwindow;

namespace roomkey::web::input_queue {

// After ImGui_ImplGlfw_InitForOpenGL(window, true): the queue takes the
// key, character and mouse-button callbacks, and passes every event on to
// the backend's, in order, perhaps a frame later. The mouse wheel goes to
// ImGui from the DOM's wheel event (app/wheel_steps.hpp), not from GLFW.
void install(GLFWwindow* window);

// Text for the field being edited (`field` 0), or for the accessibility
// tree's field `field` (it is focused first; the text waits for it).
// `replace`: the text replaces the field's content.
void push_text(std::string text, unsigned int field = 0, bool replace = false);

// A deletion in the accessibility tree's field `field` that came with no
// key (a mobile keyboard's beforeinput "deleteContentBackward" and kin):
// Backspace, or Delete when `forward`, of a character, of a word (as with
// Ctrl), or up to the edge of the text. `replace`: the whole text goes.
enum class DeletionSpan { Character, Word, Line };
void push_deletion(unsigned int field, bool forward, DeletionSpan span, bool replace);

// The accessibility tree's activation or focus of the widget `id`.
void push_activate(unsigned int id);
void push_focus(unsigned int id);

// After the platform backend's NewFrame, before ImGui::NewFrame.
void before_new_frame();

// Right after ImGui::NewFrame: the frame saw every press so far.
void frame_began();

// After the frame: what waited goes on, as far as the rule allows. True
// when something still waits (a frame must follow).
bool after_frame();

// Something waits for a frame.
bool pending();

// Forgets queued text (sign-out, "forget the clipboard"): keys stay.
void forget_text();

}  // namespace roomkey::web::input_queue
