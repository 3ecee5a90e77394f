// input_queue.hpp: the one road every input event takes to ImGui, in the
// order the page delivered it. Keys, mouse buttons and typed characters come
// from GLFW's callbacks and go to Dear ImGui's own input queue (1.87+), which
// trickles them across frames: a quick tap is seen down in one frame and up
// in the next, and text typed after a key press reaches the field after it.
// What ImGui's queue cannot hold waits here: the DOM's events (the canvas's
// paste, the accessibility tree's text, deletions, activation and focus),
// which need a frame of their own or a field to be editable first; while one
// waits, the keys after it wait behind it. Emscripten-only.
#pragma once

#include <string>

struct GLFWwindow;

namespace roomkey::web::input_queue {

// After ImGui_ImplGlfw_InitForOpenGL(window, true): the queue takes the
// key, character and mouse-button callbacks, and passes every event on to
// the backend's, in order. The mouse wheel goes to ImGui from the canvas's
// DOM wheel event (app/wheel_steps.hpp), not from GLFW nor the backend's
// document-wide listener.
void install(GLFWwindow* window);

// Text for the field being edited (`field` 0), or for the accessibility
// tree's field `field` (it is focused first; the text waits for it).
// `replace`: the text replaces the field's content.
void push_text(std::string text, unsigned int field = 0, bool replace = false);

// The keys typed from now on wait until the text field `field` is being
// edited (it is focused first): a control that puts the caret in a field
// (Reply, Edit) loses none of the keys typed right behind its press.
void keys_for_field(unsigned int field);

// A deletion in the accessibility tree's field `field` that came with no
// key (a mobile keyboard's beforeinput "deleteContentBackward" and kin):
// Backspace, or Delete when `forward`, of a character, of a word (as with
// Ctrl), or up to the edge of the text. `replace`: the whole text goes.
enum class DeletionSpan { Character, Word, Line };
void push_deletion(unsigned int field, bool forward, DeletionSpan span, bool replace);

// The accessibility tree's activation or focus of the widget `id`.
void push_activate(unsigned int id);
void push_focus(unsigned int id);

// Right after ImGui::NewFrame: a new frame began.
void frame_began();

// After the frame: what waited goes on, as far as the rule allows. True
// when something still waits, here or in ImGui's queue (a frame must follow).
bool after_frame();

// What the user is told when typed text (or a deletion) waited for a field
// that closed before it arrived: how many characters to type again; "" when
// nothing was lost since text last reached a field.
std::string lost_text_notice();

// A copy or cut of a field's selection takes what the keys before it
// selected, not what the app last drew: the page's copy event writes the
// clipboard in its own handler (Firefox and WebKit refuse a later write), so
// the frames that apply what waits are drawn at once. copy_first() asks for
// them; the caller draws a frame while catch_up() says so.
void copy_first();
bool catch_up();

// Forgets queued text, here and in ImGui's queue (sign-out, "forget the
// clipboard"): keys stay.
void forget_text();

}  // namespace roomkey::web::input_queue
