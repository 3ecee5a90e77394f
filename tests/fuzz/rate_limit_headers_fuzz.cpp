// Property: read_rate_limit never crashes on any three header values, every
// value it accepts satisfies 0 <= remaining <= limit (spec 8.1), and writing
// an accepted value then reading it back gives the same value.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "roomkey/rate_limit_headers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace roomkey;
    // The input is "limit\nremaining\nreset"; missing lines leave headers out,
    // so the absent/incomplete paths are reached too.
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::string_view names[] = {kRateLimitLimitHeader, kRateLimitRemainingHeader, kRateLimitResetHeader};
    Headers headers;
    std::size_t pos = 0;
    for (std::string_view name : names) {
        if (pos > input.size()) break;
        std::size_t end = input.find('\n', pos);
        if (end == std::string_view::npos) end = input.size();
        headers.add(std::string(name), std::string(input.substr(pos, end - pos)));
        pos = end + 1;
    }

    auto read = read_rate_limit(headers);
    if (!read || !read->has_value()) return 0;
    const RateLimit& value = **read;
    if (value.remaining < 0 || value.remaining > value.limit) std::abort();

    Headers written;
    write_rate_limit(written, value);
    auto reread = read_rate_limit(written);
    if (!reread || !reread->has_value() || !(**reread == value)) std::abort();
    return 0;
}
