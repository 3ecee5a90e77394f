// composer.cpp: writing the notation, checked by reading it back (see composer.hpp).
#include "roomkey/composer.hpp"

#include <vector>

#include "roomkey/notation.hpp"

namespace roomkey::composer {

namespace composer_detail {
namespace {

bool digits_only(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

std::string one_line(std::string_view name) {
    std::string out(name);
    for (char& c : out) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return out;
}

// The first part of `written`, when it is of `kind` and its inner range holds exactly `inner`.
const notation::Part* first_part_holding(const std::vector<notation::Part>& parts, std::string_view written,
                                         notation::PartKind kind, std::string_view inner) {
    if (parts.empty() || parts[0].kind != kind || parts[0].inner.of(written) != inner) return nullptr;
    return &parts[0];
}

}  // namespace
}  // namespace composer_detail

std::optional<std::string> mention(std::string_view account_id, std::string_view name) {
    if (!composer_detail::digits_only(account_id)) return std::nullopt;
    return "[To:" + std::string(account_id) + "]" + composer_detail::one_line(name);
}

std::optional<std::string> reply(std::string_view account_id, std::string_view room_id, std::string_view message_id,
                                 std::string_view name) {
    using composer_detail::digits_only;
    if (!digits_only(account_id) || !digits_only(room_id) || !digits_only(message_id)) return std::nullopt;
    return "[rp aid=" + std::string(account_id) + " to=" + std::string(room_id) + "-" + std::string(message_id) + "]" +
           composer_detail::one_line(name) + "\n";
}

std::optional<std::string> quote(std::string_view account_id, std::int64_t time, std::string_view text) {
    if (!composer_detail::digits_only(account_id) || time < 0) return std::nullopt;
    std::string written = "[qt][qtmeta aid=" + std::string(account_id) + " time=" + std::to_string(time) + "]" +
                          std::string(text) + "[/qt]";
    const auto parts = notation::parse_parts(written);
    const notation::Part* part = composer_detail::first_part_holding(parts, written, notation::PartKind::quote, text);
    if (!part || part->source.end != written.size()) return std::nullopt;
    return written + "\n";
}

std::optional<std::string> info_box(std::string_view title, std::string_view body) {
    std::string written = "[info]";
    if (!title.empty()) written += "[title]" + std::string(title) + "[/title]";
    written += std::string(body) + "[/info]";
    const auto parts = notation::parse_parts(written);
    const notation::Part* part = composer_detail::first_part_holding(parts, written, notation::PartKind::info, body);
    if (!part || parts.size() != 1 || part->name.of(written) != title) return std::nullopt;
    return written;
}

std::optional<std::string> code_block(std::string_view text) {
    std::string written = "[code]" + std::string(text) + "[/code]";
    const auto parts = notation::parse_parts(written);
    if (parts.size() != 1 || !composer_detail::first_part_holding(parts, written, notation::PartKind::code, text)) {
        return std::nullopt;
    }
    return written;
}

}  // namespace roomkey::composer
