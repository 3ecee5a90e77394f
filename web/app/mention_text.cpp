// mention_text.cpp: see mention_text.hpp.
#include "app/mention_text.hpp"
#include "app/dtext_words.hpp"
#include "app/i18n.hpp"

#include "roomkey/message_tags.hpp"

namespace roomkey::app {

namespace {

// `text` cut to at most `max` bytes without splitting a UTF-8 character, "…" added when cut.
std::string shortened(std::string text, std::size_t max) {
    if (text.size() <= max) return text;
    std::size_t end = max;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text.resize(end);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
    return text + "\xE2\x80\xA6";
}

}  // namespace

std::optional<std::string> mention_text(const std::vector<ChatMessage>& messages, std::string_view me,
                                        const notation::NameLookup& names) {
    const ChatMessage* newest = nullptr;
    for (const ChatMessage& m : messages) {
        if (!mentions_account(m.body, me)) continue;
        if (!newest || m.send_time >= newest->send_time) newest = &m;
    }
    if (!newest) return std::nullopt;
    const notation::NameLookup lookup = [&](std::string_view id) -> std::string {
        std::string name = names ? names(id) : std::string();
        if (!name.empty()) return name;
        for (const ChatMessage& m : messages) {
            if (m.account.account_id == id && !m.account.name.empty()) return m.account.name;
        }
        return {};
    };
    const std::string who = newest->account.name.empty() ? tr("mentions.unknown") : newest->account.name;
    // One paragraph, one space between words: a notification's lines are few.
    std::string text;
    for (char c : plain_text(notation::parse(newest->body), lookup)) {
        const bool space = c == ' ' || c == '\n' || c == '\t';
        if (space && (text.empty() || text.back() == ' ')) continue;
        text += space ? ' ' : c;
    }
    if (!text.empty() && text.back() == ' ') text.pop_back();
    return shortened(who + ": " + text, kMentionTextMaxBytes);
}

}  // namespace roomkey::app
