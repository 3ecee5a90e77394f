// bff_redis_store.hpp: the signed-out BFF session ids in Redis, for helpers on
// several machines behind one nginx (--bff-store redis://HOST:PORT[/DB],
// docs/deploy.md step 7). Each sign-out is a key that Redis itself expires
// at the session's end ("roomkey:bff-revoked:<id>", SET ... EXAT), so the
// store never grows past the sessions still alive. One connection (hiredis,
// Debian's libhiredis-dev) under a mutex, opened again after an error, with
// short timeouts (1 s) and, after a failure, a second in which the store is
// not asked: an unreachable or hung store is reported as unknown, never as
// "not revoked", and never holds the requests in a queue of timeouts.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "roomkey/result.hpp"

struct redisContext;
struct redisReply;

namespace roomkey::helper {

// "redis://HOST:PORT" or "redis://HOST:PORT/DB", parsed.
struct RedisAddress {
    std::string host;
    int port = 6379;
    int db = 0;
};
// A clear error (what was wrong, what to write) for anything else.
Result<RedisAddress, std::string> parse_redis_url(const std::string& url);

class BffRedisStore {
public:
    explicit BffRedisStore(RedisAddress address);
    ~BffRedisStore();
    BffRedisStore(const BffRedisStore&) = delete;
    BffRedisStore& operator=(const BffRedisStore&) = delete;

    // Records `session_id` as signed out until `until_unix` (seconds). False
    // when Redis could not be told (error() says why).
    bool revoke(const std::string& session_id, std::int64_t until_unix);
    // Whether `session_id` is signed out; nullopt when Redis cannot be asked.
    std::optional<bool> revoked(const std::string& session_id);
    // Connects (or checks the connection) now: for the helper's start.
    bool ping();
    // The last failure, "redis://HOST:PORT: <reason>".
    std::string error() const;
    std::string url() const;

private:
    bool connect_locked();
    void drop_locked(const std::string& why);
    // Sends a command (send(context) -> redisCommand's reply) and returns
    // the reply when it is of `expected_type`; null when the store failed.
    template <class Send>
    std::unique_ptr<redisReply, void (*)(void*)> command_locked(Send send, int expected_type);

    RedisAddress address_;
    mutable std::mutex mutex_;
    redisContext* context_ = nullptr;
    std::string error_;
    std::chrono::steady_clock::time_point retry_after_{};
};

}  // namespace roomkey::helper
