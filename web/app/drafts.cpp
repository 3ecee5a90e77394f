// drafts.cpp: see drafts.hpp.
#include "app/drafts.hpp"

#include <nlohmann/json.hpp>

#include "roomkey/json_text.hpp"

namespace roomkey::app {

const std::string& Drafts::text(const std::string& room_id) const {
    static const std::string none;
    const auto it = texts_.find(room_id);
    return it == texts_.end() ? none : it->second;
}

void Drafts::set(const std::string& room_id, std::string text) {
    if (text == this->text(room_id)) return;
    if (text.empty()) {
        texts_.erase(room_id);
    } else {
        texts_[room_id] = std::move(text);
    }
    ++revision_;
}

void Drafts::restore(std::string account, std::string_view stored) {
    if (!account_.empty() || account.empty()) texts_.clear();
    account_ = std::move(account);
    const nlohmann::json j = parse_json_text(stored);
    if (j.is_object()) {
        for (const auto& [room, text] : j.items()) {
            if (text.is_string() && !text.get<std::string>().empty()) texts_[room] = text.get<std::string>();
        }
    }
    ++revision_;
}

std::string Drafts::stored() const {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [room, text] : texts_) out[room] = text;
    return out.dump();
}

}  // namespace roomkey::app
