// app.cpp: the App's start, time and effects (app.hpp has the file index).
#include <algorithm>

#include "app/app.hpp"
#include "app/app_detail.hpp"

namespace roomkey::app {

App::App(RandomSource random, std::string origin)
    : random_(std::move(random)),
      origin_(std::move(origin)) {
    features_.dashboard.on_rooms_read([this](Instant now) { features_.mentions.on_room_list_read(now); });
}

void App::start(std::string_view launch_url, const std::optional<std::string>& pending_record, Instant now) {
    fetch_config(now);
    session_.start(launch_url, pending_record, now);
}

void App::tick(Instant now) {
    session_.tick(now);
    features_.posting.run_timers(now);
    helper_.run_probe(now);
    features_.open_room.run_poll(now);
    features_.mentions.run_poll(now);
    if (const auto at = features_.previews.wake_at(); at && now >= *at) features_.previews.resume(now);
    requests_.pump(now);
}

std::optional<Instant> App::next_wake_at(Instant now) const {
    std::optional<Instant> wake = client().next_send_at(now);
    // The refresh due, automatic retries and room checks of posts, and the helper probe.
    for (std::optional<Instant> at : {session_.wake_at(), features_.posting.next_timer(), helper_.next_probe(),
                                      features_.open_room.poll_at(), features_.mentions.poll_at(),
                                      features_.previews.wake_at()}) {
        if (at) wake = wake ? std::min(*wake, *at) : *at;
    }
    return wake;
}

std::vector<Effect> App::take_effects() {
    std::vector<Effect> out;
    if (features_.posting.revision() != stored_posts_) {
        stored_posts_ = features_.posting.revision();
        out.push_back(effect::StorePosts{features_.posting.storage_record()});  // before any Navigate
    }
    out.insert(out.end(), effects_.begin(), effects_.end());
    effects_.clear();
    return out;
}

}  // namespace roomkey::app
