// slow_clients.hpp: a slow-loris on loopback, for the tests of the servers'
// connection limits (helper_slow_clients_test.cpp): from its own address
// (127.0.0.2, another peer than the user's 127.0.0.1), `idle` connections
// that send nothing and `drip` connections that send a TLS record header
// and then one byte every 200 ms, each reopened as soon as the server
// closes it, on one thread with poll(), until the object is destroyed.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace roomkey::integration {

class SlowClients {
public:
    SlowClients(int port, int idle, int drip) : port_(port) {
        for (int i = 0; i < idle + drip; ++i) conns_.push_back(Conn{-1, i >= idle, {}});
        thread_ = std::thread([this] { run(); });
    }
    ~SlowClients() {
        stop_ = true;
        thread_.join();
        for (auto& c : conns_) {
            if (c.fd >= 0) ::close(c.fd);
        }
    }
    SlowClients(const SlowClients&) = delete;
    SlowClients& operator=(const SlowClients&) = delete;

    // Connections opened so far (reopenings included).
    long opened() const { return opened_.load(); }
    // Connections the server closed.
    long closed_by_server() const { return closed_.load(); }

private:
    using Clock = std::chrono::steady_clock;
    struct Conn {
        int fd;
        bool drip;
        Clock::time_point next;  // next byte (drip) or next reopening
    };

    void open(Conn& c) {
        c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        sockaddr_in from{};
        from.sin_family = AF_INET;
        ::inet_pton(AF_INET, "127.0.0.2", &from.sin_addr);
        ::bind(c.fd, reinterpret_cast<sockaddr*>(&from), sizeof from);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(static_cast<std::uint16_t>(port_));
        ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
        ::connect(c.fd, reinterpret_cast<sockaddr*>(&to), sizeof to);
        ++opened_;
        // A TLS handshake record announcing 512 bytes, then the bytes one by one.
        if (c.drip) ::send(c.fd, "\x16\x03\x01\x02\x00", 5, MSG_NOSIGNAL);
        c.next = Clock::now() + std::chrono::milliseconds(200);
    }

    void run() {
        while (!stop_) {
            std::vector<pollfd> fds;
            for (auto& c : conns_) {
                if (c.fd < 0 && Clock::now() >= c.next) open(c);
                fds.push_back(pollfd{c.fd, POLLIN, 0});
            }
            ::poll(fds.data(), fds.size(), 50);
            const auto now = Clock::now();
            for (std::size_t i = 0; i < conns_.size(); ++i) {
                Conn& c = conns_[i];
                if (c.fd < 0) continue;
                bool gone = (fds[i].revents & (POLLHUP | POLLERR)) != 0;
                if (!gone && (fds[i].revents & POLLIN) != 0) {
                    char buf[512];
                    gone = ::recv(c.fd, buf, sizeof buf, 0) <= 0;
                }
                if (!gone && c.drip && now >= c.next) {
                    gone = ::send(c.fd, "", 1, MSG_NOSIGNAL) != 1;
                    c.next = now + std::chrono::milliseconds(200);
                }
                if (gone) {
                    ::close(c.fd);
                    c.fd = -1;
                    c.next = now + std::chrono::milliseconds(50);  // reopened soon, not in a busy loop
                    ++closed_;
                }
            }
        }
    }

    int port_;
    std::vector<Conn> conns_;
    std::atomic<bool> stop_{false};
    std::atomic<long> opened_{0};
    std::atomic<long> closed_{0};
    std::thread thread_;
};

}  // namespace roomkey::integration
