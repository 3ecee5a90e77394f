// Property: parse_www_authenticate never crashes on any bytes, and for every
// Bearer challenge it finds, format_bearer_challenge followed by a re-parse
// yields the same realm/error/error_description/scope (spec 5.2, RFC 6750 3).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "roomkey/www_authenticate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace roomkey;
    const std::string_view input(reinterpret_cast<const char*>(data), size);

    auto parsed = parse_www_authenticate(input);
    if (parsed) {
        for (const auto& challenge : parsed.value()) {
            // A parsed challenge always has a scheme; a token68 excludes parameters.
            if (challenge.scheme.empty()) std::abort();
            if (challenge.token68 && !challenge.params.empty()) std::abort();
        }
    }

    Headers headers{{"WWW-Authenticate", std::string(input)}};
    auto bearer = find_bearer_challenge(headers);
    if (!bearer) return 0;
    Headers again{{"WWW-Authenticate", format_bearer_challenge(*bearer)}};
    auto reread = find_bearer_challenge(again);
    if (!reread || !(*reread == *bearer)) std::abort();
    return 0;
}
