// body_recording_upstream.hpp: an HTTPS upstream on 127.0.0.1 that takes
// request bodies up to the upload limit and records each request's method,
// target, Content-Type and body bytes, for the tests of the upload route
// through the helper and through the generated nginx front; and a multipart
// body of a chosen size, as a browser's FormData sends it.
#pragma once

#include <httplib.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/loopback_server.hpp"
#include "common/raw_body.hpp"
#include "roomkey/upload_limits.hpp"

namespace roomkey::integration {

// One request as an upstream received it.
struct Received {
    std::string method_target;
    std::string content_type;
    std::string body;
};

// An HTTPS upstream that takes bodies up to the upload limit, keeps them as
// their bytes (the helper's own raw_body.hpp; the tests compare them with
// the bytes they built, so a fault there shows too) and records them.
class BodyRecordingUpstream {
public:
    BodyRecordingUpstream(const std::string& cert, const std::string& key) : server_(cert.c_str(), key.c_str()) {
        native::ServerLimits limits;
        limits.max_body_bytes = kMaxUploadRequestBytes;
        native::harden_server(server_, limits, [](const httplib::Request& req, httplib::Response&) {
            native::keep_body_raw(req);
            return httplib::Server::HandlerResponse::Unhandled;
        });
        auto answer = [this](const httplib::Request& req, httplib::Response& res) {
            native::restore_content_type(req);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                received_.push_back({req.method + " " + req.target, req.get_header_value("Content-Type"), req.body});
            }
            res.set_content(R"({"file_id":1})", "application/json");
        };
        server_.Get(".*", answer);
        server_.Post(".*", answer);
        server_.Put(".*", answer);
        if (auto port = native::bind_loopback(server_, "127.0.0.1", 0)) port_ = *port;
        if (port_ <= 0) return;
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~BodyRecordingUpstream() {
        if (!thread_.joinable()) return;
        server_.stop();
        thread_.join();
    }
    BodyRecordingUpstream(const BodyRecordingUpstream&) = delete;
    BodyRecordingUpstream& operator=(const BodyRecordingUpstream&) = delete;

    bool ok() const { return port_ > 0; }
    std::string origin() const { return "https://127.0.0.1:" + std::to_string(port_); }
    std::vector<Received> received() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return received_;
    }

private:
    httplib::SSLServer server_;
    int port_ = 0;
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<Received> received_;
};

inline constexpr const char* kBoundary = "----roomkeyBoundary7MA4YWxkTrZu0gW";
inline const std::string kMultipartType = std::string("multipart/form-data; boundary=") + kBoundary;

// A multipart body (as a browser's FormData sends it) whose whole size is
// `total` bytes: a `message` part and a `file` part of every byte value.
inline std::string multipart_body(std::size_t total) {
    const std::string head = std::string("--") + kBoundary +
                             "\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nthe report\r\n--" +
                             kBoundary +
                             "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"report.bin\"\r\n"
                             "Content-Type: application/octet-stream\r\n\r\n";
    const std::string tail = std::string("\r\n--") + kBoundary + "--\r\n";
    std::string body = head;
    const std::size_t file = total - head.size() - tail.size();
    body.reserve(total);
    for (std::size_t i = 0; i < file; ++i) body += static_cast<char>((i * 7 + i / 251) & 0xff);
    body += tail;
    return body;
}

}  // namespace roomkey::integration
