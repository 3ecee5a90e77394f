// main.cpp: roomkey-helper's entry point: parse the command, start the HTTPS
// server, print the ready line, stop cleanly on Ctrl-C/SIGTERM.
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "common/stop_signals.hpp"
#include "helper/helper_server.hpp"
#include "helper/nginx_config.hpp"
#include "helper/options.hpp"
#include "helper/trust.hpp"

namespace {

using namespace roomkey;

int serve(const helper::HelperConfig& config) {
    // Before any thread starts, so that only the watcher below receives
    // Ctrl-C/SIGTERM. Only here: trust/untrust keep the default (Ctrl-C
    // ends them and their certutil), and children get a clean mask.
    native::block_stop_signals();
    static std::mutex log_mutex;
    auto log = [](const std::string& line) {
        std::lock_guard<std::mutex> lock(log_mutex);
        std::cerr << "roomkey-helper: " << line << '\n';
    };
    auto server = helper::HelperServer::start(config, log);
    if (!server) {
        std::cerr << "roomkey-helper: " << server.error().message << '\n';
        return server.error().code == helper::StartError::port_in_use ? 3 : 2;
    }
    helper::HelperServer& s = **server;
    native::StopSignalWatcher watcher([&s] { s.stop(); });

    if (const auto& tls = s.tls()) {
        std::cerr << "roomkey-helper: local CA " << tls->ca_cert_path << (tls->created_ca ? " (new)" : "") << '\n';
        // Every database `trust` would write (Chromium's and each Firefox profile's).
        const auto missing = helper::nss_databases_without_ca(tls->ca_cert_path, helper::TrustOptions{});
        if (!missing.empty()) {
            std::cerr << "roomkey-helper: the browser does not trust it yet (not in";
            for (const auto& db : missing) std::cerr << ' ' << db;
            std::cerr << "): run `roomkey-helper trust --state-dir " << s.config().state_dir << "` (or curl --cacert "
                      << tls->ca_cert_path << ")\n";
        }
    }
    const auto& up = s.config().upstream;
    if (up.configured()) {
        std::cerr << "roomkey-helper: upstream base_url=" << up.base_url << " auth_url=" << up.auth_url
                  << " client_type=" << helper::to_string(up.client_type) << '\n';
    } else {
        std::cerr << "roomkey-helper: no upstream configured (--base-url/--auth-url): the proxies answer 503\n";
    }
    // The one machine-readable line on stdout.
    std::cout << "roomkey: app at " << s.app_url() << std::endl;

    const bool ok = s.run();
    if (watcher.signal_received() != 0) std::cerr << "roomkey-helper: stopped\n";
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    auto command = helper::parse_command_line(args, helper::process_environment());
    if (!command) {
        std::cerr << "roomkey-helper: " << command.error() << '\n';
        return 2;
    }
    switch (command->subcommand) {
        case helper::Subcommand::help:
            std::cout << command->help_text;
            return 0;
        case helper::Subcommand::trust:
            return helper::run_trust(command->trust, true);
        case helper::Subcommand::untrust:
            return helper::run_trust(command->trust, false);
        case helper::Subcommand::serve:
            return serve(command->serve);
        case helper::Subcommand::nginx_config: {
            auto file = helper::write_nginx_config(command->serve, command->nginx);
            if (!file) {
                std::cerr << "roomkey-helper: nginx-config: " << file.error() << '\n';
                return 2;
            }
            std::cout << *file << '\n';
            return 0;
        }
    }
    return 2;
}
