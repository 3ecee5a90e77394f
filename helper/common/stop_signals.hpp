// stop_signals.hpp: clean shutdown on Ctrl-C (SIGINT) and SIGTERM for the
// native programs, without doing work inside a signal handler.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace roomkey::native {

// Call first in main(), before any thread starts: blocks SIGINT and SIGTERM
// in this thread and (by inheritance) in every thread created afterwards, so
// only StopSignalWatcher receives them.
void block_stop_signals();

// A thread that waits for SIGINT/SIGTERM and then calls `on_stop` once
// (typically server.stop()). Destroying it stops the wait.
class StopSignalWatcher {
public:
    explicit StopSignalWatcher(std::function<void()> on_stop);
    ~StopSignalWatcher();
    StopSignalWatcher(const StopSignalWatcher&) = delete;
    StopSignalWatcher& operator=(const StopSignalWatcher&) = delete;

    // The signal received (SIGINT/SIGTERM), or 0 when none came.
    int signal_received() const { return signal_.load(); }

private:
    std::atomic<bool> done_{false};
    std::atomic<int> signal_{0};
    std::thread thread_;
};

}  // namespace roomkey::native
