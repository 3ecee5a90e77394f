// message_tags.cpp: reading who a message is for (see message_tags.hpp), from
// the parts notation.hpp reads, so the sandbox's mention_num, the app's
// mentions_me and the conversation's highlight are one rule:
// - a [To:id] or reply tag counts wherever a reader sees it as a tag: at the
//   top, in quotes, info boxes and tasks; inside [code] (verbatim), an info's
//   title or a download's name it is text and does not;
// - a tag that does not close, or whose id is not digits, is not a tag;
// - the reply a message is, is its first reply tag at the top level (one in a
//   quote belongs to the quoted message).
#include "roomkey/message_tags.hpp"

#include <vector>

#include "roomkey/notation.hpp"

namespace roomkey {

namespace message_tags_walk {
namespace {

using notation::Part;
using notation::PartKind;

template <typename Found>
bool any_part(const std::vector<Part>& parts, const Found& found) {
    for (const Part& part : parts) {
        if (found(part) || any_part(part.children, found)) return true;
    }
    return false;
}

bool is_digits(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

}  // namespace
}  // namespace message_tags_walk

bool addresses_account(std::string_view body, std::string_view account_id) {
    using namespace message_tags_walk;
    if (!is_digits(account_id)) return false;
    return any_part(notation::parse_parts(body), [&](const Part& part) {
        return (part.kind == PartKind::mention || part.kind == PartKind::reply) &&
               part.account_id.of(body) == account_id;
    });
}

bool addresses_everyone(std::string_view body) {
    using namespace message_tags_walk;
    return any_part(notation::parse_parts(body), [](const Part& part) { return part.kind == PartKind::to_all; });
}

bool mentions_account(std::string_view body, std::string_view account_id) {
    using namespace message_tags_walk;
    const bool valid_id = is_digits(account_id);
    return any_part(notation::parse_parts(body), [&](const Part& part) {
        if (part.kind == PartKind::to_all) return true;
        return valid_id && (part.kind == PartKind::mention || part.kind == PartKind::reply) &&
               part.account_id.of(body) == account_id;
    });
}

std::optional<ReplyTarget> reply_target(std::string_view body) {
    for (const notation::Part& part : notation::parse_parts(body)) {
        if (part.kind == notation::PartKind::reply && !part.message_id.empty()) {
            return ReplyTarget{part.account_id.of(body), part.room_id.of(body), part.message_id.of(body)};
        }
    }
    return std::nullopt;
}

std::optional<std::string_view> service_event_key(std::string_view body) {
    const std::vector<notation::Part> parts = notation::parse_parts(body);
    if (parts.empty() || parts.front().kind != notation::PartKind::service_event) return std::nullopt;
    return parts.front().key.of(body);
}

}  // namespace roomkey
