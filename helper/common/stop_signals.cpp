// stop_signals.cpp: sigtimedwait on a dedicated thread (POSIX).
#include "common/stop_signals.hpp"

#include <pthread.h>
#include <signal.h>

#include <ctime>

namespace roomkey::native {
namespace {

sigset_t stop_set() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

}  // namespace

void block_stop_signals() {
    sigset_t set = stop_set();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    // A client closing its connection mid-write must not kill the server.
    ::signal(SIGPIPE, SIG_IGN);
}

StopSignalWatcher::StopSignalWatcher(std::function<void()> on_stop)
    : thread_([this, on_stop = std::move(on_stop)] {
          const sigset_t set = stop_set();
          // Wake up now and then to notice destruction; 100 ms is invisible at shutdown.
          const timespec tick{0, 100 * 1000 * 1000};
          while (!done_.load()) {
              const int sig = sigtimedwait(&set, nullptr, &tick);
              if (sig == SIGINT || sig == SIGTERM) {
                  signal_.store(sig);
                  if (on_stop) on_stop();
                  return;
              }
          }
      }) {}

StopSignalWatcher::~StopSignalWatcher() {
    done_.store(true);
    if (thread_.joinable()) thread_.join();
}

}  // namespace roomkey::native
