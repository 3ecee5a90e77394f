// bff_revocations.hpp: the BFF session ids signed out (POST /bff/logout),
// each kept until the session's own end, where every helper sharing the
// cookie key sees them: a file in the state directory (bff-revoked), read
// again whenever it changed, so a restarted helper, and any other helper on
// this machine with the same state directory, refuses a replayed copy of a
// signed-out cookie. Helpers on several machines share Redis instead
// (--bff-store redis://..., bff_redis_store.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "helper/bff_redis_store.hpp"

#include "roomkey/time.hpp"

namespace roomkey::helper {

inline constexpr const char* kBffRevokedFile = "bff-revoked";

class BffRevocations {
public:
    // Kept in `state_dir`/bff-revoked, or in `redis` when given; an empty
    // dir and no Redis keep them in memory only.
    explicit BffRevocations(std::string state_dir, std::shared_ptr<BffRedisStore> redis = nullptr);

    // `session_id` is signed out until `until` (its cookie's end). Appended
    // under an exclusive lock, so helpers writing at once lose no line.
    // False when the shared store (Redis) could not be told: the other
    // helpers would still take the cookie.
    bool revoke(const std::string& session_id, Instant until);
    // Whether `session_id` was signed out (by any helper on this store) and
    // its end has not come yet; nullopt when the store cannot be asked.
    std::optional<bool> revoked(const std::string& session_id, Instant now);
    // The store's last failure, for the answer (never key material).
    std::string store_error() const;

private:
    void reload_if_changed();

    std::string path_;
    std::shared_ptr<BffRedisStore> redis_;
    std::mutex mutex_;
    std::map<std::string, std::int64_t> until_;  // id -> unix seconds
    std::int64_t seen_size_ = -1;
    std::int64_t seen_mtime_ns_ = -1;
};

}  // namespace roomkey::helper
