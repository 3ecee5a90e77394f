// ascii.hpp: ASCII case folding, the one rule for every case-insensitive
// compare (header names, URL schemes and hosts, language tags, the app's
// filters): A-Z fold to a-z, every other byte (UTF-8 included) stays as it is.
#pragma once

#include <string>
#include <string_view>

namespace roomkey {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ascii_lower(std::string_view text);

// Equal when folded (RFC 9110 5.1's rule for header names).
bool iequals(std::string_view a, std::string_view b);

bool istarts_with(std::string_view text, std::string_view prefix);

// Where `needle` first occurs in `text` when folded, or npos; an empty needle is at 0.
std::size_t ifind(std::string_view text, std::string_view needle);

}  // namespace roomkey
