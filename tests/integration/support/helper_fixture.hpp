// helper_fixture.hpp: what the roomkey-helper integration tests share: a
// temporary directory, a fake web build, an in-process helper on port 0 with
// a captured log, HTTPS clients that verify the helper's local CA, a raw TLS
// connection for requests no HTTP client would send, a stub upstream, and the
// kernel's view of which addresses listen on a port.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/loopback_server.hpp"
#include "helper/helper_server.hpp"
#include "helper/options.hpp"
#include "roomkey/ascii.hpp"
#include "support/temp_dir.hpp"
#include "support/trust_only.hpp"

namespace roomkey::helper::testing {

using integration::TempDir;

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
    // The server first: its worker threads write their access-log lines into
    // log_ until they end, and members are destroyed after the body, in
    // reverse order, which would free log_ and mutex_ while a worker still
    // appended (a heap use-after-free, found by ASan under a loaded ctest).
    ~RunningHelper() { server_.reset(); }
    RunningHelper(const RunningHelper&) = delete;
    RunningHelper& operator=(const RunningHelper&) = delete;
    bool ok() const { return server_ != nullptr; }
    const std::string& error() const { return error_; }
    HelperServer& server() { return *server_; }
    int port() const { return server_->port(); }
    std::string log() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return log_;
    }
    // httplib logs after the response is sent: wait (up to 2 s) for a line.
    std::string wait_for_log(const std::string& needle) const { return wait_for_log_count(needle, 1); }
    // Waits (up to 2 s) until `needle` occurs `count` times: the line of the
    // last of several alike requests.
    std::string wait_for_log_count(const std::string& needle, std::size_t count) const {
        for (int i = 0; i < 200; ++i) {
            const std::string text = log();
            if (occurrences(text, needle) >= count) return text;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return log();
    }
    static std::size_t occurrences(const std::string& text, const std::string& needle) {
        std::size_t n = 0;
        for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
        return n;
    }

    // An HTTPS client that trusts only the helper's local CA.
    std::unique_ptr<httplib::SSLClient> client() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", server_->port());
        integration::trust_only(*c, "127.0.0.1", server_->tls()->ca_cert_path);
        c->set_tcp_nodelay(true);
        c->set_read_timeout(10, 0);
        c->set_decompress(false);
        // httplib 0.18.7 asks for br/gzip even when it will not inflate
        // (0.11.4 asked for nothing): the bodies are checked as sent.
        c->set_default_headers({{"Accept-Encoding", "identity"}});
        c->set_url_encode(false);  // paths are given encoded, as a browser sends them
        return c;
    }
    // The headers a same-origin fetch() from the app page carries.
    httplib::Headers app_headers() const { return {{"X-Roomkey-Request", "1"}}; }

private:
    std::unique_ptr<HelperServer> server_;
    std::string error_;
    mutable std::mutex mutex_;
    std::string log_;
};

// An environment of exactly `vars`, for parse_command_line.
inline EnvLookup env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
        auto it = vars.find(std::string(name));
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}

// A config for a helper on port 0 with its own state dir and web root.
inline HelperConfig test_config(const TempDir& dir) {
    HelperConfig config;
    config.port = 0;
    config.state_dir = dir / "state";
    config.web_root = dir / "web";
    make_web_root(config.web_root);
    return config;
}

// One HTTP/1.1 response as read off a raw connection.
struct RawResponse {
    int status = 0;
    std::string head;  // status line and header fields
    std::string body;
    // Case-insensitive name, exact value.
    bool has_header(const std::string& name, const std::string& value) const {
        return ifind(head, name + ": " + value + "\r\n") != std::string::npos;
    }
};

// A TLS connection to 127.0.0.1:PORT (or [::1]) that sends exactly the bytes
// it is given: for smuggled bodies, over-long header lines and request-targets
// an HTTP client would normalise. The certificate is not verified (these
// tests are about the bytes after the handshake).
class RawTls {
public:
    explicit RawTls(int port, const std::string& ip = "127.0.0.1") {
        ::signal(SIGPIPE, SIG_IGN);  // writing to a connection the server ended
        const bool v6 = ip.find(':') != std::string::npos;
        fd_ = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
        int rc = -1;
        if (v6) {
            sockaddr_in6 addr{};
            addr.sin6_family = AF_INET6;
            addr.sin6_port = htons(static_cast<std::uint16_t>(port));
            ::inet_pton(AF_INET6, ip.c_str(), &addr.sin6_addr);
            rc = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        } else {
            sockaddr_in addr{};
            addr.sin_family = AF_INET;
            addr.sin_port = htons(static_cast<std::uint16_t>(port));
            ::inet_pton(AF_INET, ip.c_str(), &addr.sin_addr);
            rc = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        }
        if (rc != 0) return;
        ctx_ = SSL_CTX_new(TLS_client_method());
        ssl_ = SSL_new(ctx_);
        SSL_set_fd(ssl_, fd_);
        connected_ = SSL_connect(ssl_) == 1;
    }
    ~RawTls() {
        if (ssl_ != nullptr) SSL_free(ssl_);
        if (ctx_ != nullptr) SSL_CTX_free(ctx_);
        if (fd_ >= 0) ::close(fd_);
    }
    RawTls(const RawTls&) = delete;
    RawTls& operator=(const RawTls&) = delete;

    bool ok() const { return connected_; }

    // One SSL_write: up to 16 KB travel in one TLS record, as a browser
    // sends a request with its body.
    bool send(const std::string& bytes) {
        return connected_ &&
               SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size())) == static_cast<int>(bytes.size());
    }

    // The next response (Content-Length framing), or nullopt when the
    // connection ended or nothing complete came within `timeout_ms`.
    std::optional<RawResponse> read_response(int timeout_ms) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (true) {
            const auto end = buffer_.find("\r\n\r\n");
            if (end != std::string::npos) {
                RawResponse r;
                r.head = buffer_.substr(0, end + 2);
                std::size_t length = 0;
                if (auto cl = ifind(r.head, "\r\ncontent-length:"); cl != std::string::npos) {
                    length = std::strtoul(r.head.c_str() + cl + 17, nullptr, 10);
                }
                if (buffer_.size() >= end + 4 + length) {
                    r.body = buffer_.substr(end + 4, length);
                    buffer_.erase(0, end + 4 + length);
                    if (r.head.rfind("HTTP/1.1 ", 0) == 0) r.status = std::atoi(r.head.c_str() + 9);
                    return r;
                }
            }
            if (!fill(deadline)) return std::nullopt;
        }
    }

    // Whether the server ends the connection within `timeout_ms` (whatever it
    // still sends before is read and dropped).
    bool closed_within(int timeout_ms) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (fill(deadline)) {
        }
        return eof_;
    }

    // SHA-256 of the certificate the server presented, as "AB:CD:...".
    std::string peer_fingerprint() const {
        if (!connected_) return {};
        X509* cert = SSL_get1_peer_certificate(ssl_);
        if (cert == nullptr) return {};
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned int len = 0;
        X509_digest(cert, EVP_sha256(), md, &len);
        X509_free(cert);
        static const char* hex = "0123456789ABCDEF";
        std::string out;
        for (unsigned int i = 0; i < len; ++i) {
            if (i != 0) out += ':';
            out += hex[md[i] >> 4];
            out += hex[md[i] & 0x0f];
        }
        return out;
    }

private:
    // Reads what arrives before `deadline`; false on timeout or end of stream.
    bool fill(std::chrono::steady_clock::time_point deadline) {
        if (!connected_ || eof_) return false;
        if (SSL_pending(ssl_) == 0) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
        }
        char buf[4096];
        const int n = SSL_read(ssl_, buf, sizeof buf);
        if (n <= 0) {
            eof_ = true;
            return false;
        }
        buffer_.append(buf, static_cast<std::size_t>(n));
        return true;
    }

    int fd_ = -1;
    SSL_CTX* ctx_ = nullptr;
    SSL* ssl_ = nullptr;
    bool connected_ = false;
    bool eof_ = false;
    std::string buffer_;
};

// An HTTPS upstream on 127.0.0.1 (or another loopback address `ip`) that
// answers every request with 200, a JSON body and `extra_headers`, and
// records what reached it.
class StubUpstream {
public:
    // `configure`: called with the server before it listens (TLS callbacks, keep-alive).
    using Configure = std::function<void(httplib::SSLServer&)>;
    StubUpstream(const std::string& cert, const std::string& key, httplib::Headers extra_headers = {},
                 std::string ip = "127.0.0.1", const Configure& configure = {})
        : server_(cert.c_str(), key.c_str()), extra_(std::move(extra_headers)), ip_(std::move(ip)) {
        native::harden_server(server_);
        if (configure) configure(server_);
        auto answer = [this](const httplib::Request& req, httplib::Response& res) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                targets_.push_back(req.method + " " + req.target);
            }
            for (const auto& [name, value] : extra_) res.set_header(name, value);
            res.set_content(R"({"access_token":"UPSTREAM-ANSWER","token_type":"Bearer"})", "application/json");
        };
        server_.Get(".*", answer);
        server_.Post(".*", answer);
        server_.Put(".*", answer);
        server_.Delete(".*", answer);
        if (auto port = native::bind_loopback(server_, ip_, 0)) port_ = *port;
        if (port_ <= 0) return;  // ok() says so
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~StubUpstream() {
        if (!thread_.joinable()) return;
        server_.stop();
        thread_.join();
    }
    StubUpstream(const StubUpstream&) = delete;
    StubUpstream& operator=(const StubUpstream&) = delete;

    bool ok() const { return port_ > 0; }
    int port() const { return port_; }
    std::string origin() const {
        const bool v6 = ip_.find(':') != std::string::npos;
        return "https://" + (v6 ? "[" + ip_ + "]" : ip_) + ":" + std::to_string(port_);
    }
    // "METHOD target" of every request that reached it.
    std::vector<std::string> targets() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return targets_;
    }

private:
    httplib::SSLServer server_;
    httplib::Headers extra_;
    std::string ip_;
    int port_ = 0;
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<std::string> targets_;
};

// Points `config` at the upstream at `origin` ("https://host:port") as a
// public client "web-client".
inline void use_upstream_origin(HelperConfig& config, const std::string& origin) {
    config.upstream.base_url = origin + "/v2";
    config.upstream.auth_url = origin + "/oauth";
    config.upstream.consent_url = origin + "/consent";
    config.upstream.client_id = "web-client";
}

// ... at `up`.
inline void use_upstream(HelperConfig& config, const StubUpstream& up) {
    use_upstream_origin(config, up.origin());
}

// The rows of /proc/net/tcp and tcp6: local and remote address as the kernel
// prints them ("HEXADDR:HEXPORT") and the state ("0A" LISTEN, "08" CLOSE_WAIT, ...).
struct TcpRow {
    std::string local;
    std::string remote;
    std::string state;
};
inline std::vector<TcpRow> tcp_rows() {
    std::vector<TcpRow> rows;
    for (const char* file : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(file);
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string slot;
            TcpRow row;
            fields >> slot >> row.local >> row.remote >> row.state;
            rows.push_back(std::move(row));
        }
    }
    return rows;
}
// The port of such an address; -1 for a malformed one.
inline int tcp_row_port(const std::string& address) {
    const auto colon = address.find(':');
    return colon == std::string::npos ? -1 : std::stoi(address.substr(colon + 1), nullptr, 16);
}

// The local addresses in LISTEN state on `port`, as the kernel reports them
// (/proc/net/tcp and tcp6): "127.0.0.1", "::1", "0.0.0.0", "::", ...; sorted,
// each once.
//
// The kernel writes these files a page per read and finds its place again by
// counting sockets: while other tests open and close sockets, one listing can
// show a socket twice or skip one (a CI run saw {127.0.0.1, ::1, ::1}). So the
// files are read until two listings in a row agree.
inline std::vector<std::string> listening_addresses_once(int port) {
    std::vector<std::string> out;
    for (const TcpRow& row : tcp_rows()) {
        if (row.state != "0A" || tcp_row_port(row.local) != port) continue;  // 0A = LISTEN
        const std::string hex = row.local.substr(0, row.local.find(':'));
        // The kernel prints each 32-bit word in host (little-endian) order.
        unsigned char bytes[16] = {};
        const std::size_t n = hex.size() / 2;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t word = i / 4;
            const std::size_t in_word = 3 - i % 4;
            bytes[word * 4 + in_word] = static_cast<unsigned char>(std::stoi(hex.substr(i * 2, 2), nullptr, 16));
        }
        char text[INET6_ADDRSTRLEN] = {};
        ::inet_ntop(n == 4 ? AF_INET : AF_INET6, bytes, text, sizeof text);
        out.emplace_back(text);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

inline std::vector<std::string> listening_addresses(int port) {
    std::vector<std::string> last = listening_addresses_once(port);
    for (int attempt = 0; attempt < 20; ++attempt) {
        std::vector<std::string> again = listening_addresses_once(port);
        if (again == last) return again;
        last = std::move(again);
    }
    return last;
}

}  // namespace roomkey::helper::testing

namespace roomkey::helper {
// The fixture's names every helper test uses unqualified: one list here
// rather than the same using-lines at the top of each test file.
using testing::RawResponse;
using testing::RawTls;
using testing::RunningHelper;
using testing::StubUpstream;
using testing::TempDir;
}  // namespace roomkey::helper
