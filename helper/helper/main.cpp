// main.cpp: roomkey-helper's entry point: parse the command, start the HTTPS
// server, print the ready line, stop cleanly on Ctrl-C/SIGTERM.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/log_writer.hpp"
#include "common/openssl_random.hpp"
#include "common/stop_signals.hpp"
#include "helper/bff_keys.hpp"
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
    // Every stderr line of `serve` goes through one writer, in order; request
    // threads never wait for the terminal (common/log_writer.hpp).
    native::LogWriter log_writer(STDERR_FILENO, "roomkey-helper: ");
    auto log = [&log_writer](const std::string& line) { log_writer.line(line); };
    auto server = helper::HelperServer::start(config, log);
    if (!server) {
        log(server.error().message);
        return server.error().code == helper::StartError::port_in_use ? 3 : 2;
    }
    helper::HelperServer& s = **server;
    native::StopSignalWatcher watcher([&s] { s.stop(); });

    if (const auto& tls = s.tls()) {
        // The CA lives about a year: say when it ends, and that the helper
        // replaces it in time (the new one must be trusted again).
        log("local CA " + tls->ca_cert_path + (tls->created_ca ? " (new)" : "") + ", for loopback names only, valid until " +
            tls->ca_not_after + "; the helper renews it 30 days before (then run `roomkey-helper trust` again)");
        // Every database `trust` would write (Chromium's and each Firefox profile's).
        const auto missing = helper::nss_databases_without_ca(tls->ca_cert_path, helper::TrustOptions{});
        if (!missing.empty()) {
            std::ostringstream hint;
            hint << "the browser does not trust it yet (not in";
            for (const auto& db : missing) hint << ' ' << db;
            hint << "): run `roomkey-helper trust --state-dir " << s.config().state_dir << "` (or curl --cacert "
                 << tls->ca_cert_path << ")";
            log(hint.str());
        }
    }
    const auto& up = s.config().upstream;
    if (up.configured()) {
        log("upstream base_url=" + up.base_url + " auth_url=" + up.auth_url +
            " client_type=" + std::string(roomkey::to_string(up.client_type)) +
            " session=" + std::string(roomkey::to_string(s.config().session)));
    } else {
        log("no upstream configured (--base-url/--auth-url): the proxies answer 503");
    }
    // Those lines before the ready line, as before.
    log_writer.flush();
    // The one machine-readable line on stdout.
    std::cout << "roomkey: app at " << s.app_url() << std::endl;

    const bool ok = s.run();
    if (watcher.signal_received() != 0) log("stopped");
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
        case helper::Subcommand::rotate_bff_key: {
            auto done = helper::rotate_bff_key(command->trust.state_dir, native::openssl_random);
            if (!done) {
                std::cerr << "roomkey-helper: rotate-bff-key: " << done.error() << '\n';
                return 2;
            }
            std::cout << "roomkey-helper: " << *done << '\n';
            return 0;
        }
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
