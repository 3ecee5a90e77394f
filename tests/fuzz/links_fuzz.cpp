// links_fuzz.cpp: property: find_links never crashes on any bytes; its links are in order, do not overlap and
// lie within the text; each opens an http:// or https:// URL that is exactly the text it covers (its scheme in
// lower case), holds no space, control, non-ASCII byte or quote; and a link's own text is found again as that
// one link, whole.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "roomkey/ascii.hpp"
#include "roomkey/links.hpp"

namespace {

bool same_ignoring_scheme_case(std::string_view written, const std::string& url) {
    if (written.size() != url.size()) return false;
    const std::size_t scheme = url.find("://") + 3;
    for (std::size_t i = 0; i < url.size(); ++i) {
        if (i < scheme ? roomkey::ascii_lower(written[i]) != url[i] : written[i] != url[i]) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::size_t cursor = 0;
    for (const roomkey::TextLink& link : roomkey::find_links(text)) {
        if (link.begin < cursor || link.end <= link.begin || link.end > text.size()) std::abort();
        cursor = link.end;
        const std::string& url = link.url;
        if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) std::abort();
        if (!same_ignoring_scheme_case(text.substr(link.begin, link.end - link.begin), url)) std::abort();
        for (char c : url) {
            const auto u = static_cast<unsigned char>(c);
            if (u <= 0x20 || u >= 0x7f || c == '"' || c == '<' || c == '>') std::abort();
        }
        const auto again = roomkey::find_links(url);
        if (again.size() != 1 || again[0].begin != 0 || again[0].end != url.size() || again[0].url != url) std::abort();
    }
    return 0;
}
