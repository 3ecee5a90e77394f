// bff_revocations.cpp: see bff_revocations.hpp. The file holds one line per
// sign-out, "<session id> <unix seconds until>"; lines past their time are
// dropped when a sign-out rewrites it.
#include "helper/bff_revocations.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

namespace roomkey::helper {

namespace {

// The whole file under a shared or exclusive lock (flock: helpers on this
// machine), or "" when it does not exist yet.
std::string read_locked(int fd) {
    std::string text;
    char buf[4096];
    ::lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
    return text;
}

void parse_into(const std::string& text, std::map<std::string, std::int64_t>& out) {
    std::istringstream lines(text);
    std::string id;
    std::int64_t until = 0;
    while (lines >> id >> until) {
        if (until > out[id]) out[id] = until;
    }
}

}  // namespace

BffRevocations::BffRevocations(std::string state_dir, std::shared_ptr<BffRedisStore> redis)
    : path_(state_dir.empty() || redis ? std::string() : state_dir + "/" + kBffRevokedFile), redis_(std::move(redis)) {}

std::string BffRevocations::store_error() const { return redis_ ? redis_->error() : std::string(); }

void BffRevocations::reload_if_changed() {
    if (path_.empty()) return;
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) return;
    const std::int64_t mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    if (st.st_size == seen_size_ && mtime_ns == seen_mtime_ns_) return;
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ::flock(fd, LOCK_SH);
    parse_into(read_locked(fd), until_);
    ::flock(fd, LOCK_UN);
    ::close(fd);
    seen_size_ = st.st_size;
    seen_mtime_ns_ = mtime_ns;
}

bool BffRevocations::revoke(const std::string& session_id, Instant until) {
    const std::int64_t end = unix_seconds(until);
    if (redis_) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (end > until_[session_id]) until_[session_id] = end;
        }
        return redis_->revoke(session_id, end);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (end > until_[session_id]) until_[session_id] = end;
    if (path_.empty()) return true;
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return true;  // kept in memory: this helper refuses it still
    ::flock(fd, LOCK_EX);
    // What the other helpers wrote, then every entry still in force, ours included.
    parse_into(read_locked(fd), until_);
    const std::int64_t now = unix_seconds(std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now()));
    std::string text;
    for (const auto& [id, end_at] : until_) {
        if (end_at > now || id == session_id) text += id + " " + std::to_string(end_at) + "\n";
    }
    if (::ftruncate(fd, 0) == 0) {
        ::lseek(fd, 0, SEEK_SET);
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
            if (n <= 0) break;
            done += static_cast<std::size_t>(n);
        }
        ::fsync(fd);
    }
    ::flock(fd, LOCK_UN);
    ::close(fd);
    return true;
}

std::optional<bool> BffRevocations::revoked(const std::string& session_id, Instant now) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        reload_if_changed();
        const auto it = until_.find(session_id);
        if (it != until_.end() && it->second > unix_seconds(now)) return true;
    }
    // Redis expires the key at the session's end itself.
    if (redis_) return redis_->revoked(session_id);
    return false;
}

}  // namespace roomkey::helper
