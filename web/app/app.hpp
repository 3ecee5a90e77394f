// app.hpp: the browser app as pure C++ (no emscripten, no ImGui), so it runs
// natively and under Node in the unit tests. App is the router: it keeps the
// configuration and the effects web/src performs (effects.hpp), hands each
// intent to its owner and each answer to the owner of its purpose (wire.hpp).
// The owners, file by file: docs/architecture.md.
//   app.cpp          start, tick/next_wake_at, effects
//   app_intents.cpp  every intent to its owner, found by overload
//   app_http.cpp     sends through the helper and their answers, by purpose
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/config_load.hpp"
#include "app/copies.hpp"
#include "app/features.hpp"
#include "app/feedback.hpp"
#include "app/helper_watch.hpp"
#include "app/intents.hpp"
#include "app/requests.hpp"
#include "app/session_control.hpp"
#include "app/view_answer.hpp"
#include "app/wire.hpp"

namespace roomkey::app {

class App final {
public:
    // `origin` is the page's origin ("https://127.0.0.1:8443"), for curl.
    App(RandomSource random, std::string origin);

    // The page loaded at `launch_url` (before code/state were removed from the
    // address bar); `pending_record` is what sessionStorage held, already
    // removed from it. Asks the helper for its configuration and, when the URL
    // is an authorization callback, validates it at once (spec 4.2).
    void start(std::string_view launch_url, const std::optional<std::string>& pending_record, Instant now);

    void apply(const Intent& intent, Instant now);
    // The posts the tab's storage kept (effect::StorePosts), read at load.
    void restore_posts(std::string_view record) { features_.posting.restore_waiting(read_waiting_posts(record)); }
    void on_response(std::uint64_t id, const HttpResponse& response, Instant now);
    void on_transport_error(std::uint64_t id, const std::string& reason, Instant now) {
        on_transport_error(id, TransportFailure::network_error, reason, now);
    }
    // The same, typed: only a post whose failure says "not sent" may go again
    // by itself (post_outcome.hpp); the string overload means network_error.
    void on_transport_error(std::uint64_t id, TransportFailure failure, const std::string& reason, Instant now);
    // An upload's body went out up to `sent` of `total` bytes (an
    // effect::Send with upload_progress); room.upload shows it.
    void on_upload_progress(std::uint64_t id, std::int64_t sent, std::int64_t total) {
        if (auto tag = wire_.rest_tag(id)) features_.open_room.on_upload_progress(*tag, sent, total);
    }
    // Call often (every frame): delivers refresh ticks and sends paced requests.
    void tick(Instant now);
    // When tick() next has work (a paced request may go, a refresh is due):
    // the platform sets a timer for it, so a background tab, where frames
    // stop, still sends and refreshes. nullopt when nothing waits for time.
    std::optional<Instant> next_wake_at(Instant now) const;
    std::vector<Effect> take_effects();

    // ---- read-only view for the UI and the page API ----
    const std::optional<PublicConfig>& config() const { return config_.value(); }
    const std::string& config_error() const { return config_.error(); }
    bool config_loading() const { return config_.loading(); }
    // Who holds the credentials: the page's session, an API token, roomkey-helper (BFF), or nobody.
    CredentialHolder holder() const { return client().holder(); }
    const Session& session() const { return client().session(); }
    // The page's own sign-in, the API token and the scopes asked for (sign_in.hpp).
    const SignIn& sign_in() const { return session_.sign_in(); }
    // The helper's session as /bff/session last told it, and what is on its way.
    const BffPanel& bff() const { return session_.bff(); }
    // The session as the panels and the page API show it, whoever holds it.
    SessionShown session_shown() const { return session_.shown(); }
    // An OAuth grant is in use, held by the page or by the helper.
    bool oauth_grant() const { return session_.oauth_grant(); }

    // ---- the features, each with its own state ----
    const Dashboard& dashboard() const { return features_.dashboard; }
    const OpenRoom& open_room() const { return features_.open_room; }
    const MyTasks& my_tasks() const { return features_.my_tasks; }
    const Contacts& contacts() const { return features_.contacts; }
    const ApiConsole& api_console() const { return features_.console; }
    const Posting& posting() const { return features_.posting; }
    // The room list read again for mentions (its poll_at: nullopt when not polling, e.g. hidden tab).
    const Mentions& mentions() const { return features_.mentions; }
    const FilePreviews& previews() const { return features_.previews; }
    // Image previews to fetch (web/src/file_images.cpp), and its answers: a
    // direct call each, as on_upload_progress (not an Intent or an Effect:
    // neither variant grows).
    std::vector<effect::LoadImage> take_image_loads() { return features_.previews.take_loads(); }
    void preview_loaded(const std::string& file_id, bool ok, bool freed, int width, int height, Instant now) {
        features_.previews.loaded(file_id, ok, freed, width, height, now);
    }
    // When the next waiting request may go (for the "next post in" display).
    std::optional<Instant> next_send_at(Instant now) const { return client().next_send_at(now); }
    const PacingScheduler& scheduler() const { return client().scheduler(); }
    const std::vector<RateSample>& rate_samples() const { return requests_.stats().rate_samples; }
    const Counters& counters() const { return requests_.stats().counters; }

    // ---- the HTTP log and its copies (copies.hpp) ----
    const HttpLog& log() const { return trace_.log(); }
    bool reveal() const { return trace_.reveal(); }
    const Trace& trace() const { return trace_; }
    std::optional<std::string> curl_text(std::uint64_t entry_id, bool may_reveal) const {
        return copies_.curl_text(entry_id, may_reveal);
    }
    std::string text_as(std::optional<std::uint64_t> entry_id, SnippetFormat format, bool may_reveal) const {
        return copies_.text_as(entry_id, format, may_reveal);
    }
    SnippetTarget snippet_target() const { return copies_.snippet_target(); }
    PlannedCall planned_console_call() const { return copies_.planned_console_call(); }
    RedactionRules redaction() const { return copies_.redaction(); }
    const std::string& origin() const { return origin_; }
    // Sign-out could not overwrite the system clipboard (the engine wants a
    // recent click or key press): what to tell the user, "" when nothing waits.
    std::string clipboard_notice() const { return trace_.clipboard_notice(); }

    // ---- what the user is told (feedback.hpp) ----
    const std::optional<UserError>& last_error() const { return feedback_.error(); }
    const Feedback& feedback() const { return feedback_; }
    const std::string& form_error() const { return feedback_.form_error(); }
    std::string notice() const { return feedback_.notice(); }
    std::optional<long> sign_out_confirm() const { return feedback_.sign_out_confirm(); }
    // roomkey-helper gave no answer at all: REST calls wait while the app
    // probes it (GET /config.json) with backoff.
    bool helper_unreachable() const { return helper_.down(); }
    std::optional<Instant> helper_probe_at() const { return helper_.probe_at(); }

    // ---- the workspace ----
    bool page_visible() const { return features_.page_visible; }
    const Workspace& workspace() const { return features_.workspace; }
    const MessageMenu& message_menu() const { return features_.message_menu; }
    // The browser's offset of local time from UTC, for times as drawn.
    void set_user_time(UserTime user) { features_.workspace.set_user_time(std::move(user)); }
    std::vector<MentionAlert> take_alerts() { return features_.workspace.take_alerts(); }

private:
    void send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now);
    void fetch_config(Instant now) { send(purpose::ConfigFetch{}, tr("log.purpose.config"), config_.begin(), now); }
    void on_config(const HttpResponse& response, Instant now);
    void deliver(const HttpPurpose& purpose, const std::optional<HttpResponse>& response,
                 std::optional<TransportFailure> failure, const std::string& reason, Instant now);
    void told(std::optional<Told> told);
    const RestClient& client() const { return requests_.client(); }

    RandomSource random_;
    std::string origin_;
    std::vector<Effect> effects_;
    unsigned stored_posts_ = 0;  // the posting feature's revision last kept in storage
    ConfigLoad config_;          // roomkey-helper's /config.json
    Trace trace_;                  // the HTTP log and what may be disclosed from it
    Wire wire_{trace_, effects_};  // every send's purpose, every request's owner
    Feedback feedback_;
    HelperWatch helper_{wire_, config_, feedback_};  // no answer from the helper: REST waits, it is probed
    Requests requests_{session_, wire_, config_, feedback_, helper_, effects_};  // the one REST client, the counters
    Features features_{requests_, random_};
    SessionControl session_{{config_, wire_, trace_, feedback_, requests_, features_, effects_}, random_};
    Copies copies_{trace_, origin_, config_, features_.console};
};

}  // namespace roomkey::app
