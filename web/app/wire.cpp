// wire.cpp: sends, their purposes and the routes of REST answers (wire.hpp).
#include "app/wire.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {

std::uint64_t Wire::send(HttpPurpose purpose, std::string label, HttpRequest request, std::string_view request_header,
                         Instant now, bool upload_progress) {
    const std::uint64_t id = next_http_id_++;
    request.headers.set(std::string(request_header), "1");
    http_[id] = std::move(purpose);
    const auto type = request.headers.get("content-type");
    if (type && type->rfind("multipart/", 0) == 0) {
        // A file upload: the log keeps what was sent, not megabytes of it.
        HttpRequest shown = request;
        shown.body = tr("log.multipart_body", {{"bytes", std::to_string(request.body.size())}});
        trace_.log().begin(id, std::move(label), shown, now);
    } else {
        trace_.log().begin(id, std::move(label), request, now);
    }
    effects_.push_back(effect::Send{id, std::move(request), upload_progress});
    return id;
}

std::optional<HttpPurpose> Wire::take(std::uint64_t id) {
    auto it = http_.find(id);
    if (it == http_.end()) return std::nullopt;
    HttpPurpose purpose = std::move(it->second);
    http_.erase(it);
    return purpose;
}

std::optional<RequestTag> Wire::rest_tag(std::uint64_t id) const {
    const auto it = http_.find(id);
    if (it == http_.end()) return std::nullopt;
    if (const auto* rest = std::get_if<purpose::RestCall>(&it->second)) return rest->tag;
    return std::nullopt;
}

Wire::Route* Wire::route(RequestTag tag) {
    const auto it = routes_.find(tag);
    return it == routes_.end() ? nullptr : &it->second;
}

Feature* Wire::owner_of_end(RequestTag tag, Answer& answer, bool keep) {
    const auto it = routes_.find(tag);
    if (it == routes_.end()) return nullptr;  // dropped (signed out) meanwhile
    Feature* owner = it->second.owner;
    if (!answer.response) answer.failure = it->second.failure;
    if (!keep) routes_.erase(it);
    return owner;
}

}  // namespace roomkey::app
