// fixture_generator.hpp: `roomkey-sandbox generate`: a large account as a
// fixture (fixture.hpp), deterministic for a seed: Alice (the demo login) in
// many rooms, unread and mentioned in some, tasks, and one long room whose
// messages carry the service's notation ([To], [rp], [qt], [info], [code]),
// Japanese and emoji, with lengths around a median (docs/sandbox.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roomkey/result.hpp"

namespace roomkey::sandbox {

struct GenerateOptions {
    int rooms = 300;             // Alice's rooms, her "my chat" included
    int messages = 100;          // in the long room
    int room_messages = 12;      // in every other room (but "my chat")
    int unread_rooms = 216;      // rooms where Alice has unread messages
    int mention_rooms = 52;      // of those, rooms where they mention her
    int tasks = 101;             // open tasks assigned to Alice
    int accounts = 60;           // accounts besides the 4 demo ones
    int median_chars = 340;      // message length (Unicode characters): median
    int longest_chars = 3000;    // and the longest, in the long room
    std::uint64_t seed = 1;
    std::string out;             // empty = stdout
};

enum class GenerateAction { generate, help };
struct GenerateCommand {
    GenerateAction action = GenerateAction::generate;
    GenerateOptions options;
};

// The arguments after "generate"; the message names the offending one.
Result<GenerateCommand, std::string> parse_generate_args(const std::vector<std::string>& args);
std::string generate_usage();

// The fixture's JSON text (the same bytes for the same options).
std::string generate_fixture(const GenerateOptions& options);

}  // namespace roomkey::sandbox
