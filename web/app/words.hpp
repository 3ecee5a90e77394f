// words.hpp: how status lines and questions name things: a room by its name,
// a task and a message by their first words, never by an id. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
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

}  // namespace roomkey::app
