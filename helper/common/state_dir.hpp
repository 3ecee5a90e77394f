// state_dir.hpp: where roomkey's native programs keep their state (the local
// CA, the server certificate), shared by roomkey-helper and roomkey-sandbox.
#pragma once

#include <string>

#include "roomkey/result.hpp"

namespace roomkey::native {

// $XDG_STATE_HOME/roomkey, else $HOME/.local/state/roomkey (XDG Base Directory
// spec); empty when neither variable is set.
std::string default_state_dir();

// Creates `path` and its missing parents; the last component gets mode 0700
// because it holds private keys. Fails (with a message naming the path and
// the reason) when it cannot be created or is not a directory.
Result<Unit, std::string> ensure_private_dir(const std::string& path);

// Writes `content` to `path` atomically (temporary file + rename) with the
// given mode, so a concurrent reader never sees half a key.
Result<Unit, std::string> write_file_atomically(const std::string& path, const std::string& content,
                                                unsigned mode);

// The whole file, or a message naming the path and the reason.
Result<std::string, std::string> read_whole_file(const std::string& path);

}  // namespace roomkey::native
