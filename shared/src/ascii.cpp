// ascii.cpp: see ascii.hpp.
#include "roomkey/ascii.hpp"

#include <algorithm>

namespace roomkey {

namespace {
bool same_folded(char a, char b) { return ascii_lower(a) == ascii_lower(b); }
}  // namespace

std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = ascii_lower(c);
    return out;
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_folded);
}

bool istarts_with(std::string_view text, std::string_view prefix) {
    return prefix.size() <= text.size() && iequals(text.substr(0, prefix.size()), prefix);
}

std::size_t ifind(std::string_view text, std::string_view needle) {
    const auto at = std::search(text.begin(), text.end(), needle.begin(), needle.end(), same_folded);
    return at == text.end() && !needle.empty() ? std::string_view::npos : static_cast<std::size_t>(at - text.begin());
}

}  // namespace roomkey
