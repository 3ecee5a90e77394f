// free_port.hpp: a port on 127.0.0.1 that nothing listens on right now
// (bound, noted, closed). For what cannot take port 0 and report its
// choice (nginx; a redirect URI registered before its server starts), and
// for an upstream that refuses connections.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace roomkey::integration {

inline int free_port() {
    const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(sock);
        return 0;
    }
    socklen_t len = sizeof addr;
    ::getsockname(sock, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(sock);
    return ntohs(addr.sin_port);
}

}  // namespace roomkey::integration
