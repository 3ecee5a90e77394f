// www_authenticate.hpp: the WWW-Authenticate header (RFC 9110 11.6.1, was
// RFC 7235 4.1) parsed into challenges, and the Bearer challenge of spec 5.2
// (RFC 6750 3) read and written. Junk input gives an error value, never a crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/http.hpp"
#include "roomkey/result.hpp"

namespace roomkey {

struct AuthParam {
    std::string name;   // as received; compare with iequals
    std::string value;  // quoted-string values are unquoted and unescaped
};

struct Challenge {
    std::string scheme;                 // as received; compare with iequals
    std::optional<std::string> token68;  // "Basic dXNlcg==" style credentials-like form
    std::vector<AuthParam> params;
    // The value of the parameter of that name (names are case-insensitive).
    std::optional<std::string> param(std::string_view name) const;
};

enum class WwwAuthenticateError {
    empty,                       // no challenge at all
    expected_scheme,             // an element does not start with a token
    expected_param,              // after the scheme: neither token68 nor name=value
    expected_value,              // "name=" with no token or quoted-string after it
    unterminated_quoted_string,  // '"' without its closing '"'
    invalid_character,           // a control character or a byte the grammar forbids
    duplicate_param,             // one parameter name twice in a challenge (RFC 9110 11.2)
};
std::string_view to_string(WwwAuthenticateError error);

// One header field value: 1#challenge.
Result<std::vector<Challenge>, WwwAuthenticateError> parse_www_authenticate(std::string_view value);

// The parameters RFC 6750 3 defines for the Bearer scheme.
struct BearerChallenge {
    std::optional<std::string> realm;
    std::optional<std::string> error;              // "invalid_token", "insufficient_scope", ...
    std::optional<std::string> error_description;
    std::optional<std::string> scope;
    friend bool operator==(const BearerChallenge& a, const BearerChallenge& b) {
        return a.realm == b.realm && a.error == b.error &&
               a.error_description == b.error_description && a.scope == b.scope;
    }
};

// The first Bearer challenge among all WWW-Authenticate fields. In a field
// that does not parse to the end, the challenges before the fault still count.
std::optional<BearerChallenge> find_bearer_challenge(const Headers& headers);

// Spec 5.2.2 / 7.3: a 401 whose Bearer challenge says error="invalid_token"
// (the access token expired or is invalid: refresh, then retry once).
bool is_invalid_token(const HttpResponse& response);

// `Bearer error="...", error_description="..."[, scope="..."]` (spec 5.2.2).
// Values are quoted with '"' and '\' escaped; control characters, which a
// quoted-string cannot carry, become spaces. Empty description/scope are left out.
std::string format_bearer_challenge(std::string_view error, std::string_view description,
                                    std::string_view scope = {});
// Every present field, in the order realm, error, error_description, scope.
std::string format_bearer_challenge(const BearerChallenge& challenge);

}  // namespace roomkey
