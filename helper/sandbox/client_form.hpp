// client_form.hpp: reading the client creation form (POST /clients, spec 2.1)
// into a ClientRegistration. Pure (no server, no state), so the form's
// parsing is unit-tested and fuzzed on its own; the rules themselves are
// shared/'s check_registration.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "roomkey/registration.hpp"
#include "roomkey/url.hpp"

namespace roomkey::sandbox {

struct ClientForm {
    ClientRegistration registration;
    // What the form itself lacks (before the registration rules run), one
    // sentence each for the person filling it in.
    std::vector<std::string> problems;
};

// Fields: name, type ("public" | "confidential"), redirect_uris (one per line,
// blank lines and surrounding blanks ignored), scope (repeated; empty ones
// ignored). The csrf field is the caller's business.
ClientForm read_client_form(const FormFields& form);

// The non-blank lines of a textarea, trimmed of spaces, tabs and '\r'.
std::vector<std::string> split_lines(std::string_view text);

}  // namespace roomkey::sandbox
