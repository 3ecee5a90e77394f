// app.cpp: the App's start, intents dispatch, time and effects, and the
// read-only views (see app.hpp for the file index).
#include <algorithm>
#include <type_traits>

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

void App::apply(const Intent& intent, Instant now) {
    std::visit(
        [&](const auto& i) {
            using T = std::decay_t<decltype(i)>;
            if constexpr (std::is_same_v<T, intent::SignIn>) {
                start_sign_in(i.scopes, now);
            } else if constexpr (std::is_same_v<T, intent::SignOut>) {
                const long open = features_.posting.open_posts();
                if (open > 0 && !i.discard_posts) {
                    // Posts still open are the user's text, not yet anywhere else: ask first.
                    feedback_.sign_out_confirm = open;
                    return;
                }
                feedback_.sign_out_confirm.reset();
                sign_out(now);
                feedback_.notice = open > 0 ? "Signed out: every token was forgotten, and " + std::to_string(open) +
                                                  " open post(s) discarded as you asked."
                                            : "Signed out: every token was forgotten.";
            } else if constexpr (std::is_same_v<T, intent::CancelSignOut>) {
                feedback_.sign_out_confirm.reset();
            } else if constexpr (std::is_same_v<T, intent::RetryPost>) {
                features_.posting.retry(i.id, std::nullopt, now);
            } else if constexpr (std::is_same_v<T, intent::EditPost>) {
                features_.posting.retry(i.id, i.body, now);
            } else if constexpr (std::is_same_v<T, intent::DiscardPost>) {
                features_.posting.discard(i.id);
            } else if constexpr (std::is_same_v<T, intent::FormError>) {
                feedback_.form_error = i.message;
            } else if constexpr (std::is_same_v<T, intent::TryAgain>) {
                feedback_.error.reset();
                feedback_.notice.clear();
                sign_in_.try_again();
                if (!config_load_.value && !config_load_.loading) fetch_config(now);
            } else if constexpr (std::is_same_v<T, intent::RefreshNow>) {
                // In BFF mode the helper refreshes (POST /bff/refresh).
                if (holder() == CredentialHolder::helper)
                    bff_.refresh(std::nullopt, now);
                else
                    sign_in_.refresh_now(now);
            } else if constexpr (std::is_same_v<T, intent::RefreshScopes>) {
                if (holder() == CredentialHolder::helper)
                    bff_.refresh(i.scopes, now);  // POST /bff/refresh {"scope": ...}
                else
                    sign_in_.refresh_with_scopes(i.scopes, now);
            } else if constexpr (std::is_same_v<T, intent::SetAutoRefresh>) {
                sign_in_.set_auto_refresh(i.on, now);
            } else if constexpr (std::is_same_v<T, intent::UseApiToken>) {
                sign_in_.use_api_token(i.token, now);
            } else if constexpr (std::is_same_v<T, intent::ReloadAccount>) {
                features_.dashboard.reload_account(now);
            } else if constexpr (std::is_same_v<T, intent::ReloadRooms>) {
                features_.dashboard.reload_rooms(now);
            } else if constexpr (std::is_same_v<T, intent::SelectRoom>) {
                features_.dashboard.select_room(i.room_id);
            } else if constexpr (std::is_same_v<T, intent::QueueMessage>) {
                features_.posting.queue_message(i, now);
            } else if constexpr (std::is_same_v<T, intent::QueueTask>) {
                features_.posting.queue_task(i, now);
            } else if constexpr (std::is_same_v<T, intent::CancelQueued>) {
                features_.posting.cancel_queued();
            } else if constexpr (std::is_same_v<T, intent::ClearFinishedPosts>) {
                features_.posting.clear_finished();
            } else if constexpr (std::is_same_v<T, intent::SetReveal>) {
                trace_.set_reveal(i.on);
            } else if constexpr (std::is_same_v<T, intent::CopyCurl>) {
                copy_curl(i.entry_id, i.may_reveal);
            } else if constexpr (std::is_same_v<T, intent::ClearLog>) {
                trace_.log().clear();
            } else if constexpr (std::is_same_v<T, intent::PageRestored>) {
                page_restored(now);
            } else if constexpr (std::is_same_v<T, intent::ClipboardCleared>) {
                trace_.clipboard_cleared(i.cleared);
            } else {
                apply_feature(intent, now);  // the features' own intents (app_features.cpp)
            }
        },
        intent);
    pump(now);
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
    out.swap(effects_);
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
