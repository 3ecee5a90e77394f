// fixture.hpp: the sandbox's data from a JSON fixture file instead of the
// demo data set (roomkey-sandbox --fixture FILE): accounts, rooms, members,
// messages, tasks, files, links, sticky flags and contact requests. The
// schema is documented in docs/sandbox.md ("Fixtures"); every refusal names
// the file, the field (rooms[3].members[0].account_id) and what to do.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "roomkey/result.hpp"
#include "sandbox/chat_model.hpp"

namespace roomkey::sandbox {

// The schema version this sandbox reads ("roomkey_sandbox_fixture": 1).
inline constexpr int kFixtureVersion = 1;
// A fixture file larger than this is refused before it is parsed.
inline constexpr std::size_t kMaxFixtureBytes = 512u * 1024 * 1024;

// Builds the chat data from fixture text; times ("ago") count back from
// `now` (Unix seconds). `file_name` only names the file in messages.
Result<ChatModel, std::string> load_fixture(std::string_view text, std::string_view file_name, std::int64_t now);
// Reads `path` and loads it.
Result<ChatModel, std::string> load_fixture_file(const std::string& path, std::int64_t now);

}  // namespace roomkey::sandbox
