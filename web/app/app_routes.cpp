// app_routes.cpp: the App as the features' host: a feature's request goes
// to the one REST client under a tag, and its answer comes back to that
// feature by the tag (wire_.routes), never through a switch on what it was.
#include "app/app.hpp"

namespace roomkey::app {

RequestTag App::submit(Feature& owner, Outgoing outgoing, Instant now, RequestTag tag) {
    if (tag == 0) tag = new_tag();
    if (!outgoing.request) {
        owner.on_answer(tag, Answer{std::nullopt, outgoing.request.error(), {}}, now);
        return tag;
    }
    wire_.routes[tag] = Route{&owner, std::move(outgoing.label), outgoing.upload_progress, std::nullopt};
    perform(client_.submit(tag, std::move(*outgoing.request), std::move(outgoing.options)), now);
    return tag;
}

void App::release(RequestTag tag) {
    client_.release(tag);
    wire_.routes.erase(tag);
}

bool App::cancel(RequestTag tag) {
    if (!client_.cancel(tag)) return false;
    wire_.routes.erase(tag);
    return true;
}

void App::deliver(RequestTag tag, Answer answer, Instant now) {
    const auto route = wire_.routes.find(tag);
    if (route == wire_.routes.end()) return;  // dropped (signed out) meanwhile
    Feature* owner = route->second.owner;
    if (!answer.response) answer.failure = route->second.failure;
    // A request the client keeps (its room's turn) keeps its route until released.
    if (!client_.pending(tag)) wire_.routes.erase(route);
    owner->on_answer(tag, answer, now);
}

// An upload's body went out so far: its owner shows the progress.
void App::on_upload_progress(std::uint64_t id, std::int64_t sent, std::int64_t total) {
    const auto http = wire_.http.find(id);
    if (http == wire_.http.end()) return;
    if (const auto* rest = std::get_if<RestCall>(&http->second))
        features_.open_room.on_upload_progress(rest->id, sent, total);
}

}  // namespace roomkey::app
