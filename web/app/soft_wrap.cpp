// soft_wrap.cpp: see soft_wrap.hpp.
#include "app/soft_wrap.hpp"

#include <algorithm>

namespace roomkey::app {

namespace {

bool continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

std::size_t soft_before(std::size_t pos, const std::vector<std::size_t>& soft) {
    return static_cast<std::size_t>(std::lower_bound(soft.begin(), soft.end(), pos) - soft.begin());
}

}  // namespace

Wrapped soft_wrap(std::string_view text, float width, Fit fit) {
    Wrapped out;
    out.shown.reserve(text.size() + text.size() / 16);
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view rest = text.substr(start, end - start);
        while (!rest.empty()) {
            std::size_t n = std::max<std::size_t>(fit(rest, width), 1);
            while (n < rest.size() && continuation(rest[n])) ++n;                // never inside a character
            while (n < rest.size() && (rest[n] == ' ' || rest[n] == '\t')) ++n;  // spaces end the line
            if (n >= rest.size()) break;
            out.shown.append(rest.substr(0, n));
            out.soft.push_back(out.shown.size());
            out.shown += '\n';
            rest.remove_prefix(n);
        }
        out.shown.append(rest);
        if (end >= text.size()) break;
        out.shown += '\n';
        start = end + 1;
    }
    return out;
}

std::string unwrap(std::string_view shown, const std::vector<std::size_t>& soft) {
    std::string text;
    text.reserve(shown.size());
    std::size_t from = 0;
    for (std::size_t at : soft) {
        if (at < from || at >= shown.size()) continue;
        text.append(shown.substr(from, at - from));
        from = at + 1;
    }
    text.append(shown.substr(std::min(from, shown.size())));
    return text;
}

std::size_t shown_pos(std::size_t text_pos, const std::vector<std::size_t>& soft) {
    std::size_t pos = text_pos;
    for (std::size_t i = 0; i < soft.size(); ++i) {
        if (soft[i] - i > text_pos) break;  // the break's place in the text
        ++pos;
    }
    return pos;
}

std::size_t text_pos(std::size_t shown_pos, const std::vector<std::size_t>& soft) {
    return shown_pos - soft_before(shown_pos, soft);
}

Edited after_edit(std::string_view before, const std::vector<std::size_t>& soft, std::string_view after,
                  std::size_t caret_before, std::size_t caret_after) {
    std::size_t prefix = 0;
    const std::size_t shorter = std::min(before.size(), after.size());
    while (prefix < shorter && before[prefix] == after[prefix]) ++prefix;
    std::size_t suffix = 0;
    while (suffix < shorter - prefix && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) {
        ++suffix;
    }
    const std::size_t removed_end = before.size() - suffix;  // [prefix, removed_end) went
    const std::ptrdiff_t delta = static_cast<std::ptrdiff_t>(after.size()) - static_cast<std::ptrdiff_t>(before.size());
    std::vector<std::size_t> kept;  // the breaks still in `after`, at their offsets there
    bool soft_deleted = false;
    for (std::size_t at : soft) {
        if (at < prefix) {
            kept.push_back(at);
        } else if (at >= removed_end) {
            kept.push_back(static_cast<std::size_t>(static_cast<std::ptrdiff_t>(at) + delta));
        } else if (removed_end - prefix == 1 && after.size() + 1 == before.size()) {
            soft_deleted = true;
        }
    }
    Edited out{unwrap(after, kept), text_pos(std::min(caret_after, after.size()), kept)};
    if (soft_deleted) {
        // The soft break stood between two characters of the text: take out the one the key meant.
        std::size_t from = out.caret;
        std::size_t to = out.caret;
        if (caret_before > prefix) {  // Backspace
            if (from == 0) return out;
            do --from;
            while (from > 0 && continuation(out.text[from]));
        } else {  // Delete
            if (to >= out.text.size()) return out;
            do ++to;
            while (to < out.text.size() && continuation(out.text[to]));
        }
        out.text.erase(from, to - from);
        out.caret = from;
    }
    return out;
}

}  // namespace roomkey::app
