// issued_links.cpp: see issued_links.hpp.
#include "helper/issued_links.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "roomkey/url.hpp"

namespace roomkey::helper {

void IssuedLinks::remember_from(std::string_view file_answer, Instant now) {
    const auto body = nlohmann::json::parse(file_answer, nullptr, false);
    if (!body.is_object()) return;
    const auto link = body.find("download_url");
    if (link == body.end() || !link->is_string()) return;
    std::string url = link->get<std::string>();
    const auto parsed = parse_url(url);
    if (!parsed || parsed->scheme != "https") return;
    const std::lock_guard<std::mutex> lock(mutex_);
    while (!links_.empty() && (links_.size() >= kMaxIssuedLinks || now - links_.front().at >= kIssuedLinkLifetime)) {
        links_.pop_front();
    }
    links_.push_back({std::move(url), now});
}

bool IssuedLinks::issued(const std::string& url, Instant now) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return std::any_of(links_.begin(), links_.end(), [&](const Link& l) {
        return l.url == url && now >= l.at && now - l.at < kIssuedLinkLifetime;
    });
}

}  // namespace roomkey::helper
