// log_writer.hpp: the request log's writer. A request thread only appends its
// line to a buffer; one writer thread hands everything buffered to the file
// descriptor in a single write(). Before (issue 12 item 5's profile), every
// request paid three unbuffered std::cerr writes on its own thread, the
// largest cost the helper added per request after TLS itself.
//
// Lines keep their order and are never torn. Under a burst, lines queue and go
// out together; at rest each goes out at once (no timer, no added delay). If
// the reader of the descriptor stalls, at most kMaxPending bytes wait: later
// lines are counted and dropped, and the count is written once the writer
// catches up, so a stuck terminal can neither block requests nor grow memory.
#pragma once

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
    std::condition_variable wake_;     // the writer: something to write, or stop
    std::condition_variable written_;  // flush(): the writer caught up
    std::string pending_;
    std::size_t dropped_ = 0;
    bool writing_ = false;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace roomkey::native
