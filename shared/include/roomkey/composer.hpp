// composer.hpp: the notation the composer inserts: a mention, a reply, a quote, an info box, a code block.
// Each builder reads its output back with notation.hpp, so what it inserts is
// drawn as the part it means; nullopt when it would not be: an id that is not
// digits, or contents that would close the tag early ("[/code]" inside a code
// block, an unbalanced "[/qt]" inside a quote). The service's notation has no
// escape, so such contents cannot be wrapped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace roomkey::composer {

// "[To:1001]Alice": the To picker's insertion. A newline in the name becomes a
// space (the reader takes the rest of the line as the name).
std::optional<std::string> mention(std::string_view account_id, std::string_view name);

// "[rp aid=1002 to=2100-123]Bob\n": the head of a reply to message 123 of room 2100, written by 1002.
std::optional<std::string> reply(std::string_view account_id, std::string_view room_id, std::string_view message_id,
                                 std::string_view name);

// "[qt][qtmeta aid=1002 time=1700000000]text[/qt]\n": a quote of 1002's message sent at that Unix time.
std::optional<std::string> quote(std::string_view account_id, std::int64_t time, std::string_view text);

// "[info][title]T[/title]body[/info]", or "[info]body[/info]" without a title. A
// title that reads as the service's own event ([dtext:KEY]) is refused.
std::optional<std::string> info_box(std::string_view title, std::string_view body);

// "[code]text[/code]".
std::optional<std::string> code_block(std::string_view text);

}  // namespace roomkey::composer
