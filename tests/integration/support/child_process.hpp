// child_process.hpp: runs one of roomkey's programs as a child process with
// its stdout and stderr captured (the CLI tests of roomkey-helper and
// roomkey-sandbox: ready lines, --help, exit codes, signals).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace roomkey::integration {

// build/<preset>/tests/integration/roomkey_integration_tests -> build/<preset>/bin/<name>
inline std::string program_path(const std::string& name) {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    const std::string path(buf, static_cast<std::size_t>(n));
    return path.substr(0, path.rfind('/')) + "/../../bin/" + name;
}

struct ChildOptions {
    std::vector<std::pair<std::string, std::string>> env;  // set (overriding) in the child
    // Its own process group, as a shell gives a foreground job: Ctrl-C is
    // signal(SIGINT) to the whole group, grandchildren included.
    bool own_group = false;
};

// A child process with its stdout and stderr captured.
class Child {
public:
    explicit Child(const std::vector<std::string>& args, const ChildOptions& options = {}) : group_(options.own_group) {
        int out[2];
        int err[2];
        if (::pipe(out) != 0 || ::pipe(err) != 0) return;
        pid_ = ::fork();
        if (pid_ == 0) {
            if (options.own_group) ::setpgid(0, 0);
            for (const auto& [name, value] : options.env) ::setenv(name.c_str(), value.c_str(), 1);
            ::dup2(out[1], 1);
            ::dup2(err[1], 2);
            ::close(out[0]);
            ::close(err[0]);
            std::vector<char*> argv;
            for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        if (options.own_group) ::setpgid(pid_, pid_);  // whichever runs first
        ::close(out[1]);
        ::close(err[1]);
        out_ = out[0];
        err_ = err[0];
        ::fcntl(err_, F_SETFL, O_NONBLOCK);
    }
    ~Child() {
        if (pid_ > 0 && group_) ::kill(-pid_, SIGKILL);  // grandchildren too
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        if (out_ >= 0) ::close(out_);
        if (err_ >= 0) ::close(err_);
    }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    // One line of stdout, waiting up to `ms`; empty on timeout or EOF.
    std::string read_line(int ms) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (true) {
            const auto nl = stdout_.find('\n');
            if (nl != std::string::npos) {
                std::string line = stdout_.substr(0, nl);
                stdout_.erase(0, nl + 1);
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return {};
            pollfd p{out_, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return {};
            char buf[512];
            const ssize_t n = ::read(out_, buf, sizeof buf);
            if (n <= 0) return {};
            stdout_.append(buf, static_cast<std::size_t>(n));
        }
    }
    // Everything left on stdout until EOF.
    std::string rest_of_stdout() {
        char buf[512];
        ssize_t n = 0;
        while ((n = ::read(out_, buf, sizeof buf)) > 0) stdout_.append(buf, static_cast<std::size_t>(n));
        return stdout_;
    }
    std::string stderr_text() {
        char buf[512];
        ssize_t n = 0;
        while ((n = ::read(err_, buf, sizeof buf)) > 0) stderr_.append(buf, static_cast<std::size_t>(n));
        return stderr_;
    }
    // Exit code, or -1 when it did not exit within `ms` (or died by a signal).
    int wait_exit(int ms) {
        for (int waited = 0; waited < ms; waited += 10) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                exited_ = true;
                stderr_text();
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            stderr_text();  // keep the pipe drained
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return -1;
    }
    void signal(int sig) { ::kill(pid_, sig); }
    // Ctrl-C in a terminal: the signal goes to the whole process group.
    void signal_group(int sig) { ::kill(-pid_, sig); }
    // Whether it ended (exit or signal) within `ms`.
    bool ended_within(int ms) {
        for (int waited = 0; waited < ms; waited += 10) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                exited_ = true;
                return true;
            }
            stderr_text();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }

private:
    bool group_ = false;
    pid_t pid_ = -1;
    bool exited_ = false;
    int out_ = -1;
    int err_ = -1;
    std::string stdout_;
    std::string stderr_;
};

}  // namespace roomkey::integration
