// app.hpp: the browser app as pure C++ (no emscripten, no ImGui), so it
// runs natively and under Node in the unit tests. App is the router: it
// keeps the configuration and the effects web/src performs (effects.hpp:
// requests to send, a page to navigate to, a record to keep in
// sessionStorage, text for the clipboard), hands every REST request to the
// one REST client (shared/rest_client.hpp: who holds the credentials, the
// session table, pacing, each room's post order, 401 retry, 429 waits) and
// routes each answer by its tag to the feature that asked. Every protocol
// decision is shared/'s.
//
// Tokens live in the REST client, in memory only; the only thing that
// leaves for storage is the single-use PendingAuthorization (state +
// code_verifier) while the browser is at the consent screen. A reload
// therefore asks to sign in again. In roomkey-helper's BFF mode ("session":
// "bff" in /config.json) the page holds no token at all: the helper runs the
// flow and keeps the tokens in an HttpOnly cookie, the page asks
// /bff/session who is signed in, so a reload keeps the session (bff_panel.hpp,
// bff_session.hpp).
//
// The sign-in (sign_in.hpp: the page's own OAuth flow, the API token, the
// scopes asked for) and the BFF panel (bff_panel.hpp: the helper's session)
// own the session's side of the App; trace.hpp the HTTP log and what may be
// disclosed from it. The features (features.hpp), each
// owning its state, intents, requests and answers: dashboard.hpp, posting.hpp (with recovery), open_room.hpp (with
// files), my_tasks.hpp, contacts.hpp, api_console.hpp, mentions.hpp, and
// workspace.hpp's state. Where the App's own code lives:
//   app.cpp          start, tick/next_wake_at, effects
//   app_intents.cpp  every intent to its owner (apply), one line each
//   app_routes.cpp   the features' host: submit by tag, answers back by tag
//   app_rest.cpp     what a REST client step says: token requests, sends, answers
//   app_http.cpp     send() through the helper, /config.json, copy as curl; answers by purpose
//   app_session.cpp  sign-out, a page restored, secrets to mask, the session as shown
//   app_helper.cpp   roomkey-helper unreachable: the probe
//   app_detail.hpp   constants and helpers those files share (internal)
//
// How a new feature is added, so that several people can work in parallel
// without editing the same lines:
//   1. web/app/<feature>.{hpp,cpp}: a Feature (feature.hpp) with its own
//      state, its intents, the requests it submits through the FeatureHost
//      (built once, without credentials) and its answers (on_answer by tag).
//      Pure C++, no ImGui, no emscripten; tested natively.
//   2. Features (features.hpp) holds one instance; one line in
//      app_intents.cpp forwards each of its intents; one accessor for the UI.
//   3. web/src/ui_<view>.cpp draws it from the read-only App and returns
//      intents; ui.cpp places the panel in the layout (one line).
//   4. Its page API names go in page_state.cpp / intents.cpp exactly as the
//      issue spells them.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/bff_panel.hpp"
#include "app/console.hpp"
#include "app/effects.hpp"
#include "app/feature.hpp"
#include "app/features.hpp"
#include "app/flow_steps.hpp"
#include "app/helper_watch.hpp"
#include "app/http_log.hpp"
#include "app/intents.hpp"
#include "app/post_outcome.hpp"
#include "app/room_view.hpp"
#include "app/scope_refresh.hpp"
#include "app/session_shown.hpp"
#include "app/sign_in.hpp"
#include "app/trace.hpp"
#include "app/user_errors.hpp"
#include "app/view_answer.hpp"
#include "app/workspace.hpp"
#include "roomkey/api.hpp"
#include "roomkey/api_records.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/file_upload.hpp"
#include "roomkey/http.hpp"
#include "roomkey/pacing.hpp"
#include "roomkey/public_config.hpp"
#include "roomkey/random.hpp"
#include "roomkey/rest_client.hpp"
#include "roomkey/session.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

// One x-ratelimit-* reading, for the plot (spec 8.1).
struct RateSample {
    Instant at;
    long remaining = 0;
    long limit = 0;
};

// Counters the page API exposes (tests read them) and the UI shows.
struct Counters {
    long requests_sent = 0;      // REST requests handed to the transport
    long responses_429 = 0;      // REST answers with status 429
    long token_refreshes = 0;    // successful refreshes
    long retries_after_401 = 0;  // REST requests retried after invalid_token (spec 5.2.2)
};

inline constexpr std::size_t kMaxRateSamples = 240;

class App final : private FeatureHost, private BffHost {
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
    void on_transport_error(std::uint64_t id, const std::string& reason, Instant now);
    // The same, typed: only a post whose failure says "not sent" may go again
    // by itself (post_outcome.hpp); the string overload means network_error.
    void on_transport_error(std::uint64_t id, TransportFailure failure, const std::string& reason, Instant now);
    // An upload's request body went out up to `sent` of `total` bytes (the
    // platform's XMLHttpRequest upload progress, for an effect::Send with
    // upload_progress); room.upload shows it.
    void on_upload_progress(std::uint64_t id, std::int64_t sent, std::int64_t total);
    // Call often (every frame): delivers refresh ticks and sends paced requests.
    void tick(Instant now);
    // When tick() next has work (a paced request may go, a refresh is due):
    // the platform sets a timer for it, so a background tab, where frames
    // stop, still sends and refreshes. nullopt when nothing waits for time.
    std::optional<Instant> next_wake_at(Instant now) const;
    std::vector<Effect> take_effects();

    // ---- read-only view for the UI and the page API ----
    const std::optional<PublicConfig>& config() const override { return config_load_.value; }
    const std::string& config_error() const override { return config_load_.error; }
    bool config_loading() const { return config_load_.loading; }
    // Who holds the credentials: the page's session, an API token, roomkey-helper (BFF), or nobody.
    CredentialHolder holder() const { return client_.holder(); }
    const Session& session() const { return client_.session(); }
    // The page's own sign-in, the API token and the scopes asked for (sign_in.hpp).
    const SignIn& sign_in() const { return sign_in_; }
    // ---- the BFF mode and the session as shown (bff_panel.hpp) ----
    // The helper's session as /bff/session last told it, and what is on its way.
    const BffPanel& bff() const { return bff_; }
    // The session as the panels and the page API show it, whoever holds it.
    SessionShown session_shown() const { return SessionShown(client_, sign_in_, bff_); }
    // An OAuth grant is in use, held by the page or by the helper.
    bool oauth_grant() const {
        return holder() == CredentialHolder::page_session || holder() == CredentialHolder::helper;
    }

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
    std::optional<Instant> next_send_at(Instant now) const;
    const PacingScheduler& scheduler() const override { return client_.scheduler(); }
    const std::vector<RateSample>& rate_samples() const { return stats_.rate_samples; }

    const HttpLog& log() const { return trace_.log(); }
    bool reveal() const { return trace_.reveal(); }
    const Trace& trace() const { return trace_; }
    // What "Copy as curl" of log entry `entry_id` copies (masked unless
    // revealed and `may_reveal`); none for an entry no longer logged.
    std::optional<std::string> curl_text(std::uint64_t entry_id, bool may_reveal) const;
    // What "Copy as <format>" of log entry `entry_id` (the console's call when
    // none) copies; "" when it cannot (the notice then says why).
    std::string text_as(std::optional<std::uint64_t> entry_id, SnippetFormat format, bool may_reveal) const;
    // Where copied requests go (the page's origin, the helper's proxy, the service).
    SnippetTarget snippet_target() const;
    PlannedCall planned_console_call() const;
    RedactionRules redaction() const;
    const std::string& origin() const { return origin_; }

    const std::optional<UserError>& last_error() const { return feedback_.error; }
    const std::string& form_error() const { return feedback_.form_error; }
    // roomkey-helper gave no answer at all: REST calls wait while the app
    // probes it (GET /config.json) with backoff.
    bool helper_unreachable() const { return helper_.down(); }
    std::optional<Instant> helper_probe_at() const { return helper_.probe_at(); }
    // Sign-out was asked while posts are still open: how many would be lost.
    std::optional<long> sign_out_confirm() const { return feedback_.sign_out_confirm; }
    const std::string& notice() const { return feedback_.notice; }
    // Sign-out could not overwrite the system clipboard (the
    // engine wants a recent click or key press): what to tell the user, ""
    // when nothing waits.
    std::string clipboard_notice() const { return trace_.clipboard_notice(); }
    const Counters& counters() const { return stats_.counters; }

    bool page_visible() const { return features_.page_visible; }
    // ---- the workspace ----
    const Workspace& workspace() const { return features_.workspace; }
    const MessageMenu& message_menu() const { return features_.message_menu; }
    // The browser's offset of local time from UTC, for times as drawn.
    void set_user_time(UserTime user) { features_.workspace.set_user_time(std::move(user)); }
    std::vector<MentionAlert> take_alerts() { return features_.workspace.take_alerts(); }

private:
    struct ConfigFetch {};
    struct TokenCall {
        TokenRequestId id = 0;
    };
    struct RestCall {
        RequestId id = 0;
    };
    struct HelperProbe {};
    struct BffCall {
        BffRoute route = BffRoute::session;
    };
    using HttpPurpose = std::variant<ConfigFetch, TokenCall, RestCall, HelperProbe, BffCall>;

    // intents (app_intents.cpp routes each to its owner)
    void start_sign_in(const ScopeSet& scopes, Instant now);
    void sign_out(Instant now);
    // The open message menu's item, carried out by its owner (app_intents.cpp).
    void choose_menu_item(MenuItem item, Instant now);
    void page_restored(Instant now);

    // helper-bound HTTP
    std::uint64_t send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now);
    void fetch_config(Instant now);
    void on_config(const HttpResponse& response, Instant now);

    // Performs what the REST client says: token requests, sends, answers.
    void perform(RestStep step, Instant now) override;

    // REST calls
    void pump(Instant now);
    void on_sent(RequestId id, HttpRequest request, bool retry, Instant now);
    void on_api_answer(RequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                       Instant now);
    void drop_all_calls(const std::string& reason, Instant now);
    void record_rate(const HttpResponse& response, Instant now);
    // The session ended: its unsent messages wait for the same account (waiting_posts.hpp).
    void reset_account_data() override {
        features_.posting.keep_open_posts();
        features_.clear_account();
    }

    // ---- SignInHost: what the sign-in asks (app_session.cpp) ----
    void reset_error() override { feedback_.error.reset(); }
    void forget_pending() override { effects_.push_back(effect::ForgetPending{}); }
    void end_session(Instant now) override { sign_out(now); }
    void signed_in(Instant now) override { features_.dashboard.load(now); }
    void token_refreshed() override { ++stats_.counters.token_refreshes; }

    void set_error(UserError error, ErrorSource source = ErrorSource::other) override {
        feedback_.error = std::move(error);
        feedback_.source = source;
    }
    // The action `source` stands for succeeded: its error, if shown, goes.
    void clear_error(ErrorSource source) override {
        if (feedback_.error && feedback_.source == source) feedback_.error.reset();
    }

    // ---- FeatureHost: what the features ask (app_routes.cpp) ----
    // Where an answer goes, and what the HTTP log calls its request.
    struct Route {
        Feature* owner = nullptr;
        std::string label;
        bool upload_progress = false;
        std::optional<TransportFailure> failure;  // why no answer came, when none did
    };
    RequestTag new_tag() override { return wire_.next_tag++; }
    RequestTag submit(Feature& owner, Outgoing outgoing, Instant now, RequestTag tag = 0) override;
    bool pending(RequestTag tag) const override { return client_.pending(tag); }
    bool in_flight(RequestTag tag) const override { return client_.in_flight(tag); }
    void release(RequestTag tag) override;
    void resend(RequestTag tag) override { client_.resend(tag); }
    bool cancel(RequestTag tag) override;
    ApiConfig api_config() const override;
    void notice(std::string text) override { feedback_.notice = std::move(text); }
    void offer_scope(std::string scope) override { features_.console.offer_scope(std::move(scope)); }
    bool can_send() const override { return client_.can_send(); }
    void open_url(std::string url) override { effects_.push_back(effect::OpenUrl{std::move(url)}); }
    // A request's end goes to its owner.
    void deliver(RequestTag tag, Answer answer, Instant now);

    void on_helper_unreachable(Instant now, bool probe_failed = false);
    void on_helper_answer(Instant now);
    void probe_helper(Instant now);
    void add_secret(const std::string& secret) override { trace_.add_secret(secret); }

    // ---- BffHost: what the BFF panel asks (app_session.cpp) ----
    bool bff_config() const { return config_load_.value && config_load_.value->bff(); }
    void send_bff(BffRoute route, std::string label, HttpRequest request, Instant now) override {
        send(BffCall{route}, std::move(label), std::move(request), now);
    }
    void navigate(std::string url) override { effects_.push_back(effect::Navigate{std::move(url)}); }
    void drop_calls(const std::string& reason, Instant now) override { drop_all_calls(reason, now); }
    RandomSource random_;
    std::string origin_;
    std::vector<Effect> effects_;
    unsigned stored_posts_ = 0;  // the posting feature's revision last kept in storage

    // roomkey-helper's configuration (/config.json) and its loading.
    struct ConfigLoad {
        std::optional<PublicConfig> value;
        std::string error;
        bool loading = false;
    };
    ConfigLoad config_load_;

    void log_flow_step(FlowStep step, Instant at) override;

    // The one REST client: credentials, session, pacing, queue (rest_client.hpp).
    RestClient client_;
    // Sign-in and the grant as asked for (the tokens themselves are the REST client's).
    SignIn sign_in_{*this, client_, random_};
    // Every request the App hands the transport, and where its answer goes.
    struct Wire {
        std::map<std::uint64_t, HttpPurpose> http;
        std::uint64_t next_http_id = 1;
        RequestTag next_tag = 1;
        std::map<RequestTag, Route> routes;
    };
    Wire wire_;
    // What the page API counts and the rate plot draws.
    struct Stats {
        Counters counters;
        std::vector<RateSample> rate_samples;
    };
    Stats stats_;

    // The HTTP log and what may be disclosed from it (trace.hpp).
    Trace trace_;

    // What the user is told: the error (and the action it belongs to), notices.
    struct Feedback {
        std::optional<UserError> error;
        ErrorSource source = ErrorSource::other;
        std::string form_error;
        std::string notice;
        std::optional<long> sign_out_confirm;
    };
    Feedback feedback_;

    // roomkey-helper gave no answer: REST calls wait while it is probed.
    HelperWatch helper_;

    // The features: each owns its state, its requests and their answers.
    Features features_{*this, random_};

    // The BFF mode: the helper's session as the page knows it.
    BffPanel bff_{*this, client_, sign_in_};
};

}  // namespace roomkey::app
