// token_response_fuzz.cpp. Property (no crash + invariants): read_token_response
// never crashes, hangs or aborts on any status and any body, and whatever it
// accepts is a usable token set: status 200, token_type exactly "Bearer",
// 0 < expires_in <= kMaxExpiresInSeconds, non-empty tokens, expiry after now.
// Input layout: 2 bytes big-endian status (mod 600), then the body.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "roomkey/token.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace roomkey;
    if (size < 2) return 0;
    HttpResponse response;
    response.status = ((static_cast<int>(data[0]) << 8) | static_cast<int>(data[1])) % 600;
    response.headers.set("Content-Type", "application/json");
    response.body.assign(reinterpret_cast<const char*>(data + 2), size - 2);

    const Instant now = instant_from_unix_seconds(1'700'000'000);
    auto result = read_token_response(response, now);
    if (result) {
        const TokenSet& set = *result;
        if (response.status != 200) std::abort();
        if (set.token_type != "Bearer") std::abort();
        if (set.expires_in <= 0 || set.expires_in > kMaxExpiresInSeconds) std::abort();
        if (set.access_token.empty() || set.refresh_token.empty()) std::abort();
        if (set.access_expires_at <= now) std::abort();
        if (set.refresh_expires_at && *set.refresh_expires_at <= now) std::abort();
    } else {
        const auto& error = result.error();
        // An error body is reported exactly for non-200 responses.
        if (error.error.has_value() != (error.kind == TokenResponseErrorKind::error_response)) std::abort();
        if (error.kind == TokenResponseErrorKind::error_response && response.status == 200) std::abort();
    }
    return 0;
}
