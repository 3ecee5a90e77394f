// settings.hpp: the user's choices that outlive a session, kept per browser
// (the platform stores `stored()` in localStorage and hands it back at
// start): which key sends a message and whether viewing a room marks it
// read. One owner; the open room applies mark_read_on_view.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace roomkey::app {

enum class SendKey { enter, ctrl_enter };  // Enter sends (Shift+Enter: new line) / Ctrl+Enter sends

class Settings {
public:
    SendKey send_key() const { return send_key_; }
    bool mark_read_on_view() const { return mark_read_on_view_; }
    // "" when `value` suits `name`, else what is wrong and what would do;
    // values as text: send_key "enter"|"ctrl_enter", mark_read_on_view "true"|"false".
    static std::string check(std::string_view name, std::string_view value);
    bool set(std::string_view name, std::string_view value);  // false (nothing changes) when check fails
    // {"send_key":"enter","mark_read_on_view":true}; restore ignores what it does not know.
    std::string stored() const;
    void restore(std::string_view stored);
    std::uint64_t revision() const { return revision_; }  // moves on every change (the platform stores then)

private:
    // Ctrl+Enter until chosen otherwise: what the composer always did (a line
    // break never sends by surprise); Enter is one click away.
    SendKey send_key_ = SendKey::ctrl_enter;
    bool mark_read_on_view_ = true;
    std::uint64_t revision_ = 0;
};

std::string_view to_string(SendKey key);

}  // namespace roomkey::app
