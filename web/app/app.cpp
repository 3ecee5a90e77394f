// app.cpp: the App's start, time and effects, and the read-only views (see app.hpp for the file index).
#include <algorithm>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "roomkey/launch_url.hpp"

namespace roomkey::app {

using namespace detail;

// ===========================================================================
// [SECTION] Start, config and intents
// ===========================================================================

App::App(RandomSource random, std::string origin)
    : random_(std::move(random)),
      origin_(std::move(origin)),
      // The spec's limits and shared/'s margins (pacing.hpp).
      client_(default_session_config(), PacingConfig{}) {
    features_.dashboard.on_rooms_read([this](Instant now) { features_.mentions.on_room_list_read(now); });
}

void App::start(std::string_view launch_url, const std::optional<std::string>& pending_record, Instant now) {
    fetch_config(now);
    const LaunchUrl launch = read_launch_url(launch_url);
    bff_.on_launch(launch);  // a #bff_error is shown with the config
    sign_in_.on_launch(launch_url, launch, pending_record, now);
}

void App::tick(Instant now) {
    sign_in_.tick(now);
    features_.posting.run_timers(now);
    if (helper_.probe_due(now)) probe_helper(now);
    features_.open_room.run_poll(now);
    features_.mentions.run_poll(now);
    pump(now);
}

std::optional<Instant> App::next_wake_at(Instant now) const {
    std::optional<Instant> wake = client_.next_send_at(now);
    // The refresh due, automatic retries and room checks of posts, and the helper probe.
    auto earliest = [&](std::optional<Instant> at) {
        if (at) wake = wake ? std::min(*wake, *at) : *at;
    };
    earliest(sign_in_.wake_at());
    earliest(features_.posting.next_timer());
    earliest(helper_.next_probe());
    earliest(features_.open_room.poll_at());
    earliest(features_.mentions.poll_at());
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

// ===========================================================================
// [SECTION] Views
// ===========================================================================

std::optional<Instant> App::next_send_at(Instant now) const {
    return client_.next_send_at(now);
}

RedactionRules App::redaction() const {
    return trace_.redaction(config_load_.value ? std::string_view(config_load_.value->token_header)
                                               : kDefaultApiTokenHeader);
}

}  // namespace roomkey::app
