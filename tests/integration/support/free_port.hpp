// free_port.hpp: a port on 127.0.0.1 that nothing listens on right now
// (bound, noted, closed). For what cannot take port 0 and report its
// choice (nginx; a redirect URI registered before its server starts), and
// for an upstream that refuses connections.
//
// Picked below the kernel's ephemeral range, as tests/e2e/support.mjs does:
// a port from bind(0) is an ephemeral one, and until the server binds it
// any outgoing connection may take it as its source port ("already in use"
// under ctest -j2). Tests running at once start from different random
// points and skip ports that are taken.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <random>

namespace roomkey::integration {

inline int ephemeral_port_low() {
    std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
    int low = 0;
    return range >> low && low > 1024 ? low : 32768;
}

inline bool can_bind(int port) {
    const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
    if (sock < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool bound = ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(sock);
    return bound;
}

// 0 when every port of the range is taken.
inline int free_port() {
    const int high = ephemeral_port_low() - 1;
    const int low = std::max(1024, high - 12000);
    const int span = high - low + 1;
    std::random_device seed;
    const int start = static_cast<int>(seed() % static_cast<unsigned>(span));
    for (int i = 0; i < span; ++i) {
        const int port = low + (start + i) % span;
        if (can_bind(port)) return port;
    }
    return 0;
}

}  // namespace roomkey::integration
