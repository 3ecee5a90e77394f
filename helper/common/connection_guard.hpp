// connection_guard.hpp: what keeps slow and idle clients from holding every
// worker thread of a roomkey server (TlsServer, tls_server.hpp, which runs
// one connection per thread): a per-peer cap on connections in service, a
// "workers are scarce" signal that ends idle keep-alive waits first, and
// read deadlines that end a connection whose request head has not come
// whole in time, however slowly its bytes drip (each read's own timeout
// never fires when a byte comes every few seconds).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace roomkey::native {

class ConnectionGuard {
public:
    // `threads`: the server's worker threads; `per_peer`: connections one
    // peer address may hold at once, in service or waiting for a worker
    // (0: threads * 3 / 4).
    void configure(std::size_t threads, std::size_t per_peer);

    // A connection from `peer` is accepted (TlsServer: on the accept
    // thread, before it waits for a worker); false (and nothing counted)
    // when that peer is at its cap: close it unserved.
    bool admit(const std::string& peer);
    // ... ends (after an admit() that returned true).
    void leave(const std::string& peer);
    // Connections held (served or waiting for a worker) reach three
    // quarters of the threads: an idle keep-alive connection is closed
    // rather than kept waiting for its next request.
    bool scarce() const;

private:
    std::size_t threads_ = 0;
    std::size_t per_peer_ = 0;
    std::atomic<std::size_t> in_service_{0};
    std::mutex mutex_;
    std::map<std::string, std::size_t> peers_;
};

// A process-wide watch over socket deadlines: when `fd`'s deadline passes
// before clear_deadline(fd), the socket is shut down both ways (its blocked
// reads and writes return), so the thread serving it ends the connection.
// Call clear_deadline() before closing `fd`.
void set_deadline(int fd, std::chrono::steady_clock::time_point when);
void clear_deadline(int fd);

}  // namespace roomkey::native
