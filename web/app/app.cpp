// app.cpp: the App's start, intents dispatch, time and effects, and the
// read-only views (see app.hpp for the file index).
#include <algorithm>
#include <type_traits>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/format.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/launch_url.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"
#include "roomkey/www_authenticate.hpp"

namespace roomkey::app {

using namespace detail;

std::string_view to_string(PostStage stage) {
    switch (stage) {
        case PostStage::waiting:
            return "waiting";
        case PostStage::sending:
            return "sending";
        case PostStage::delivered:
            return "delivered";
        case PostStage::failed:
            return "failed";
        case PostStage::cancelled:
            return "cancelled";
        case PostStage::retrying:
            return "retrying";
        case PostStage::checking:
            return "checking";
        case PostStage::unknown:
            return "unknown";
        case PostStage::refused:
            return "refused";
    }
    return "unknown";
}

bool is_open(PostStage stage) {
    return stage != PostStage::delivered && stage != PostStage::failed && stage != PostStage::cancelled;
}

long App::open_posts() const {
    return static_cast<long>(
        std::count_if(posts_.begin(), posts_.end(), [](const PostJob& job) { return is_open(job.stage); }));
}

// ===========================================================================
// [SECTION] Start, config and intents
// ===========================================================================

App::App(RandomSource random, std::string origin)
    : random_(std::move(random)),
      origin_(std::move(origin)),
      session_(default_session_config()),
      scheduler_(PacingConfig{}) {}  // the spec's limits and shared/'s margins (pacing.hpp)

void App::start(std::string_view launch_url, const std::optional<std::string>& pending_record, Instant now) {
    fetch_config(now);
    const LaunchUrl launch = read_launch_url(launch_url);
    bff_callback_error_ = launch.bff_error;  // shown with the config (app_bff.cpp)
    if (launch.holds != LaunchHolds::authorization_answer) return;

    // The pending record is single use: the platform already removed it from
    // sessionStorage, and validate_callback consumes it whatever the outcome.
    std::optional<PendingAuthorization> pending;
    if (pending_record) {
        auto parsed = parse_pending(*pending_record);
        if (parsed) {
            add_secret(parsed->code_verifier);
            pending = std::move(*parsed);
        }
    }
    // validate_callback consumes the record: keep what the log tells of it.
    std::optional<PendingAuthorization> sent = pending;
    auto validated = validate_callback(launch_url, pending);
    // Told in the HTTP log once the configuration (its consent_url) is here.
    callback_steps_ = ArrivedCallback{std::move(sent), std::string(launch_url),
                                      validated ? std::nullopt : std::optional<CallbackError>(validated.error()), now};
    if (!validated) {
        run_session(session_event::CallbackRejected{validated.error()}, now);
        set_error(callback_error(validated.error()));
        return;
    }
    add_secret(validated->code());
    requested_scopes_ = validated->scopes();
    mode_ = Mode::oauth;
    callback_ = std::move(*validated);
    callback_received_at_ = now;
    notice_ = "Completing sign-in...";
    // The exchange waits for the helper's configuration (its token route).
}

void App::apply(const Intent& intent, Instant now) {
    std::visit(
        [&](const auto& i) {
            using T = std::decay_t<decltype(i)>;
            if constexpr (std::is_same_v<T, intent::SignIn>) {
                sign_in(i.scopes, now);
            } else if constexpr (std::is_same_v<T, intent::SignOut>) {
                const long open = open_posts();
                if (open > 0 && !i.discard_posts) {
                    // Issue 11: posts still open are the user's text: ask first.
                    sign_out_confirm_ = open;
                    return;
                }
                sign_out_confirm_.reset();
                sign_out(now);
                notice_ = open > 0 ? "Signed out: every token was forgotten, and " + std::to_string(open) +
                                         " open post(s) discarded as you asked."
                                   : "Signed out: every token was forgotten.";
            } else if constexpr (std::is_same_v<T, intent::CancelSignOut>) {
                sign_out_confirm_.reset();
            } else if constexpr (std::is_same_v<T, intent::RetryPost>) {
                retry_post(i.id, std::nullopt, now);
            } else if constexpr (std::is_same_v<T, intent::EditPost>) {
                retry_post(i.id, i.body, now);
            } else if constexpr (std::is_same_v<T, intent::DiscardPost>) {
                discard_post(i.id, now);
            } else if constexpr (std::is_same_v<T, intent::FormError>) {
                form_error_ = i.message;
            } else if constexpr (std::is_same_v<T, intent::TryAgain>) {
                last_error_.reset();
                notice_.clear();
                if (mode_ != Mode::api_token) {
                    const SessionState state = session_.state();
                    if (state == SessionState::failed || state == SessionState::expired ||
                        state == SessionState::authorizing) {
                        session_ = Session(session_config(config_ ? config_->client_id : std::string()));
                        mode_ = Mode::none;
                    }
                }
                if (!config_ && !config_loading_) fetch_config(now);
            } else if constexpr (std::is_same_v<T, intent::RefreshNow>) {
                refresh_now(now);
            } else if constexpr (std::is_same_v<T, intent::RefreshScopes>) {
                refresh_with_scopes(i.scopes, now);
            } else if constexpr (std::is_same_v<T, intent::SetAutoRefresh>) {
                auto_refresh_ = i.on;
                // Catch up at once on anything that came due while it was off.
                if (auto_refresh_ && mode_ == Mode::oauth) run_session(session_event::Tick{now}, now);
            } else if constexpr (std::is_same_v<T, intent::UseApiToken>) {
                use_api_token(i.token, now);
            } else if constexpr (std::is_same_v<T, intent::ReloadAccount>) {
                if (!has_pending(CallKind::me)) enqueue(CallKind::me, std::nullopt, now);
                if (!has_pending(CallKind::my_status)) enqueue(CallKind::my_status, std::nullopt, now);
            } else if constexpr (std::is_same_v<T, intent::ReloadRooms>) {
                if (!has_pending(CallKind::rooms)) enqueue(CallKind::rooms, std::nullopt, now);
            } else if constexpr (std::is_same_v<T, intent::SelectRoom>) {
                selected_room_ = i.room_id;
            } else if constexpr (std::is_same_v<T, intent::QueueMessage>) {
                queue_message(i, now);
            } else if constexpr (std::is_same_v<T, intent::QueueTask>) {
                queue_task(i, now);
            } else if constexpr (std::is_same_v<T, intent::CancelQueued>) {
                cancel_queued(now);
            } else if constexpr (std::is_same_v<T, intent::ClearFinishedPosts>) {
                posts_.erase(std::remove_if(posts_.begin(), posts_.end(),
                                            [](const PostJob& job) { return !is_open(job.stage); }),
                             posts_.end());
            } else if constexpr (std::is_same_v<T, intent::SetReveal>) {
                reveal_ = i.on;
            } else if constexpr (std::is_same_v<T, intent::CopyCurl>) {
                copy_curl(i.entry_id, i.may_reveal);
            } else if constexpr (std::is_same_v<T, intent::ClearLog>) {
                log_.clear();
            } else if constexpr (std::is_same_v<T, intent::PageRestored>) {
                page_restored(now);
            } else if constexpr (std::is_same_v<T, intent::ClipboardCleared>) {
                clipboard_clear_refused_ = !i.cleared;
            } else {
                apply_view(i, now);  // issue 10's views (app_rooms.cpp)
            }
        },
        intent);
    pump(now);
}

void App::tick(Instant now) {
    if (refresh_tick_at_ && now >= *refresh_tick_at_ && auto_refresh_ && mode_ == Mode::oauth) {
        refresh_tick_at_.reset();
        run_session(session_event::Tick{now}, now);
    }
    run_post_timers(now);
    run_room_poll(now);
    run_rooms_poll(now);  // issue 27 (app_workspace.cpp)
    pump(now);
}

std::optional<Instant> App::next_wake_at(Instant now) const {
    std::optional<Instant> wake;
    if (can_send()) wake = queue_.next_ready_at(now, scheduler_);
    if (refresh_tick_at_ && auto_refresh_ && mode_ == Mode::oauth) {
        wake = wake ? std::min(*wake, *refresh_tick_at_) : *refresh_tick_at_;
    }
    // Automatic retries and room checks (issue 11), and the helper probe.
    auto earliest = [&](std::optional<Instant> at) {
        if (at) wake = wake ? std::min(*wake, *at) : *at;
    };
    for (const PostJob& job : posts_) {
        if (job.stage == PostStage::retrying || job.stage == PostStage::checking) earliest(job.retry_at);
    }
    if (helper_down_ && !helper_probe_in_flight_) earliest(helper_probe_at_);
    earliest(room_poll_at());
    earliest(rooms_poll_at());
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

std::string App::masked_api_token() const {
    if (api_token_.empty()) return {};
    return std::string(kMask) + " (" + std::to_string(api_token_.size()) + " characters)";
}

std::optional<Instant> App::next_send_at(Instant now) const {
    if (!can_send()) return std::nullopt;
    return queue_.next_ready_at(now, scheduler_);
}

RedactionRules App::redaction() const {
    RedactionRules rules;
    if (config_) rules.api_token_header = config_->token_header;
    rules.known_secrets = secrets_;
    return rules;
}

}  // namespace roomkey::app
