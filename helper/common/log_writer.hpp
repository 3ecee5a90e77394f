// log_writer.hpp: the request log's writer. A request thread only appends its
// line to a buffer; one writer thread hands everything buffered to the file
// descriptor in a single write(). Before (a profile of the helper under load), every
// request paid three unbuffered std::cerr writes on its own thread, the
// largest cost the helper added per request after TLS itself.
//
// Lines keep their order and are never torn. A line that finds the writer at
// rest goes out at once; after each write the writer lingers kLinger, and
// whatever arrives meanwhile goes out in the next single write, without
// waking it per line (a thread wake-up per request cost about one context
// switch per request under load). So a line waits at most kLinger. If
// the reader of the descriptor stalls, at most kMaxPending bytes wait: later
// lines are counted and dropped, and the count is written once the writer
// catches up, so a stuck terminal can neither block requests nor grow memory.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace roomkey::native {

class LogWriter {
public:
    static constexpr std::size_t kMaxPending = 1 << 20;
    static constexpr std::chrono::milliseconds kLinger{20};

    // Each line is written as `prefix` + line + '\n'.
    LogWriter(int fd, std::string prefix);
    ~LogWriter();  // writes what is pending, then stops the thread
    LogWriter(const LogWriter&) = delete;
    LogWriter& operator=(const LogWriter&) = delete;

    void line(std::string_view text);
    // Returns once everything appended so far has been handed to write().
    void flush();

private:
    void run();

    const int fd_;
    const std::string prefix_;
    std::mutex mutex_;
    std::condition_variable wake_;     // the writer: something to write, a flush, or stop
    std::condition_variable written_;  // flush(): the writer caught up
    std::string pending_;
    std::size_t dropped_ = 0;
    bool writing_ = false;
    bool resting_ = false;  // the writer waits for a first line (not lingering)
    int flushes_ = 0;       // flush() calls waiting
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace roomkey::native
