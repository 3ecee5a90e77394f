// nginx_process.hpp: an unprivileged nginx for the integration tests, run
// from a `roomkey-helper nginx-config --standalone` file (prefix, logs and
// temp files in the output dir): started, awaited until it answers, and
// stopped gracefully (QUIT) when it goes out of scope.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include "support/child_process.hpp"

namespace roomkey::integration {

class RunningNginx {
public:
    RunningNginx(const std::string& out_dir, const std::string& conf_file)
        : out_dir_(out_dir), child_({"/usr/sbin/nginx", "-p", out_dir, "-c", conf_file, "-e", out_dir + "/error.log"}) {}
    ~RunningNginx() {
        child_.signal(SIGQUIT);
        child_.wait_exit(10000);
    }
    RunningNginx(const RunningNginx&) = delete;
    RunningNginx& operator=(const RunningNginx&) = delete;

    // Until `answers()` holds (up to 10 s); a failure says why, with nginx's error log.
    ::testing::AssertionResult wait_until(const std::function<bool()>& answers) {
        for (int i = 0; i < 400; ++i) {
            if (answers()) return ::testing::AssertionSuccess();
            if (child_.ended_within(0)) {
                return ::testing::AssertionFailure() << "nginx ended: " << error_log() << child_.stderr_text();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        return ::testing::AssertionFailure() << "nginx did not answer: " << error_log();
    }
    std::string error_log() const {
        std::ifstream in(out_dir_ + "/error.log");
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

private:
    std::string out_dir_;
    Child child_;
};

}  // namespace roomkey::integration
