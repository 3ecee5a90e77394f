// encoding.hpp: base64 (RFC 4648 section 4) and base64url without padding
// (section 5, as PKCE and JWT use it). Byte strings are std::string.
#pragma once

#include <string>
#include <string_view>

#include "roomkey/result.hpp"

namespace roomkey {

enum class Base64Error {
    invalid_character,  // a byte outside the alphabet
    invalid_length,     // a length no encoding produces (e.g. 4n+1 characters)
    invalid_padding,    // '=' where it may not stand, or non-zero trailing bits
};
std::string_view to_string(Base64Error error);

std::string base64_encode(std::string_view bytes);     // standard alphabet, '=' padded
std::string base64url_encode(std::string_view bytes);  // URL alphabet, no padding

Result<std::string, Base64Error> base64_decode(std::string_view text);     // padding required
Result<std::string, Base64Error> base64url_decode(std::string_view text);  // padding refused

}  // namespace roomkey
