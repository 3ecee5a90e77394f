// security_headers.cpp: the table of security_headers.hpp.
#include "common/security_headers.hpp"

namespace roomkey::native {

namespace {

// One header, its value in each profile ("" = not sent there). The order is
// the order of the helper's default headers and so of the generated nginx
// configuration's add_header lines.
struct Row {
    std::string_view name;
    std::string_view helper;
    std::string_view sandbox_page;
    std::string_view sandbox_api;
};

// The sandbox stands in for the service, whose pages are no app: its CSP
// allows nothing but the consent page's inline style, and no form-action
// (the consent form's redirect goes to the client's URI). The helper's
// Cross-Origin-* headers keep the app's window and files to its own origin.
constexpr Row kRows[] = {
    {"Content-Security-Policy", kAppContentSecurityPolicy,
     "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
     "default-src 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff", "nosniff", "nosniff"},
    // The callback URL carries code and state.
    {"Referrer-Policy", "no-referrer", "no-referrer", "no-referrer"},
    // Neither the app nor the consent screen may be framed (clickjacking).
    {"X-Frame-Options", "DENY", "DENY", "DENY"},
    {"Cross-Origin-Opener-Policy", "same-origin", "", ""},
    {"Cross-Origin-Resource-Policy", "same-origin", "", ""},
    // The sandbox's pages use no feature either, but it stands in for the
    // service, whose headers are its own.
    {"Permissions-Policy", kAppPermissionsPolicy, "", ""},
};

}  // namespace

std::vector<SecurityHeader> security_headers(HeaderProfile profile) {
    std::vector<SecurityHeader> out;
    for (const Row& row : kRows) {
        const std::string_view value = profile == HeaderProfile::helper         ? row.helper
                                       : profile == HeaderProfile::sandbox_page ? row.sandbox_page
                                                                                : row.sandbox_api;
        if (!value.empty()) out.push_back(SecurityHeader{row.name, value});
    }
    return out;
}

}  // namespace roomkey::native
