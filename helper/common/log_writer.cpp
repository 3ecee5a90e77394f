// log_writer.cpp: one writer thread per log (see the header).
#include "common/log_writer.hpp"

#include <unistd.h>

#include <cerrno>

namespace roomkey::native {
namespace {

void write_all(int fd, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // nowhere to log to: the server goes on without it
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

LogWriter::LogWriter(int fd, std::string prefix) : fd_(fd), prefix_(std::move(prefix)), thread_([this] { run(); }) {}

LogWriter::~LogWriter() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void LogWriter::line(std::string_view text) {
    bool wake = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (pending_.size() + prefix_.size() + text.size() + 1 > kMaxPending) {
            ++dropped_;
            return;
        }
        wake = resting_ && pending_.empty();
        pending_.append(prefix_).append(text.data(), text.size()).push_back('\n');
    }
    // Only a line that finds the writer at rest wakes it; while it writes
    // or lingers, lines just queue for its next write.
    if (wake) wake_.notify_one();
}

void LogWriter::flush() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++flushes_;
    wake_.notify_one();  // cut a linger short
    written_.wait(lock, [this] { return (pending_.empty() && !writing_) || stop_; });
    --flushes_;
}

void LogWriter::run() {
    std::string batch;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        resting_ = true;
        wake_.wait(lock, [this] { return !pending_.empty() || dropped_ > 0 || stop_; });
        resting_ = false;
        if (pending_.empty() && dropped_ == 0) break;  // stop_, nothing left
        batch.swap(pending_);
        if (dropped_ > 0) {
            batch += prefix_ + std::to_string(dropped_) + " log lines dropped (the log's reader was too slow)\n";
            dropped_ = 0;
        }
        writing_ = true;
        lock.unlock();
        write_all(fd_, batch);
        batch.clear();
        lock.lock();
        writing_ = false;
        if (pending_.empty()) written_.notify_all();
        wake_.wait_for(lock, kLinger, [this] { return stop_ || flushes_ > 0; });
    }
    written_.notify_all();
}

}  // namespace roomkey::native
