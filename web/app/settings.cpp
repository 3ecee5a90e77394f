// settings.cpp: see settings.hpp.
#include "app/settings.hpp"

#include <nlohmann/json.hpp>

#include "roomkey/json_text.hpp"

namespace roomkey::app {

std::string_view to_string(SendKey key) {
    return key == SendKey::enter ? "enter" : "ctrl_enter";
}

std::string Settings::check(std::string_view name, std::string_view value) {
    if (name == "send_key") {
        const bool ok = value == "enter" || value == "ctrl_enter";
        return ok ? "" : "send_key must be \"enter\" or \"ctrl_enter\"";  // i18n: not shown (page API)
    }
    if (name == "mark_read_on_view") {
        return value == "true" || value == "false"
                   ? ""
                   : "mark_read_on_view must be true or false";  // i18n: not shown (page API)
    }
    const std::string unknown = "unknown setting \"";                          // i18n: not shown (page API)
    return unknown + std::string(name) + "\": send_key or mark_read_on_view";  // i18n: not shown (page API)
}

bool Settings::set(std::string_view name, std::string_view value) {
    if (!check(name, value).empty()) return false;
    if (name == "send_key") {
        send_key_ = value == "enter" ? SendKey::enter : SendKey::ctrl_enter;
    } else {
        mark_read_on_view_ = value == "true";
    }
    ++revision_;
    return true;
}

std::string Settings::stored() const {
    return nlohmann::json{{"send_key", to_string(send_key_)}, {"mark_read_on_view", mark_read_on_view_}}.dump();
}

void Settings::restore(std::string_view stored) {
    const nlohmann::json j = parse_json_text(stored);
    if (!j.is_object()) return;
    if (j.contains("send_key") && j["send_key"].is_string()) set("send_key", j["send_key"].get<std::string>());
    if (j.contains("mark_read_on_view") && j["mark_read_on_view"].is_boolean()) {
        set("mark_read_on_view", j["mark_read_on_view"].get<bool>() ? "true" : "false");
    }
}

}  // namespace roomkey::app
