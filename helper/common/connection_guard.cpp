// connection_guard.cpp: see connection_guard.hpp.
#include "common/connection_guard.hpp"

#include <sys/socket.h>

#include <condition_variable>
#include <thread>

namespace roomkey::native {

void ConnectionGuard::configure(std::size_t threads, std::size_t per_peer) {
    threads_ = threads;
    per_peer_ = per_peer != 0 ? per_peer : threads * 3 / 4;
}

bool ConnectionGuard::admit(const std::string& peer) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t& count = peers_[peer];
    if (per_peer_ != 0 && count >= per_peer_) return false;
    ++count;
    ++in_service_;
    return true;
}

void ConnectionGuard::leave(const std::string& peer) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = peers_.find(peer);
    if (it == peers_.end()) return;
    if (--it->second == 0) peers_.erase(it);
    --in_service_;
}

bool ConnectionGuard::scarce() const {
    return threads_ != 0 && in_service_.load() * 4 >= threads_ * 3;
}

namespace {

using Clock = std::chrono::steady_clock;

// One thread for the process, started with the first deadline; it sleeps
// until the earliest one (a map of at most the servers' thread counts).
class DeadlineWatch {
public:
    static DeadlineWatch& instance() {
        static DeadlineWatch* watch = new DeadlineWatch();  // never destroyed: its thread outlives static destructors
        return *watch;
    }
    void set(int fd, Clock::time_point when) {
        std::lock_guard<std::mutex> lock(mutex_);
        deadlines_[fd] = when;
        changed_.notify_one();
    }
    void clear(int fd) {
        std::lock_guard<std::mutex> lock(mutex_);
        deadlines_.erase(fd);
    }

private:
    DeadlineWatch() { std::thread([this] { run(); }).detach(); }
    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            const Clock::time_point now = Clock::now();
            Clock::time_point next = Clock::time_point::max();
            for (auto it = deadlines_.begin(); it != deadlines_.end();) {
                if (it->second <= now) {
                    // Under the lock: clear_deadline() comes before close(),
                    // so this fd is still the connection's.
                    ::shutdown(it->first, SHUT_RDWR);
                    it = deadlines_.erase(it);
                } else {
                    if (it->second < next) next = it->second;
                    ++it;
                }
            }
            if (next == Clock::time_point::max()) {
                changed_.wait(lock);
            } else {
                changed_.wait_until(lock, next);
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<int, Clock::time_point> deadlines_;
};

}  // namespace

void set_deadline(int fd, std::chrono::steady_clock::time_point when) { DeadlineWatch::instance().set(fd, when); }

void clear_deadline(int fd) { DeadlineWatch::instance().clear(fd); }

}  // namespace roomkey::native
