// message_tags.cpp: reading who a message is for (see message_tags.hpp).
// A tag that does not close, or whose id is not digits, is not a tag.
#include "roomkey/message_tags.hpp"

namespace roomkey {

namespace {

bool is_digits(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// The value of `name=` among the space-separated attributes of a tag's inside
// ("aid=1001 to=2100-5"); empty when absent.
std::string_view attribute(std::string_view inside, std::string_view name) {
    std::size_t pos = 0;
    while (pos < inside.size()) {
        const std::size_t space = inside.find(' ', pos);
        const std::string_view item = inside.substr(pos, space == std::string_view::npos ? space : space - pos);
        if (item.size() > name.size() && item.substr(0, name.size()) == name && item[name.size()] == '=') {
            return item.substr(name.size() + 1);
        }
        if (space == std::string_view::npos) break;
        pos = space + 1;
    }
    return {};
}

constexpr std::string_view kReplyOpeners[] = {"[rp ", "[\xE8\xBF\x94\xE4\xBF\xA1 "};  // "[rp ", "[返信 "

// Calls visit(inside) for the inside of every reply tag, until it returns true.
template <typename Visit>
bool any_reply_tag(std::string_view body, Visit visit) {
    for (std::string_view opener : kReplyOpeners) {
        std::size_t pos = 0;
        while ((pos = body.find(opener, pos)) != std::string_view::npos) {
            const std::size_t start = pos + opener.size();
            const std::size_t close = body.find(']', start);
            if (close == std::string_view::npos) break;
            if (visit(body.substr(start, close - start))) return true;
            pos = start;
        }
    }
    return false;
}

}  // namespace

bool addresses_account(std::string_view body, std::string_view account_id) {
    if (!is_digits(account_id)) return false;
    constexpr std::string_view kTo = "[To:";
    std::size_t pos = 0;
    while ((pos = body.find(kTo, pos)) != std::string_view::npos) {
        const std::size_t start = pos + kTo.size();
        if (body.substr(start, account_id.size()) == account_id && start + account_id.size() < body.size() &&
            body[start + account_id.size()] == ']') {
            return true;
        }
        pos = start;
    }
    return any_reply_tag(body, [&](std::string_view inside) { return attribute(inside, "aid") == account_id; });
}

bool addresses_everyone(std::string_view body) {
    return body.find("[toall]") != std::string_view::npos;
}

bool mentions_account(std::string_view body, std::string_view account_id) {
    return addresses_everyone(body) || addresses_account(body, account_id);
}

std::optional<ReplyTarget> reply_target(std::string_view body) {
    std::optional<ReplyTarget> found;
    any_reply_tag(body, [&](std::string_view inside) {
        const std::string_view aid = attribute(inside, "aid");
        const std::string_view to = attribute(inside, "to");
        const std::size_t dash = to.find('-');
        if (!is_digits(aid) || dash == std::string_view::npos) return false;
        const std::string_view room = to.substr(0, dash);
        const std::string_view message = to.substr(dash + 1);
        if (!is_digits(room) || !is_digits(message)) return false;
        found = ReplyTarget{aid, room, message};
        return true;
    });
    return found;
}

std::optional<std::string_view> service_event_key(std::string_view body) {
    constexpr std::string_view kOpen = "[info][title][dtext:";
    if (body.substr(0, kOpen.size()) != kOpen) return std::nullopt;
    const std::size_t end = body.find(']', kOpen.size());
    if (end == std::string_view::npos || end == kOpen.size()) return std::nullopt;
    const std::string_view key = body.substr(kOpen.size(), end - kOpen.size());
    if (body.substr(end, 9) != "][/title]") return std::nullopt;
    for (char c : key) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) return std::nullopt;
    }
    return key;
}

}  // namespace roomkey
