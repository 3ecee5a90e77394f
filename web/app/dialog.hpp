// dialog.hpp: the words of a question asked before an action that cannot be
// undone, quoting what it acts on ("Delete this message? 'Alice, the sandbox
// is…' This can't be undone."): never a method, a path or an id. The UI asks
// it in a dialog over the page, so nothing moves. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/app.hpp"

namespace roomkey::app {

struct Question {
    std::string title;   // "Delete this message?"
    std::string quote;   // what it acts on, cut short ("" when not known)
    std::string detail;  // "This can't be undone."
    std::string yes;     // the button that does it
    std::string no;
};

// The question the app waits on in the workspace (a delete asked from the
// conversation; signing out with posts not sent), or nullopt.
std::optional<Question> open_question(const App& app);

}  // namespace roomkey::app
