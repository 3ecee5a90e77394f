// links.cpp: see links.hpp.
#include "roomkey/links.hpp"

#include "roomkey/ascii.hpp"

namespace roomkey {

namespace {

bool alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The scheme's length ("http://" or "https://") when `text` starts with one.
std::size_t scheme_at(std::string_view text, std::size_t at) {
    for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
        if (istarts_with(text.substr(at), scheme)) return scheme.size();
    }
    return 0;
}

bool url_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return false;
    for (char stop : std::string_view("<>\"`{}|\\^[]")) {
        if (c == stop) return false;
    }
    return true;
}

}  // namespace

std::vector<TextLink> find_links(std::string_view text) {
    std::vector<TextLink> links;
    std::size_t at = 0;
    while (at < text.size()) {
        const char before = at > 0 ? text[at - 1] : ' ';
        const std::size_t scheme =
            (alnum(before) || before == '+' || before == '-' || before == '.') ? 0 : scheme_at(text, at);
        if (scheme == 0 || at + scheme >= text.size() || !alnum(text[at + scheme])) {
            ++at;
            continue;
        }
        std::size_t end = at + scheme;
        int open = 0;  // parentheses opened within the link: "(...)" in a wiki path stays
        while (end < text.size() && url_char(text[end])) {
            if (text[end] == '(') ++open;
            if (text[end] == ')' && open-- == 0) break;
            ++end;
        }
        while (end > at + scheme) {
            const char last = text[end - 1];
            if (last != '.' && last != ',' && last != ':' && last != ';' && last != '!' && last != '?' &&
                last != '\'') {
                break;
            }
            --end;
        }
        TextLink link;
        link.begin = at;
        link.end = end;
        link.url.assign(text.substr(at, end - at));
        for (std::size_t i = 0; i < scheme; ++i) link.url[i] = ascii_lower(link.url[i]);
        links.push_back(std::move(link));
        at = end;
    }
    return links;
}

}  // namespace roomkey
