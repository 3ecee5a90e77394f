// http.cpp: header-field bookkeeping for the HTTP value types.
#include "roomkey/http.hpp"

#include <algorithm>

namespace roomkey {

std::string_view to_string(Method method) {
    switch (method) {
        case Method::Get: return "GET";
        case Method::Post: return "POST";
        case Method::Put: return "PUT";
        case Method::Delete: return "DELETE";
    }
    return "GET";
}

bool is_form_content_type(const std::optional<std::string>& content_type) {
    if (!content_type) return false;
    std::string_view media = *content_type;
    media = media.substr(0, media.find(';'));
    while (!media.empty() && (media.front() == ' ' || media.front() == '\t')) media.remove_prefix(1);
    while (!media.empty() && (media.back() == ' ' || media.back() == '\t')) media.remove_suffix(1);
    return iequals(media, kFormContentType);
}

bool has_form_content_type(const Headers& headers) {
    return is_form_content_type(headers.get("Content-Type"));
}

Headers::Headers(std::initializer_list<Field> fields) : fields_(fields) {}

void Headers::set(std::string name, std::string value) {
    remove(name);
    fields_.emplace_back(std::move(name), std::move(value));
}

void Headers::add(std::string name, std::string value) { fields_.emplace_back(std::move(name), std::move(value)); }

void Headers::remove(std::string_view name) {
    fields_.erase(std::remove_if(fields_.begin(), fields_.end(),
                                 [&](const Field& f) { return iequals(f.first, name); }),
                  fields_.end());
}

std::optional<std::string> Headers::get(std::string_view name) const {
    for (const auto& f : fields_) {
        if (iequals(f.first, name)) return f.second;
    }
    return std::nullopt;
}

bool Headers::has(std::string_view name) const { return get(name).has_value(); }

}  // namespace roomkey
