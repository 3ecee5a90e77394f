// trust.cpp: certutil and update-ca-certificates calls, without a shell
// (fork + execvp), for trust/untrust.
#include "helper/trust.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "common/state_dir.hpp"
#include "common/tls.hpp"

namespace roomkey::helper {
namespace {

struct ProcessResult {
    bool started = false;
    int exit_code = -1;
    std::string output;  // stdout + stderr
};

ProcessResult run_process(const std::vector<std::string>& args) {
    ProcessResult out;
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return out;
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        return out;
    }
    if (pid == 0) {
        // `serve` blocks SIGINT/SIGTERM (a watcher thread takes them) and
        // ignores SIGPIPE; a mask and an ignored signal survive execvp, and
        // certutil must stop on Ctrl-C like any program.
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::signal(SIGPIPE, SIG_DFL);
        ::dup2(pipe_fds[1], 1);
        ::dup2(pipe_fds[1], 2);
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(pipe_fds[1]);
    char buf[4096];
    ssize_t n = 0;
    while ((n = ::read(pipe_fds[0], buf, sizeof buf)) > 0) out.output.append(buf, static_cast<std::size_t>(n));
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    out.started = !(WIFEXITED(status) && WEXITSTATUS(status) == 127);
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// mkdir -p with mode 0700 for the missing components (~/.pki and ~/.pki/nssdb
// are private, as Chromium makes them).
bool make_private_dirs(const std::string& path) {
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        const std::string prefix = path.substr(0, slash);
        if (!exists(prefix) && ::mkdir(prefix.c_str(), 0700) != 0) return false;
        if (slash == std::string::npos) return true;
    }
}

std::string home(const TrustOptions& options) {
    if (!options.home.empty()) return options.home;
    const char* h = std::getenv("HOME");
    return h != nullptr ? h : "";
}

// Where each Firefox keeps its profiles, and what to call it for the user.
// ESR 153 and later follow the XDG base directories; ESR 140 and older
// releases use ~/.mozilla; the snap package keeps its own copy of the
// latter. A user upgrading from 140 to 153 keeps the old folder's profiles
// in use, so all of them are looked at.
struct FirefoxRoot {
    std::string path;
    std::string label;
};

std::vector<FirefoxRoot> firefox_roots(const std::string& h, const TrustOptions& options) {
    // $XDG_CONFIG_HOME is the user's, not a test's: with --home the
    // default under that home is used.
    std::string config = h + "/.config";
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (options.home.empty() && xdg != nullptr && xdg[0] == '/') config = xdg;
    return {
        {config + "/mozilla/firefox", "Firefox ESR 153+"},
        {h + "/.mozilla/firefox", "Firefox"},
        {h + "/snap/firefox/common/.mozilla/firefox", "Firefox (snap)"},
    };
}

// Which browser reads a database, for the user: Chromium's shared one, or
// the Firefox profile it sits in.
std::string browser_of(const std::string& db, const TrustOptions& options) {
    if (!options.nssdb.empty()) return "the NSS database " + db;
    if (db.size() >= 11 && db.compare(db.size() - 11, 11, "/.pki/nssdb") == 0) {
        return "Chromium/Chrome (" + db + ")";
    }
    std::string label = "Firefox";
    for (const FirefoxRoot& root : firefox_roots(home(options), options)) {
        if (db.rfind(root.path + "/", 0) == 0) label = root.label;
    }
    return label + " profile " + db.substr(db.rfind('/') + 1) + " (" + db + ")";
}

bool certutil_available() {
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        if (exists(dirs.substr(start, end - start) + "/certutil")) return true;
        start = end + 1;
    }
    return false;
}

// Nicknames in a database that start with the CA's common name.
std::vector<std::string> our_nicknames(const std::string& db) {
    std::vector<std::string> names;
    const ProcessResult list = run_process({"certutil", "-d", "sql:" + db, "-L"});
    std::size_t start = 0;
    const std::string prefix(native::kCaCommonName);
    while (start < list.output.size()) {
        std::size_t end = list.output.find('\n', start);
        if (end == std::string::npos) end = list.output.size();
        std::string line = list.output.substr(start, end - start);
        start = end + 1;
        // Some versions prefix the token name ("NSS Certificate DB:").
        const auto at = line.find(prefix);
        if (at == std::string::npos) continue;
        line = line.substr(at);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        // certutil pads the nickname, then prints the trust flags ("C,,").
        const auto flags = line.find_last_of(' ');
        std::string name = line.substr(0, flags == std::string::npos ? line.size() : flags);
        while (!name.empty() && name.back() == ' ') name.pop_back();
        names.push_back(name);
    }
    return names;
}

// [system store] --------------------------------------------------------------
// Debian's: CAs added by hand are .crt files in /usr/local/share/
// ca-certificates; update-ca-certificates puts them in
// /etc/ssl/certs/ca-certificates.crt, which GnuTLS reads as the system
// trust (WebKitGTK through glib-networking, so GNOME Web and MiniBrowser),
// as do OpenSSL's defaults (curl, wget) and other programs.

constexpr std::string_view kSystemFilePrefix = "roomkey-local-ca";

std::vector<std::string> our_system_files(const std::string& dir) {
    std::vector<std::string> files;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return files;
    while (dirent* entry = ::readdir(d)) {
        const std::string name = entry->d_name;
        if (name.rfind(kSystemFilePrefix, 0) == 0) files.push_back(dir + "/" + name);
    }
    ::closedir(d);
    std::sort(files.begin(), files.end());
    return files;
}

std::string system_file(const std::string& dir, const std::string& ca_path) {
    // The fingerprint in the name, as in the NSS nickname: a renewed CA is another file.
    return dir + "/" + std::string(kSystemFilePrefix) + "-" + nss_nickname(ca_path).substr(native::kCaCommonName.size() + 1) + ".crt";
}

// Adds (ca_path given) or removes roomkey's CAs in the system store; says what
// it did, or what an administrator must run. Returns the failures (0 when it
// lacked the rights: that is said, not failed).
int update_system_store(const std::string& dir, const std::string& ca_path) {
    const bool add = !ca_path.empty();
    const std::vector<std::string> old = our_system_files(dir);
    if (!exists(dir)) {
        std::cerr << "roomkey-helper: no system store at " << dir
                  << " (Debian's ca-certificates package makes it): WebKit browsers not covered\n";
        return 0;
    }
    const std::string target = add ? system_file(dir, ca_path) : "";
    if (!add && old.empty()) {
        std::cerr << "roomkey-helper: nothing to remove in the system store (" << dir << ")\n";
        return 0;
    }
    if (add && old.size() == 1 && old.front() == target) {
        // Already there (the same CA): nothing to write, nothing to update.
        std::cerr << "roomkey-helper: the system store already trusts it (" << target << ")\n";
        return 0;
    }
    if (::access(dir.c_str(), W_OK) != 0) {
        // Not root: the commands, for the user to run with sudo.
        std::cerr << "roomkey-helper: the system store (WebKit browsers: GNOME Web, MiniBrowser; curl) needs an "
                     "administrator; run:\n";
        for (const auto& file : old) std::cerr << "    sudo rm " << file << '\n';
        if (add) std::cerr << "    sudo install -m 644 " << ca_path << ' ' << target << '\n';
        std::cerr << "    sudo update-ca-certificates\n";
        return 0;
    }
    int failures = 0;
    for (const auto& file : old) {
        if (file == target) continue;
        if (::unlink(file.c_str()) != 0) {
            ++failures;
            std::cerr << "roomkey-helper: could not remove " << file << '\n';
        } else {
            std::cerr << "roomkey-helper: removed " << file << " from the system store\n";
        }
    }
    if (add) {
        auto pem = native::read_whole_file(ca_path);
        if (!pem || !native::write_file_atomically(target, *pem, 0644)) {
            std::cerr << "roomkey-helper: could not write " << target << '\n';
            return failures + 1;
        }
    }
    const ProcessResult updated = run_process({"update-ca-certificates"});
    if (!updated.started || updated.exit_code != 0) {
        std::cerr << "roomkey-helper: update-ca-certificates "
                  << (updated.started ? "failed: " + updated.output : std::string("not found (Debian's ca-certificates)"))
                  << '\n';
        return failures + 1;
    }
    if (add) std::cerr << "roomkey-helper: trusted " << ca_path << " in the system store (" << target << ")\n";
    return failures;
}

}  // namespace

std::string nss_nickname(const std::string& ca_cert_path) {
    // No ':' in the nickname: certutil reads "a:b" as token "a", nickname "b".
    std::string fp;
    for (char c : native::certificate_fingerprint(ca_cert_path)) {
        if (c != ':') fp += c;
    }
    return std::string(native::kCaCommonName) + " " + fp.substr(0, 16);
}

std::vector<std::string> nss_databases(const TrustOptions& options) {
    if (!options.nssdb.empty()) return {options.nssdb};
    std::vector<std::string> dbs;
    const std::string h = home(options);
    if (h.empty()) return dbs;
    dbs.push_back(h + "/.pki/nssdb");
    for (const FirefoxRoot& firefox : firefox_roots(h, options)) {
        const std::string& root = firefox.path;
        DIR* dir = ::opendir(root.c_str());
        if (dir == nullptr) continue;
        while (dirent* entry = ::readdir(dir)) {
            const std::string name = entry->d_name;
            if (name == "." || name == "..") continue;
            const std::string profile = root + "/" + name;
            if (exists(profile + "/cert9.db")) dbs.push_back(profile);
        }
        ::closedir(dir);
    }
    return dbs;
}

std::vector<std::string> nss_databases_without_ca(const std::string& ca_cert_path, const TrustOptions& options) {
    std::vector<std::string> missing = nss_databases(options);
    if (!certutil_available()) return missing;
    const std::string nickname = nss_nickname(ca_cert_path);
    missing.erase(
        std::remove_if(missing.begin(), missing.end(),
                       [&](const std::string& db) {
                           if (!exists(db + "/cert9.db")) return false;
                           const ProcessResult r = run_process({"certutil", "-d", "sql:" + db, "-L", "-n", nickname});
                           return r.started && r.exit_code == 0;
                       }),
        missing.end());
    return missing;
}

int run_trust(const TrustOptions& options, bool add) {
    if (!certutil_available()) {
        std::cerr << "roomkey-helper: certutil not found: install it with `sudo apt-get install libnss3-tools` "
                     "(./scripts/setup.sh does)\n";
        return 2;
    }
    std::string ca_path;
    if (add) {
        auto tls = native::ensure_tls_material(options.state_dir);
        if (!tls) {
            std::cerr << "roomkey-helper: " << tls.error().detail << '\n';
            return 2;
        }
        ca_path = tls->ca_cert_path;
    }
    int failures = 0;
    std::vector<std::string> covered;
    for (const auto& db : nss_databases(options)) {
        if (add) {
            if (!exists(db + "/cert9.db")) {
                // Chromium creates ~/.pki/nssdb on its first start; before
                // that (a new user following the README) make it the same way.
                const ProcessResult made = make_private_dirs(db)
                                               ? run_process({"certutil", "-d", "sql:" + db, "-N", "--empty-password"})
                                               : ProcessResult{};
                if (made.exit_code != 0) {
                    ++failures;
                    std::cerr << "roomkey-helper: could not create the NSS database " << db << ": "
                              << (made.started ? made.output : "cannot create the directory\n");
                    continue;
                }
                std::cerr << "roomkey-helper: created the NSS database " << db << '\n';
            }
            // Replace older roomkey CAs (a renewed CA has another nickname).
            for (const auto& old : our_nicknames(db)) run_process({"certutil", "-d", "sql:" + db, "-D", "-n", old});
            const ProcessResult r = run_process(
                {"certutil", "-d", "sql:" + db, "-A", "-t", "C,,", "-n", nss_nickname(ca_path), "-i", ca_path});
            if (r.exit_code != 0) {
                ++failures;
                std::cerr << "roomkey-helper: could not add the CA to " << db << ": " << r.output;
            } else {
                covered.push_back(browser_of(db, options));
                std::cerr << "roomkey-helper: trusted " << ca_path << " in " << db << '\n';
            }
        } else {
            // Nothing was ever added to a database that does not exist:
            // untrust is idempotent and never creates one.
            if (!exists(db + "/cert9.db")) {
                std::cerr << "roomkey-helper: nothing to remove in " << db << " (no NSS database there)\n";
                continue;
            }
            const auto names = our_nicknames(db);
            for (const auto& name : names) {
                const ProcessResult r = run_process({"certutil", "-d", "sql:" + db, "-D", "-n", name});
                if (r.exit_code != 0) {
                    ++failures;
                    std::cerr << "roomkey-helper: could not remove \"" << name << "\" from " << db << ": " << r.output;
                } else {
                    std::cerr << "roomkey-helper: removed \"" << name << "\" from " << db << '\n';
                }
            }
            if (names.empty()) std::cerr << "roomkey-helper: nothing to remove in " << db << '\n';
        }
    }
    if (!options.system_store.empty()) {
        const int system_failures = update_system_store(options.system_store, ca_path);
        failures += system_failures;
        if (add && system_failures == 0 && ::access(options.system_store.c_str(), W_OK) == 0) {
            covered.push_back("WebKit browsers and curl (the system store)");
        }
    }
    if (add) {
        std::cerr << "roomkey-helper: browsers covered:";
        for (const auto& browser : covered) std::cerr << (&browser == &covered.front() ? " " : "; ") << browser;
        std::cerr << (covered.empty() ? " none\n" : "\n");
        const bool any_firefox = std::any_of(covered.begin(), covered.end(), [](const std::string& browser) {
            return browser.rfind("Firefox", 0) == 0;
        });
        if (options.nssdb.empty() && !any_firefox) {
            // A profile appears only once Firefox has started with it.
            std::cerr << "roomkey-helper: no Firefox profile found (looked in";
            for (const FirefoxRoot& root : firefox_roots(home(options), options)) std::cerr << ' ' << root.path;
            std::cerr << "); after Firefox's first start run `roomkey-helper trust` again\n";
        }
        if (failures == 0) {
            std::cerr << "roomkey-helper: restart the browser to pick up the change (a Firefox profile created later "
                         "needs `roomkey-helper trust` again)\n";
        }
    }
    return failures == 0 ? 0 : 1;
}

}  // namespace roomkey::helper
