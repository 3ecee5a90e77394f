// security_headers.hpp: the security headers both programs put on every
// answer, as one table: roomkey-helper's (the app's pages and proxies) and
// roomkey-sandbox's (its consent and client pages, and its API). A header is
// added or changed here for both, or for one on purpose.
#pragma once

#include <string_view>
#include <vector>

namespace roomkey::native {

// Whose answer the headers go on.
enum class HeaderProfile {
    helper,        // roomkey-helper: the app, its files, its proxies
    sandbox_page,  // roomkey-sandbox's HTML pages (consent screen, client registration)
    sandbox_api,   // roomkey-sandbox's other answers (its API, its token endpoint)
};

// The helper's Content-Security-Policy: the page may compile its own wasm
// ('wasm-unsafe-eval') but not eval JS, and runs no inline script.
inline constexpr std::string_view kAppContentSecurityPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

// The helper's Permissions-Policy: none of the powerful features the app
// never uses (it copies to the clipboard, so clipboard-write stays allowed).
inline constexpr std::string_view kAppPermissionsPolicy =
    "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), magnetometer=(), "
    "microphone=(), midi=(), payment=(), serial=(), usb=()";

struct SecurityHeader {
    std::string_view name;
    std::string_view value;
};

// The headers of `profile`, in the table's order.
std::vector<SecurityHeader> security_headers(HeaderProfile profile);

}  // namespace roomkey::native
