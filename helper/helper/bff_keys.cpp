// bff_keys.cpp: reading, creating and rotating the BFF key files (bff_keys.hpp).
#include "helper/bff_keys.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/aes_gcm.hpp"
#include "common/state_dir.hpp"
#include "roomkey/encoding.hpp"

namespace roomkey::helper {
namespace {

std::string key_path(const std::string& state_dir, const char* name) { return state_dir + "/" + name; }

bool key_file_exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

Result<std::string, std::string> read_key(const std::string& path) {
    auto text = native::read_whole_file(path);
    if (!text) return Err{text.error()};
    std::string line = *text;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    auto key = base64url_decode(line);
    if (!key || key->size() != native::kAesGcmKeyBytes) {
        return Err{path + ": not a BFF key (one line: 32 bytes as base64url); remove it to have a new one made, " +
                   "which signs every user out"};
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%03o", static_cast<unsigned>(st.st_mode & 0777));
        return Err{path + ": open to other users (mode " + mode + "); chmod 600 it"};
    }
    return std::move(*key);
}

std::string new_key_line(const RandomSource& random) {
    return base64url_encode(random_bytes(random, native::kAesGcmKeyBytes)) + "\n";
}

// Writes a new key at `path` unless one is there (link() does not replace),
// so two helpers starting at once keep the same one.
Result<Unit, std::string> create_key(const std::string& path, const RandomSource& random) {
    const std::string tmp = path + ".new." + std::to_string(::getpid());
    if (auto ok = native::write_file_atomically(tmp, new_key_line(random), 0600); !ok) return Err{ok.error()};
    const int linked = ::link(tmp.c_str(), path.c_str());
    const int err = errno;
    ::unlink(tmp.c_str());
    if (linked != 0 && err != EEXIST) return Err{"cannot create " + path + ": " + std::strerror(err)};
    return Unit{};
}

}  // namespace

Result<BffKeys, std::string> load_or_create_bff_keys(const std::string& state_dir, const RandomSource& random) {
    if (auto ok = native::ensure_private_dir(state_dir); !ok) return Err{ok.error()};
    const std::string current = key_path(state_dir, kBffKeyFile);
    if (!key_file_exists(current)) {
        if (auto ok = create_key(current, random); !ok) return Err{ok.error()};
    }
    BffKeys keys;
    auto key = read_key(current);
    if (!key) return Err{key.error()};
    keys.current = std::move(*key);
    const std::string previous = key_path(state_dir, kBffPreviousKeyFile);
    if (key_file_exists(previous)) {
        auto old = read_key(previous);
        if (!old) return Err{old.error()};
        keys.previous = std::move(*old);
    }
    return keys;
}

Result<std::string, std::string> rotate_bff_key(const std::string& state_dir, const RandomSource& random) {
    if (auto ok = native::ensure_private_dir(state_dir); !ok) return Err{ok.error()};
    const std::string current = key_path(state_dir, kBffKeyFile);
    const std::string previous = key_path(state_dir, kBffPreviousKeyFile);
    std::string note;
    if (key_file_exists(current)) {
        if (auto ok = read_key(current); !ok) return Err{ok.error()};
        if (::rename(current.c_str(), previous.c_str()) != 0) {
            return Err{"cannot rename " + current + " to " + previous + ": " + std::strerror(errno)};
        }
        note = "the old key is now " + previous + " (it still opens existing sessions); ";
    }
    if (auto ok = native::write_file_atomically(current, new_key_line(random), 0600); !ok) return Err{ok.error()};
    return note + "new key " + current + "; restart every helper that uses these files";
}

}  // namespace roomkey::helper
