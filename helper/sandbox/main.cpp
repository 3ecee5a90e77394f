// main.cpp: roomkey-sandbox's command line: parse flags, start the server,
// print the ready line, stop cleanly on Ctrl-C / SIGTERM.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/stop_signals.hpp"
#include <fstream>

#include "sandbox/fixture_generator.hpp"
#include "sandbox/server.hpp"

int main(int argc, char** argv) {
    using namespace roomkey::sandbox;
    roomkey::native::block_stop_signals();
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args[0] == "generate") {
        auto cmd = parse_generate_args({args.begin() + 1, args.end()});
        if (!cmd) {
            std::cerr << "roomkey-sandbox: " << cmd.error() << "\n";
            return 2;
        }
        if (cmd->action == GenerateAction::help) {
            std::cout << generate_usage();
            return 0;
        }
        const std::string text = generate_fixture(cmd->options);
        if (cmd->options.out.empty()) {
            std::cout << text;
            return std::cout.flush() ? 0 : 1;
        }
        std::ofstream out(cmd->options.out, std::ios::binary | std::ios::trunc);
        if (!(out << text) || !out.flush()) {
            std::cerr << "roomkey-sandbox: generate: cannot write " << cmd->options.out << "\n";
            return 1;
        }
        return 0;
    }
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
