// helper_fixture.hpp: what the roomkey-helper integration tests share: a
// temporary directory, a fake web build, an in-process helper on port 0 with
// a captured log, and HTTPS clients that verify the helper's local CA.
#pragma once

#include <httplib.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>
#include <chrono>
#include <string>
#include <vector>

#include "helper/helper_server.hpp"
#include "helper/options.hpp"

namespace roomkey::helper::testing {

// A fresh directory under $TMPDIR, removed with its contents at the end.
class TempDir {
public:
    TempDir() {
        const char* base = std::getenv("TMPDIR");
        std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/roomkey-helper-test-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (::mkdtemp(buf.data()) != nullptr) path_ = buf.data();
    }
    ~TempDir() {
        if (!path_.empty()) std::system(("rm -rf '" + path_ + "'").c_str());
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string operator/(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

inline void write_file(const std::string& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline unsigned file_mode(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return 0;
    return static_cast<unsigned>(st.st_mode) & 0777u;
}

inline const std::string kIndexHtml = "<!doctype html><title>roomkey</title><script src=\"roomkey.js\"></script>\n";
inline const std::string kWasmBytes = std::string("\0asm\1\0\0\0", 8);

// index.html, roomkey.js (+ .br/.gz stand-ins), roomkey.wasm, a hashed asset.
inline void make_web_root(const std::string& dir) {
    ::mkdir(dir.c_str(), 0755);
    write_file(dir + "/index.html", kIndexHtml);
    write_file(dir + "/roomkey.js", "console.log('plain');\n");
    write_file(dir + "/roomkey.js.br", "BROTLI-BYTES");
    write_file(dir + "/roomkey.js.gz", "GZIP-BYTES");
    write_file(dir + "/roomkey.wasm", kWasmBytes);
    write_file(dir + "/app.0123abcd.js", "console.log('hashed');\n");
    write_file(dir + "/.secret", "hidden");
}

// A helper running in this process on 127.0.0.1:<free port>.
class RunningHelper {
public:
    explicit RunningHelper(HelperConfig config) {
        auto started = HelperServer::start(std::move(config), [this](const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex_);
            log_ += line + "\n";
        });
        if (!started) {
            error_ = started.error().message;
            return;
        }
        server_ = std::move(*started);
        server_->run_in_background();
    }
    bool ok() const { return server_ != nullptr; }
    const std::string& error() const { return error_; }
    HelperServer& server() { return *server_; }
    int port() const { return server_->port(); }
    std::string log() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return log_;
    }
    // httplib logs after the response is sent: wait (up to 2 s) for a line.
    std::string wait_for_log(const std::string& needle) const {
        for (int i = 0; i < 200; ++i) {
            const std::string text = log();
            if (text.find(needle) != std::string::npos) return text;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return log();
    }

    // An HTTPS client that trusts only the helper's local CA.
    std::unique_ptr<httplib::SSLClient> client() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", server_->port());
        c->enable_server_certificate_verification(true);
        c->set_ca_cert_path(server_->tls()->ca_cert_path.c_str());
        c->set_tcp_nodelay(true);
        c->set_read_timeout(10, 0);
        c->set_decompress(false);
        c->set_url_encode(false);  // paths are given encoded, as a browser sends them
        return c;
    }
    // The headers a same-origin fetch() from the app page carries.
    httplib::Headers app_headers() const {
        return {{"X-Roomkey-Request", "1"}};
    }

private:
    std::unique_ptr<HelperServer> server_;
    std::string error_;
    mutable std::mutex mutex_;
    std::string log_;
};

// A config for a helper on port 0 with its own state dir and web root.
inline HelperConfig test_config(const TempDir& dir) {
    HelperConfig config;
    config.port = 0;
    config.state_dir = dir / "state";
    config.web_root = dir / "web";
    make_web_root(config.web_root);
    return config;
}

}  // namespace roomkey::helper::testing
