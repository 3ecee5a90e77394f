// request_log.cpp: the log line of request_log.hpp.
#include "common/request_log.hpp"

#include <algorithm>
#include <cstdio>

namespace roomkey::native {

std::string escape_for_log(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f && c != '\\') {
            out += c;
        } else {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xf];
        }
    }
    return out;
}

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
        const std::string_view raw = target.substr(0, std::min(path_end, target.size()));
        std::string path = escape_for_log(raw.substr(0, 200));
        if (raw.size() > 200) path += "...";
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
