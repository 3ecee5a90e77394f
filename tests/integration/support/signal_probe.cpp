// signal_probe.cpp: a test-only stand-in for certutil (helper_cli_test.cpp).
// Writes the SigBlk and SigIgn lines of its own /proc/self/status to
// $ROOMKEY_FAKE_CERTUTIL_MARK (via a temporary file and rename, so the test
// never reads half a file), then sleeps $ROOMKEY_FAKE_CERTUTIL_SLEEP seconds
// with the signal state it inherited, or exits 1 as a failing certutil would.
//
// A compiled program, not a shell script: dash blocks every signal around
// its own forks, so a script that forks `grep` to read its own status could
// observe the shell mid-fork and report a mask the helper never set.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

int main() {
    const char* mark = std::getenv("ROOMKEY_FAKE_CERTUTIL_MARK");
    if (mark == nullptr || *mark == '\0') return 2;
    std::ifstream status("/proc/self/status");
    std::string lines;
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("SigBlk:", 0) == 0 || line.rfind("SigIgn:", 0) == 0) lines += line + "\n";
    }
    const std::string tmp = std::string(mark) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << lines;
        if (!out) return 2;
    }
    if (std::rename(tmp.c_str(), mark) != 0) return 2;
    if (const char* sleep_s = std::getenv("ROOMKEY_FAKE_CERTUTIL_SLEEP")) {
        // sleep() returns early on a signal only if it is caught; a default
        // SIGINT/SIGTERM ends the process, which is what the test checks.
        unsigned left = static_cast<unsigned>(std::atoi(sleep_s));
        while (left > 0) left = ::sleep(left);
        return 0;
    }
    return 1;
}
