// page_state.hpp: the app's state as the JSON object the page publishes
// (window.roomkey.state(), and the aria-live text mirror built from it). It
// holds no secret: no token, code or verifier, only counts, names and labels.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/app.hpp"

namespace roomkey::app {

// How many log titles the snapshot lists.
inline constexpr std::size_t kPublishedLogEntries = 30;

// The whole state.
std::string page_state_json(const App& app, Instant now);

// The names under which PageStatePublisher sends two fields of `room` on
// their own: a countdown that ticks without `room` being sent again, and the
// messages, sent when they changed (not when a task or a member did). The
// page keeps each inside `room` when `room` itself is replaced.
inline constexpr std::string_view kRoomPollInMs = "room.poll_in_ms";
inline constexpr std::string_view kRoomMessages = "room.messages";

// Publishes the state by parts, so a publish costs what changed: the page
// (shell/page.js) keeps the last state and replaces the top-level parts it
// is given; a name with a dot ("room.poll_in_ms") sets that field inside
// its part. The small parts that tick (countdowns, the rate window) are
// built at each call, the other small ones (the log's titles among them) at
// each call after the app changed; the large ones (the room list, the open
// room, the lists, the console, the catalog) only when a digest of what
// they read changed (views_state.hpp).
class PageStatePublisher {
public:
    // The parts that changed since the last call, as a JSON object ("" when
    // none; the first call gives every part). `time_only`: nothing but time
    // passed since the last call (a frame that changed nothing), so only the
    // small parts and the countdowns are built.
    std::string changes(const App& app, Instant now, bool time_only = false);
    // The groups the last call built ("small": what ticks, "status": the
    // other small parts, "catalog", "rooms", "room", "room.messages", "lists", "console"):
    // tests see that an unchanged part was not rebuilt.
    const std::vector<std::string>& built() const { return built_; }

private:
    // (A JSON object and an array, not std::maps: each map type costs wasm bytes.)
    nlohmann::json sent_ = nlohmann::json::object();  // part -> the text the page holds
    std::array<std::uint64_t, 6> keys_{};             // group -> digest of what it read
    bool published_ = false;                          // the page holds every part
    std::vector<std::string> built_;
};

}  // namespace roomkey::app
