// bff_keys.hpp: the keys that seal roomkey-helper's BFF cookies, kept in the
// state directory: `bff-key` (seals and opens) and, after a rotation,
// `bff-key.previous` (only opens, so sessions sealed before the rotation
// survive it and are re-sealed with the new key on their next answer). Each
// file is one line: 32 random bytes, base64url, mode 0600. Helpers that
// share the files (one state dir, or copies) serve the same sessions.
#pragma once

#include <optional>
#include <string>

#include "roomkey/random.hpp"
#include "roomkey/result.hpp"

namespace roomkey::helper {

inline constexpr const char* kBffKeyFile = "bff-key";
inline constexpr const char* kBffPreviousKeyFile = "bff-key.previous";

struct BffKeys {
    std::string current;                  // 32 bytes
    std::optional<std::string> previous;  // 32 bytes, after a rotation
};

// Loads both files, creating `bff-key` (0600) when it is missing; two
// helpers starting at once on one state dir end up with the same key.
Result<BffKeys, std::string> load_or_create_bff_keys(const std::string& state_dir, const RandomSource& random);

// `roomkey-helper rotate-bff-key`: bff-key becomes bff-key.previous (the one
// before is dropped: its sessions end) and a new bff-key is written. Running
// helpers read the files when they start: restart them (docs/bff.md).
Result<std::string, std::string> rotate_bff_key(const std::string& state_dir, const RandomSource& random);

}  // namespace roomkey::helper
