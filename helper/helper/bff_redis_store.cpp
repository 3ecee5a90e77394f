// bff_redis_store.cpp: see bff_redis_store.hpp (hiredis 0.14's blocking API).
#include "helper/bff_redis_store.hpp"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <chrono>
#include <cstdlib>
#include <memory>

namespace roomkey::helper {

namespace {

constexpr const char* kRedisKeyPrefix = "roomkey:bff-revoked:";
// Redis answers a loopback or LAN request in well under a millisecond; a
// store that takes longer than this is treated as unreachable.
constexpr timeval kRedisTimeout{1, 0};
// After a failure, requests are answered "unknown" at once for this long.
constexpr std::chrono::milliseconds kRedisRetryAfter{1000};

struct RedisReplyFree {
    void operator()(redisReply* r) const { freeReplyObject(r); }
};

// Why a command failed: Redis's own error, or the connection's.
std::string redis_failure(const redisReply* r, const redisContext* c) {
    if (r != nullptr && r->str != nullptr) return std::string(r->str, r->len);
    if (r != nullptr) return "unexpected reply type " + std::to_string(r->type);
    return c->errstr[0] != '\0' ? c->errstr : "no answer";
}

bool redis_digits(const std::string& s) {
    return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

Result<RedisAddress, std::string> parse_redis_url(const std::string& url) {
    const std::string usage = "--bff-store: expected redis://HOST:PORT or redis://HOST:PORT/DB (e.g. redis://10.0.0.5:6379), not \"" +
                              url + "\"";
    const std::string scheme = "redis://";
    if (url.rfind(scheme, 0) != 0) return Err{usage};
    std::string rest = url.substr(scheme.size());
    if (rest.find('@') != std::string::npos) {
        return Err{"--bff-store: credentials in the URL are not supported (they would show in process lists); "
                   "bind Redis to a private network instead: " + usage};
    }
    RedisAddress out;
    if (const auto slash = rest.find('/'); slash != std::string::npos) {
        const std::string db = rest.substr(slash + 1);
        if (!redis_digits(db)) return Err{usage};
        out.db = std::atoi(db.c_str());
        rest.resize(slash);
    }
    const auto colon = rest.rfind(':');
    if (colon == std::string::npos || colon == 0 || !redis_digits(rest.substr(colon + 1))) return Err{usage};
    out.host = rest.substr(0, colon);
    if (out.host.size() > 2 && out.host.front() == '[' && out.host.back() == ']') {
        out.host = out.host.substr(1, out.host.size() - 2);
    }
    out.port = std::atoi(rest.substr(colon + 1).c_str());
    if (out.port < 1 || out.port > 65535) return Err{usage};
    return out;
}

BffRedisStore::BffRedisStore(RedisAddress address) : address_(std::move(address)) {}

BffRedisStore::~BffRedisStore() {
    if (context_ != nullptr) redisFree(context_);
}

std::string BffRedisStore::url() const {
    return "redis://" + address_.host + ":" + std::to_string(address_.port) +
           (address_.db != 0 ? "/" + std::to_string(address_.db) : "");
}

std::string BffRedisStore::error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
}

void BffRedisStore::drop_locked(const std::string& why) {
    error_ = url() + ": " + why;
    if (context_ != nullptr) redisFree(context_);
    context_ = nullptr;
}

bool BffRedisStore::connect_locked() {
    if (context_ != nullptr) return true;
    context_ = redisConnectWithTimeout(address_.host.c_str(), address_.port, kRedisTimeout);
    if (context_ == nullptr) {
        error_ = url() + ": out of memory";
        return false;
    }
    if (context_->err != 0) {
        drop_locked(context_->errstr);
        return false;
    }
    redisSetTimeout(context_, kRedisTimeout);
    if (address_.db != 0) {
        std::unique_ptr<redisReply, RedisReplyFree> r(
            static_cast<redisReply*>(redisCommand(context_, "SELECT %d", address_.db)));
        if (!r || r->type == REDIS_REPLY_ERROR) {
            drop_locked(redis_failure(r.get(), context_));
            return false;
        }
    }
    return true;
}

template <class Send>
std::unique_ptr<redisReply, void (*)(void*)> BffRedisStore::command_locked(Send send, int expected_type) {
    using Reply = std::unique_ptr<redisReply, void (*)(void*)>;
    // Shortly after a failure the store is not asked again: a store that
    // hangs would otherwise hold every request for a timeout in turn.
    if (context_ == nullptr && std::chrono::steady_clock::now() < retry_after_) return Reply(nullptr, freeReplyObject);
    for (int attempt = 0; attempt < 2; ++attempt) {
        const bool reused = context_ != nullptr;
        if (connect_locked()) {
            Reply r(static_cast<redisReply*>(send(context_)), freeReplyObject);
            if (r && r->type == expected_type) return r;
            drop_locked(redis_failure(r.get(), context_));
        }
        // A connection kept from before may have been closed by Redis (a
        // restart, an idle timeout): once more on a new one. A new one
        // that failed is the store's answer.
        if (!reused) break;
    }
    retry_after_ = std::chrono::steady_clock::now() + kRedisRetryAfter;
    return Reply(nullptr, freeReplyObject);
}

bool BffRedisStore::revoke(const std::string& session_id, std::int64_t until_unix) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string key = kRedisKeyPrefix + session_id;
    const std::string until = std::to_string(until_unix);
    return command_locked(
               [&](redisContext* c) {
                   return redisCommand(c, "SET %b 1 EXAT %b", key.data(), key.size(), until.data(), until.size());
               },
               REDIS_REPLY_STATUS) != nullptr;
}

std::optional<bool> BffRedisStore::revoked(const std::string& session_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string key = kRedisKeyPrefix + session_id;
    auto r = command_locked([&](redisContext* c) { return redisCommand(c, "EXISTS %b", key.data(), key.size()); },
                            REDIS_REPLY_INTEGER);
    if (!r) return std::nullopt;
    return r->integer > 0;
}

bool BffRedisStore::ping() {
    std::lock_guard<std::mutex> lock(mutex_);
    return command_locked([](redisContext* c) { return redisCommand(c, "PING"); }, REDIS_REPLY_STATUS) != nullptr;
}

}  // namespace roomkey::helper
