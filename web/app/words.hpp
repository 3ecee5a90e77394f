// words.hpp: how status lines and questions name things: a room by its name,
// a task and a message by their first words, never by an id; and a notice
// kept as its catalog keys, put in words when read. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roomkey/api_records.hpp"

namespace roomkey::app {

// At most `most` characters (UTF-8) of `text` on one line, "…" when cut.
std::string cut_short(std::string_view text, std::size_t most = 40);
// "Launch", or "the room" when the list does not have it.
std::string room_words(const std::vector<Room>* rooms, const std::string& room_id);
// "report.pdf", or "the file" when the room's list does not have it.
std::string file_words(const std::vector<ChatFile>& files, const std::string& file_id);
// "'Review the plan…'" from the first list that has the task, or "The task".
std::string task_words(const std::vector<const std::vector<ChatTask>*>& lists, const std::string& task_id);
// "Admin", "Member", "Read only": a room member's role as the service's
// client says it; a role word it does not know, as it is.
std::string role_words(const std::string& role);

// One piece of a notice: a catalog key and its one argument, or a count
// (tr_n picks the plural), or text that came finished (no key: kept as
// written). `key`, `name` and `value_key` are literals (static storage).
struct Piece {
    const char* key = nullptr;
    const char* name = "";            // the argument's name, "" for none
    std::string value;                // the argument as written (a name, a time), or the finished text
    const char* value_key = nullptr;  // else: the argument is this key's words (a label)
    long long count = -1;             // a plural's count, when >= 0
    std::string text() const;         // in the language of now
};

// A notice (a status line) as a short list of pieces, put in words when it
// is read: after a language switch it reads in the new language, not in the
// one it was written in. The pieces read one after the other, ": " between
// ("Reading your account: 429: ... retrying once in 0:31"). The common case,
// one key and its argument, is a constructor.
struct Words {
    // Out of line (words.cpp): a notice is made in many places, its list once.
    Words() = default;
    Words(const char* key, const char* name = "", std::string value = {}, const char* value_key = nullptr);
    explicit Words(Piece piece);
    static Words counted(const char* key, long long count);
    // Text that came finished, not words (an error's identifier): kept as written.
    static Words as_written(std::string text);
    // These words, then `piece`.
    Words then(Piece piece) &&;
    std::string text() const;  // in the language of now

    std::vector<Piece> pieces;
};

}  // namespace roomkey::app
