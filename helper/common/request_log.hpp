// request_log.hpp: the request log line both programs write, one per
// answered request: "GET /api/me 200 1.2ms": method, path, status and time,
// never a header or a query's value (codes and states travel in queries).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace roomkey::native {

// What the line shows of a query.
enum class QueryInLog {
    redacted,  // "?[redacted]" after the path (roomkey-helper: that a query came)
    left_out,  // nothing (roomkey-sandbox)
};

// "GET /api/me 200 1.2ms". The path is cut at the query (and, left out, at a
// fragment), cut to 200 bytes and "...", and escaped (escape_for_log()). A
// request that did not parse (a method outside GET, HEAD, POST, PUT, DELETE,
// OPTIONS, PATCH, or a target not starting with '/') is "- - 400": httplib fills
// method and target from whatever line it tried, which may be a header line
// carrying a token. No time: no " 1.2ms".
std::string request_log_line(std::string_view method, std::string_view target, int status,
                             std::optional<double> milliseconds, QueryInLog query = QueryInLog::redacted);

// `text` with every byte outside printable ASCII, and '\\', as "\\xHH" (as
// nginx writes them): a control character would let a request forge log
// lines, a byte over 0x7F makes the log invalid UTF-8 for its readers.
std::string escape_for_log(std::string_view text);

// " 12.3ms", the time every log line ends with; "" when not known.
std::string milliseconds_suffix(std::optional<double> milliseconds);

}  // namespace roomkey::native
