// main.cpp: roomkey-sandbox's command line: parse flags, start the server,
// print the ready line, stop cleanly on Ctrl-C / SIGTERM.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/stop_signals.hpp"
#include "sandbox/server.hpp"

int main(int argc, char** argv) {
    using namespace roomkey::sandbox;
    roomkey::native::block_stop_signals();
    const std::vector<std::string> args(argv + 1, argv + argc);
    auto cl = parse_command_line(args);
    if (!cl) {
        std::cerr << "roomkey-sandbox: " << cl.error() << "\n";
        return 2;
    }
    if (cl->action == CliAction::help) {
        std::cout << usage_text();
        return 0;
    }
    Sandbox sandbox(cl->options);
    if (auto started = sandbox.start(); !started) {
        std::cerr << "roomkey-sandbox: " << started.error() << "\n";
        return 1;
    }
    roomkey::native::StopSignalWatcher watcher([&sandbox] { sandbox.request_stop(); });
    std::cout << sandbox.ready_line() << std::endl;  // flushed: scripts wait for this line
    sandbox.wait();
    return 0;
}
