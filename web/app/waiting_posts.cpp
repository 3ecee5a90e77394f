// waiting_posts.cpp: the record of posts a session left unsent (see waiting_posts.hpp).
#include "app/waiting_posts.hpp"

#include <nlohmann/json.hpp>

#include "roomkey/endpoints.hpp"
#include "roomkey/json_text.hpp"

namespace roomkey::app {



std::string waiting_posts_record(const std::vector<WaitingPost>& posts) {
    nlohmann::json list = nlohmann::json::array();
    for (const WaitingPost& p : posts) {
        list.push_back({{"local_id", p.local_id}, {"room_id", p.room_id}, {"body", p.body}, {"account_id", p.account_id}});
    }
    return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<WaitingPost> read_waiting_posts(std::string_view record) {
    std::vector<WaitingPost> out;
    const nlohmann::json list = parse_json_text(record);
    if (!list.is_array()) return out;
    for (const nlohmann::json& item : list) {
        if (!item.is_object()) continue;
        WaitingPost p;
        auto text = [&](const char* name, std::string& to) {
            if (!item.contains(name) || !item[name].is_string()) return false;
            to = item[name].get<std::string>();
            return true;
        };
        if (!text("local_id", p.local_id) || !text("room_id", p.room_id) || !text("body", p.body) ||
            !text("account_id", p.account_id) || p.local_id.empty() || p.body.empty() || !is_resource_id(p.room_id))
            continue;
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace roomkey::app
