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
    bff_.callback_error = launch.bff_error;  // shown with the config (app_bff.cpp)
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
    sign_in_.steps = ArrivedCallback{std::move(sent), std::string(launch_url),
                                     validated ? std::nullopt : std::optional<CallbackError>(validated.error()), now};
    if (!validated) {
        perform(client_.callback_rejected(validated.error()), now);
        set_error(callback_error(validated.error()));
        return;
    }
    add_secret(validated->code());
    sign_in_.requested_scopes = validated->scopes();
    client_.expect_callback();  // the page's session exchanges the code once the config is here
    sign_in_.callback = std::move(*validated);
    sign_in_.callback_at = now;
    feedback_.notice = "Completing sign-in...";
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
                if (holder() != CredentialHolder::api_token) {
                    const SessionState state = session().state();
                    if (state == SessionState::failed || state == SessionState::expired ||
                        state == SessionState::authorizing) {
                        client_.reset_session(
                            session_config(config_load_.value ? config_load_.value->client_id : std::string()));
                    }
                }
                if (!config_load_.value && !config_load_.loading) fetch_config(now);
            } else if constexpr (std::is_same_v<T, intent::RefreshNow>) {
                refresh_now(now);
            } else if constexpr (std::is_same_v<T, intent::RefreshScopes>) {
                refresh_with_scopes(i.scopes, now);
            } else if constexpr (std::is_same_v<T, intent::SetAutoRefresh>) {
                sign_in_.auto_refresh = i.on;
                // Catch up at once on anything that came due while it was off.
                if (sign_in_.auto_refresh && holder() == CredentialHolder::page_session)
                    perform(client_.tick(now), now);
            } else if constexpr (std::is_same_v<T, intent::UseApiToken>) {
                use_api_token(i.token, now);
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
                trace_.reveal = i.on;
            } else if constexpr (std::is_same_v<T, intent::CopyCurl>) {
                copy_curl(i.entry_id, i.may_reveal);
            } else if constexpr (std::is_same_v<T, intent::ClearLog>) {
                trace_.log.clear();
            } else if constexpr (std::is_same_v<T, intent::PageRestored>) {
                page_restored(now);
            } else if constexpr (std::is_same_v<T, intent::ClipboardCleared>) {
                trace_.clear_refused = !i.cleared;
            } else {
                apply_feature(intent, now);  // the features' own intents (app_features.cpp)
            }
        },
        intent);
    pump(now);
}

void App::tick(Instant now) {
    if (sign_in_.refresh_tick_at && now >= *sign_in_.refresh_tick_at && sign_in_.auto_refresh &&
        holder() == CredentialHolder::page_session) {
        sign_in_.refresh_tick_at.reset();
        perform(client_.tick(now), now);
    }
    features_.posting.run_timers(now);
    if (helper_.probe_due(now)) probe_helper(now);
    features_.open_room.run_poll(now);
    features_.mentions.run_poll(now);
    pump(now);
}

std::optional<Instant> App::next_wake_at(Instant now) const {
    std::optional<Instant> wake;
    wake = client_.next_send_at(now);
    if (sign_in_.refresh_tick_at && sign_in_.auto_refresh && holder() == CredentialHolder::page_session) {
        wake = wake ? std::min(*wake, *sign_in_.refresh_tick_at) : *sign_in_.refresh_tick_at;
    }
    // Automatic retries and room checks of posts, and the helper probe.
    auto earliest = [&](std::optional<Instant> at) {
        if (at) wake = wake ? std::min(*wake, *at) : *at;
    };
    earliest(features_.posting.next_timer());
    earliest(helper_.next_probe());
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
    if (sign_in_.api_token.empty()) return {};
    return std::string(kMask) + " (" + std::to_string(sign_in_.api_token.size()) + " characters)";
}

std::optional<Instant> App::next_send_at(Instant now) const {
    return client_.next_send_at(now);
}

RedactionRules App::redaction() const {
    RedactionRules rules;
    if (config_load_.value) rules.api_token_header = config_load_.value->token_header;
    rules.known_secrets = trace_.secrets;
    return rules;
}

}  // namespace roomkey::app
