// member_completion.cpp: see member_completion.hpp.
#include "app/member_completion.hpp"

#include "roomkey/ascii.hpp"
#include "roomkey/composer.hpp"

namespace roomkey::app {

namespace {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\n';
}

bool matches(const RoomMember& m, std::string_view query) {
    if (query.empty() || istarts_with(m.account_id, query)) return true;
    for (std::size_t i = 0; i < m.name.size(); ++i) {
        if ((i == 0 || space(m.name[i - 1])) && istarts_with(std::string_view(m.name).substr(i), query)) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::optional<MentionQuery> mention_query(std::string_view text, std::size_t caret) {
    if (caret > text.size()) return std::nullopt;
    constexpr std::size_t kLongest = 40;  // bytes: longer is not a name being typed
    for (std::size_t i = caret; i-- > 0 && caret - i <= kLongest;) {
        if (space(text[i])) return std::nullopt;
        if (text[i] != '@') continue;
        if (i > 0 && !space(text[i - 1])) return std::nullopt;
        return MentionQuery{i, std::string(text.substr(i + 1, caret - i - 1))};
    }
    return std::nullopt;
}

std::vector<const RoomMember*> matching_members(const std::vector<RoomMember>& members, std::string_view query,
                                                std::size_t most) {
    std::vector<const RoomMember*> out;
    for (const RoomMember& m : members) {
        if (out.size() >= most) break;
        if (matches(m, query)) out.push_back(&m);
    }
    return out;
}

Edited complete_mention(std::string_view text, std::size_t caret, const MentionQuery& q, const RoomMember& member) {
    std::string tag = composer::mention(member.account_id, member.name).value_or("");
    tag += q.at == 0 || text[q.at - 1] == '\n' ? '\n' : ' ';
    Edited out;
    out.text = std::string(text.substr(0, q.at)) + tag;
    out.caret = out.text.size();
    out.text += text.substr(caret);
    return out;
}

}  // namespace roomkey::app
