// redis_process.hpp: a real redis-server (Debian's /usr/bin/redis-server,
// which scripts/setup.sh installs) for a test, on a free loopback port, with
// nothing kept on disk (--save '' --appendonly no) and its working directory
// in a temporary folder; killed with the test.
#pragma once

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "support/child_process.hpp"
#include "support/free_port.hpp"
#include "support/temp_dir.hpp"

namespace roomkey::integration {

class RedisProcess {
public:
    RedisProcess() : port_(free_port()) {
        child_ = std::make_unique<Child>(std::vector<std::string>{
            "/usr/bin/redis-server", "--port", std::to_string(port_), "--bind", "127.0.0.1", "--save", "", "--appendonly",
            "no", "--dir", dir_.path(), "--loglevel", "notice"});
        // Its log goes to stdout; this line comes once it takes commands.
        while (!ready_) {
            const std::string line = child_->read_line(10000);
            if (line.empty()) break;  // exited, or silent for 10 s
            ready_ = line.find("Ready to accept connections") != std::string::npos;
        }
    }
    bool ready() const { return ready_; }
    int port() const { return port_; }
    std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    // Gone at once, as a crashed or unplugged store would be.
    void kill() { child_.reset(); }
    // Hung: connections stay open, nothing answers (SIGSTOP); resume() undoes it.
    void pause() { child_->signal(SIGSTOP); }
    void resume() { child_->signal(SIGCONT); }

private:
    TempDir dir_;
    int port_;
    std::unique_ptr<Child> child_;
    bool ready_ = false;
};

}  // namespace roomkey::integration
