// file_store.hpp: the bytes of the files uploaded to the sandbox (POST
// /rooms/{room_id}/files), by file_id, within a fixed memory budget; and
// the signed, expiring download links that serve them (GET
// /rooms/{room_id}/files/{file_id}?create_download_url=1). The file records
// the API lists live in ChatModel's rooms; this holds only their content.
// Not thread-safe (callers hold the state mutex).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/random.hpp"

namespace roomkey::sandbox {

// The content of every uploaded file together stays under this; storing a
// new file evicts the oldest ones first (their records stay listed, their
// download links answer 404). 64 MiB holds a dozen files of the 5 MB limit.
inline constexpr std::size_t kMaxStoredFileBytes = 64 * 1024 * 1024;
// The service's download_url lives 30 seconds (RAML: create_download_url).
inline constexpr std::int64_t kDownloadUrlLifetimeSeconds = 30;
// The URL path the sandbox serves downloads under: /downloads/<file_id>.
inline constexpr std::string_view kDownloadPath = "/downloads/";

struct StoredFile {
    std::int64_t file_id = 0;
    std::int64_t room_id = 0;
    std::string filename;
    std::string bytes;
};

class FileStore {
public:
    explicit FileStore(std::size_t max_bytes = kMaxStoredFileBytes) : max_bytes_(max_bytes) {}

    // Keeps `file` (evicting the oldest files until it fits); false when it
    // alone is over the budget.
    bool add(StoredFile file);
    const StoredFile* find(std::int64_t file_id) const;
    std::size_t total_bytes() const { return total_; }
    const std::deque<StoredFile>& files() const { return files_; }  // oldest first (the state store)
    // Ids for new files, above the demo data's.
    std::int64_t next_id() { return next_id_++; }

private:
    std::size_t max_bytes_;
    std::int64_t next_id_ = 9100;
    std::size_t total_ = 0;
    std::deque<StoredFile> files_;  // oldest first
};

// What a download link's query proves: which file, until when, signed by
// this process. The key is random per process, so links die with it.
class DownloadSigner {
public:
    explicit DownloadSigner(const RandomSource& random);

    // "expires=<unix s>&signature=<hex HMAC-SHA256>" for the file.
    std::string query(std::int64_t file_id, std::int64_t expires) const;

    enum class Check { ok, malformed, bad_signature, expired };
    // Verifies a link's parameters at `now` (Unix seconds). The signature
    // is compared in constant time and checked before the expiry, so an
    // altered expiry never reads as merely "expired".
    Check check(std::int64_t file_id, std::string_view expires, std::string_view signature, std::int64_t now) const;

private:
    std::string signature(std::int64_t file_id, std::int64_t expires) const;
    std::string key_;
};

// RFC 6266 / RFC 8187: attachment; filename="<ASCII fallback>";
// filename*=UTF-8''<percent-encoded UTF-8>.
std::string attachment_disposition(std::string_view filename);

}  // namespace roomkey::sandbox
