// views_state.hpp: the views' part of the page API state (page_state.cpp
// merges it): `room`, `rooms`, `my_tasks`, `contacts`, `incoming_requests`
// (arrays), `room_unread`, `views_loading`, the workspace's `view`,
// `room_filter`, `notifications`, `title`, `console` and the mirror's
// `announce`, spelled exactly as the issue names them.
//
// The page state is published by part (page_state.hpp): each add_* below
// fills the keys it names, and each *_key digests everything that add_*
// reads, so a part whose key did not change is not built again. A builder
// that starts reading something must add it to its key.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/app.hpp"

namespace roomkey::app {

// `view`, `room_filter`, `notifications`, `title`, `views_loading`: small, built each time.
// A JSON object of these fields: one call where nlohmann's brace form
// {{"name", value}, ...} builds every pair as a two-element array inline
// (in a -Oz object file about 190 bytes per field against 40; the linked
// wasm fell 5.5 KB raw when this file and page_state.cpp took it). The
// values are copied: a large array is set with state["name"] = std::move(...).
using Field = std::pair<const char*, nlohmann::json>;
nlohmann::json object_of(std::initializer_list<Field> fields);

void add_views_small(const App& app, nlohmann::json& state);

// `rooms` (every room, in the order drawn) and `room_unread`.
std::uint64_t room_list_key(const App& app);
void add_room_list(const App& app, nlohmann::json& state);

// `room` (the open room as a reader sees it, or null), without `messages`
// and `poll_in_ms`: open_room_messages() (its messages, the user's posts not
// yet delivered at the bottom; null when no room is open) and
// room_poll_in_ms() (a countdown) are published on their own, so a task or
// a member changed does not send the messages again.
std::uint64_t open_room_key(const App& app);
void add_open_room(const App& app, nlohmann::json& state);
std::uint64_t open_room_messages_key(const App& app, Instant now);
nlohmann::json open_room_messages(const App& app, Instant now);
nlohmann::json room_poll_in_ms(const App& app, Instant now);

// `my_tasks`, `contacts`, `incoming_requests`.
std::uint64_t lists_key(const App& app);
void add_lists(const App& app, nlohmann::json& state);

// `console` and `announce` {room, console}.
std::uint64_t console_key(const App& app, const std::string& console_text);
void add_console(const App& app, const std::string& console_text, nlohmann::json& state);

// All of the above at once (the whole state).
void add_views_state(const App& app, Instant now, nlohmann::json& state);

}  // namespace roomkey::app
