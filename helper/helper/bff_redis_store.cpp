// bff_redis_store.cpp: see bff_redis_store.hpp (hiredis 0.14's blocking API).
#include "helper/bff_redis_store.hpp"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <cstdlib>
#include <memory>

namespace roomkey::helper {

namespace {

constexpr const char* kRedisKeyPrefix = "roomkey:bff-revoked:";
// Redis answers a loopback or LAN request in well under a millisecond; a
// store that takes longer than this is treated as unreachable.
constexpr timeval kRedisTimeout{1, 0};

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

bool BffRedisStore::revoke(const std::string& session_id, std::int64_t until_unix) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int attempt = 0; attempt < 2; ++attempt) {  // once more on a fresh connection
        if (!connect_locked()) continue;
        const std::string key = kRedisKeyPrefix + session_id;
        const std::string until = std::to_string(until_unix);
        std::unique_ptr<redisReply, RedisReplyFree> r(static_cast<redisReply*>(
            redisCommand(context_, "SET %b 1 EXAT %b", key.data(), key.size(), until.data(), until.size())));
        if (r && r->type == REDIS_REPLY_STATUS) return true;
        drop_locked(redis_failure(r.get(), context_));
    }
    return false;
}

std::optional<bool> BffRedisStore::revoked(const std::string& session_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!connect_locked()) continue;
        const std::string key = kRedisKeyPrefix + session_id;
        std::unique_ptr<redisReply, RedisReplyFree> r(
            static_cast<redisReply*>(redisCommand(context_, "EXISTS %b", key.data(), key.size())));
        if (r && r->type == REDIS_REPLY_INTEGER) return r->integer > 0;
        drop_locked(redis_failure(r.get(), context_));
    }
    return std::nullopt;
}

bool BffRedisStore::ping() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!connect_locked()) continue;
        std::unique_ptr<redisReply, RedisReplyFree> r(static_cast<redisReply*>(redisCommand(context_, "PING")));
        if (r && r->type == REDIS_REPLY_STATUS) return true;
        drop_locked(redis_failure(r.get(), context_));
    }
    return false;
}

}  // namespace roomkey::helper
