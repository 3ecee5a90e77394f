// links.hpp: the links in a message's text as a reader sees it: http and
// https URLs (the service's links to a message among them). Nothing else
// ever becomes a link: no other scheme (javascript:, data:, file:, ...), no
// bare "www.". Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace roomkey {

struct TextLink {
    std::size_t begin = 0;  // bytes of the text: [begin, end) is the link as written
    std::size_t end = 0;
    std::string url;        // what it opens: the text with its scheme in lower case
};

// The links of `text`, in order, not overlapping. A link starts with
// "http://" or "https://" (any case) not preceded by a letter, a digit or
// one of "+-.", has a host, and runs over ASCII that a URL may hold; it ends
// at a space, a control, a non-ASCII character (Japanese written right
// after a URL), one of <>"`{}|\^[], or an unbalanced ")"; trailing . , : ;
// ! ? ' are the sentence's, not the link's.
std::vector<TextLink> find_links(std::string_view text);

}  // namespace roomkey
