// request_log.cpp: the log line of request_log.hpp.
#include "common/request_log.hpp"

#include <cstdio>

namespace roomkey::native {

std::string milliseconds_suffix(std::optional<double> milliseconds) {
    if (!milliseconds) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, " %.1fms", *milliseconds);
    return buf;
}

std::string request_log_line(std::string_view method, std::string_view target, int status,
                             std::optional<double> milliseconds, QueryInLog query) {
    const bool known_method = method == "GET" || method == "HEAD" || method == "POST" || method == "PUT" ||
                              method == "DELETE" || method == "OPTIONS" || method == "PATCH";
    std::string line;
    if (!known_method || target.empty() || target[0] != '/') {
        line = "- -";
    } else {
        const std::size_t path_end = query == QueryInLog::redacted ? target.find('?') : target.find_first_of("?#");
        std::string path(target.substr(0, path_end));
        for (char& c : path) {
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
        }
        if (path.size() > 200) path = path.substr(0, 200) + "...";
        line = std::string(method);
        line += ' ';
        line += path;
        if (query == QueryInLog::redacted && path_end != std::string_view::npos) line += "?[redacted]";
    }
    line += ' ';
    line += std::to_string(status);
    line += milliseconds_suffix(milliseconds);
    return line;
}

}  // namespace roomkey::native
