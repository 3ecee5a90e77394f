// sandbox_program.hpp: roomkey-sandbox run as the program a developer runs
// (a child process on port 0), up once its ready line says so, and HTTPS
// clients to it that trust only its state directory's CA.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <string>
#include <vector>

#include "support/child_process.hpp"
#include "support/trust_only.hpp"

namespace roomkey::integration {

struct SandboxProgram {
    std::unique_ptr<Child> child;
    int port = 0;
    std::string ca;  // the state directory's ca-cert.pem

    std::unique_ptr<httplib::SSLClient> client() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", port);
        EXPECT_TRUE(trust_only(*c, "127.0.0.1", ca)) << ca;
        return c;
    }
};

// `roomkey-sandbox --port 0 --state-dir STATE_DIR ARGS...`, waited for until
// its ready line; a fatal failure (ASSERT_NO_FATAL_FAILURE) when none comes.
inline void start_sandbox_program(SandboxProgram& sandbox, const std::string& state_dir,
                                  const std::vector<std::string>& args = {"--quiet"}) {
    std::vector<std::string> argv{program_path("roomkey-sandbox"), "--port", "0", "--state-dir", state_dir};
    argv.insert(argv.end(), args.begin(), args.end());
    sandbox.child = std::make_unique<Child>(argv);
    sandbox.ca = state_dir + "/ca-cert.pem";
    const std::string ready = sandbox.child->read_line(30000);
    ASSERT_EQ(ready.rfind("roomkey-sandbox: ready ", 0), 0u) << ready << sandbox.child->stderr_text();
    sandbox.port = std::stoi(ready.substr(ready.find("127.0.0.1:") + 10));
}

}  // namespace roomkey::integration
