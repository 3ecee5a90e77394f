// app.cpp: the browser app's state and logic (see app.hpp).
//
// [SECTION] Helpers
// [SECTION] Start, config and intents
// [SECTION] Sign-in, sign-out, API token
// [SECTION] HTTP through the helper
// [SECTION] The session state machine
// [SECTION] REST calls: queue, pacing, answers
// [SECTION] Views
#include "app/app.hpp"

#include <algorithm>
#include <type_traits>

#include "app/format.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"
#include "roomkey/www_authenticate.hpp"

namespace roomkey::app {

// ===========================================================================
// [SECTION] Helpers
// ===========================================================================

namespace {

constexpr std::string_view kDefaultTokenPath = "/oauth/token";
constexpr std::string_view kDefaultRequestHeader = "X-Roomkey-Request";
constexpr std::size_t kMaxSecrets = 64;
// Prefix of the failure reason of a request that got no HTTP answer at all.
constexpr std::string_view kNoAnswer = "no answer: ";

SessionConfig default_session_config() {
    SessionConfig config;
    config.token_url = std::string(kDefaultTokenPath);
    config.credentials = PublicClient{};
    return config;
}

// True when the URL's query carries an authorization answer (spec 4.2).
bool is_callback(std::string_view url) {
    auto parsed = parse_url(url);
    if (!parsed || !parsed->query) return false;
    auto fields = form_decode(*parsed->query);
    if (!fields) return true;  // malformed: let validate_callback say why
    return form_count(*fields, "code") > 0 || form_count(*fields, "state") > 0 || form_count(*fields, "error") > 0;
}

std::string trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

bool is_success(int status) { return status >= 200 && status < 300; }

}  // namespace

std::string_view to_string(PostStage stage) {
    switch (stage) {
        case PostStage::waiting: return "waiting";
        case PostStage::sending: return "sending";
        case PostStage::delivered: return "delivered";
        case PostStage::failed: return "failed";
        case PostStage::cancelled: return "cancelled";
    }
    return "unknown";
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
    if (!is_callback(launch_url)) return;

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
    auto validated = validate_callback(launch_url, pending);
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
                sign_out(now);
                notice_ = "Signed out: every token was forgotten.";
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
                const SessionState state = session_.state();
                if (mode_ == Mode::oauth && (state == SessionState::signed_in || state == SessionState::refreshing)) {
                    run_session(session_event::RefreshRequested{now}, now);
                }
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
                                            [](const PostJob& job) {
                                                return job.stage != PostStage::waiting &&
                                                       job.stage != PostStage::sending;
                                            }),
                             posts_.end());
            } else if constexpr (std::is_same_v<T, intent::SetReveal>) {
                reveal_ = i.on;
            } else if constexpr (std::is_same_v<T, intent::CopyCurl>) {
                copy_curl(i.entry_id, i.may_reveal);
            } else if constexpr (std::is_same_v<T, intent::ClearLog>) {
                log_.clear();
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
    pump(now);
}

std::optional<Instant> App::next_wake_at(Instant now) const {
    std::optional<Instant> wake;
    if (can_send()) wake = queue_.next_ready_at(now, scheduler_);
    if (refresh_tick_at_ && auto_refresh_ && mode_ == Mode::oauth) {
        wake = wake ? std::min(*wake, *refresh_tick_at_) : *refresh_tick_at_;
    }
    return wake;
}

std::vector<Effect> App::take_effects() {
    std::vector<Effect> out;
    out.swap(effects_);
    return out;
}

void App::fetch_config(Instant now) {
    config_loading_ = true;
    config_error_.clear();
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::string(kConfigPath);
    send(ConfigFetch{}, "helper configuration", std::move(request), now);
}

void App::on_config(const HttpResponse& response) {
    config_loading_ = false;
    if (!is_success(response.status)) {
        config_error_ = "roomkey-helper answered " + std::to_string(response.status) + " for /config.json";
    } else if (auto parsed = parse_public_config(response.body)) {
        config_ = std::move(*parsed);
        if (!config_->configured) config_error_ = "roomkey-helper has no upstream service configured";
    } else {
        config_error_ = parsed.error();
    }
}

// ===========================================================================
// [SECTION] Sign-in, sign-out, API token
// ===========================================================================

void App::sign_in(const ScopeSet& scopes, Instant now) {
    if (!config_ || !config_->configured) {
        UserError error;
        error.title = "Sign-in cannot start";
        error.message = config_ ? "roomkey-helper has no upstream service configured."
                                : "roomkey-helper's configuration is not loaded (" +
                                      (config_error_.empty() ? std::string("still loading") : config_error_) + ").";
        error.remedy = "Start roomkey with ./scripts/run.sh, then try again.";
        error.offers_try_again = true;
        set_error(std::move(error));
        return;
    }
    if (mode_ == Mode::api_token || session_.state() != SessionState::signed_out) sign_out(now);

    AuthorizationRequest request;
    request.redirect_uri = config_->redirect_uri;
    request.scopes = scopes;
    request.state = make_state(random_);
    request.pkce = make_pkce(random_);  // mandatory for public clients (spec 5.4.1), used always
    const ClientConfig client = config_->client();
    auto url = build_authorization_url(config_->consent_url, client, request);
    if (!url) {
        set_error(authorization_request_error(url.error()));
        return;
    }
    session_ = Session(session_config(client.client_id));
    mode_ = Mode::oauth;
    requested_scopes_ = scopes;
    last_error_.reset();
    notice_ = "Opening the consent screen...";
    pending_to_store_ = serialize(make_pending(client, request, now));
    run_session(session_event::SignInStarted{std::move(*url)}, now);
}

void App::sign_out(Instant now) {
    if (session_.state() != SessionState::signed_out) run_session(session_event::SignOut{}, now);
    drop_all_calls("signed out", now);
    // The log keeps its entries, but rewritten masked: the secrets of this
    // session exist nowhere any more.
    log_.forget_secrets(redaction());
    secrets_.clear();
    api_token_.clear();
    callback_.reset();
    pending_to_store_.reset();
    refresh_tick_at_.reset();
    reset_account_data();
    requested_scopes_.clear();
    mode_ = Mode::none;
    last_error_.reset();
    notice_.clear();
    // Everything else that belonged to the session: the reveal switch, what
    // was copied, the posts (their texts) and the session's counters. The
    // pacing scheduler and its samples stay: the service still counts those
    // sends in its windows, whoever signs in next (spec 8.1, 8.2).
    reveal_ = false;
    effects_.push_back(effect::ForgetClipboard{last_copy_revealed_});
    last_copy_revealed_ = false;
    posts_.clear();
    batch_ = PostBatch{};
    counters_ = Counters{};
}

void App::use_api_token(std::string token, Instant now) {
    token = trim(token);
    // shared/ decides what a usable token is (no control bytes, not empty).
    if (auto probe = get_me(api_config(), ApiToken{token}); !probe) {
        UserError error;
        error.title = "This API token cannot be used";
        error.message = "It is empty or holds characters a header cannot carry (" +
                        std::string(to_string(probe.error())) + ").";
        error.remedy = "Copy the token again from the service's settings page.";
        set_error(std::move(error));
        return;
    }
    if (mode_ != Mode::none || session_.state() != SessionState::signed_out) sign_out(now);
    api_token_ = std::move(token);
    add_secret(api_token_);
    mode_ = Mode::api_token;
    last_error_.reset();
    notice_ = "Using an API token (spec 5.1): it is sent only in the " +
              (config_ ? config_->token_header : std::string("x-servicetoken")) + " header.";
    load_dashboard(now);
}

void App::queue_message(const intent::QueueMessage& message, Instant now) {
    const int count = std::clamp(message.count, 1, kMaxBurst);
    // shared/ decides whether the post is well-formed before it is queued.
    if (auto probe = post_message(api_config(), ApiToken{"probe"}, message.room_id, message.body); !probe) {
        UserError error;
        error.title = "This message cannot be posted";
        error.message = "Check the room and the text (" + std::string(to_string(probe.error())) + ").";
        set_error(std::move(error));
        return;
    }
    for (int i = 1; i <= count; ++i) {
        PostJob job;
        job.id = next_call_id_++;
        job.kind = PostKind::message;
        job.room_id = message.room_id;
        job.body = count == 1 ? message.body
                              : message.body + " (" + std::to_string(i) + "/" + std::to_string(count) + ")";
        job.queued_at = now;
        const RequestId id = job.id;
        posts_.push_back(std::move(job));
        enqueue(CallKind::post, message.room_id, now, id);
    }
}

void App::queue_task(const intent::QueueTask& task, Instant now) {
    if (auto probe = post_task(api_config(), ApiToken{"probe"}, task.room_id, task.body, task.to_ids, task.limit,
                               task.limit_type);
        !probe) {
        UserError error;
        error.title = "This task cannot be added";
        error.message = "Check the room, text, assignees and due date (" + std::string(to_string(probe.error())) + ").";
        set_error(std::move(error));
        return;
    }
    PostJob job;
    job.id = next_call_id_++;
    job.kind = PostKind::task;
    job.room_id = task.room_id;
    job.body = task.body;
    job.to_ids = task.to_ids;
    job.limit = task.limit;
    job.limit_type = task.limit_type;
    job.queued_at = now;
    const RequestId id = job.id;
    posts_.push_back(std::move(job));
    enqueue(CallKind::post, task.room_id, now, id);
}

void App::cancel_queued(Instant now) {
    (void)now;
    for (auto& [room, fifo] : room_fifo_) {
        std::deque<RequestId> keep;
        for (RequestId id : fifo) {
            auto call = calls_.find(id);
            if (call != calls_.end() && call->second.in_flight) {
                keep.push_back(id);
                continue;
            }
            queue_.remove(id);
            calls_.erase(id);
            if (PostJob* job = find_post(id)) {
                job->stage = PostStage::cancelled;
                job->note = "cancelled before it was sent";
                if (batch_.total > 0) --batch_.total;
            }
        }
        fifo = std::move(keep);
    }
    for (auto it = room_fifo_.begin(); it != room_fifo_.end();) {
        it = it->second.empty() ? room_fifo_.erase(it) : std::next(it);
    }
}

void App::copy_curl(std::uint64_t entry_id, bool may_reveal) {
    const LogEntry* entry = log_.find(entry_id);
    if (!entry) return;
    const bool revealed = reveal_ && may_reveal;
    effects_.push_back(effect::CopyText{copy_as_curl(entry->request, origin_, redaction(), revealed)});
    last_copy_revealed_ = revealed;
    notice_ = revealed ? "Copied as curl WITH the secrets revealed." : "Copied as curl (secrets masked).";
}

// ===========================================================================
// [SECTION] HTTP through the helper
// ===========================================================================

std::uint64_t App::send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now) {
    const std::uint64_t id = next_http_id_++;
    // The helper refuses state-changing requests without its custom header
    // (or a same-origin Origin): a cross-site page cannot add it.
    request.headers.set(config_ ? config_->request_header : std::string(kDefaultRequestHeader), "1");
    http_[id] = std::move(purpose);
    log_.begin(id, std::move(label), request, now);
    effects_.push_back(effect::Send{id, std::move(request)});
    return id;
}

void App::on_response(std::uint64_t id, const HttpResponse& response, Instant now) {
    auto it = http_.find(id);
    if (it == http_.end()) return;
    const HttpPurpose purpose = it->second;
    http_.erase(it);
    log_.complete(id, response, now);
    std::visit(
        [&](const auto& p) {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ConfigFetch>) {
                on_config(response);
                if (callback_) {
                    if (config_) {
                        process_callback(now);
                    } else {
                        callback_.reset();
                        set_error(transport_error("Completing sign-in", config_error_));
                    }
                }
            } else if constexpr (std::is_same_v<T, TokenCall>) {
                on_token_answer(p.id, response, {}, now);
            } else {
                on_api_answer(p.id, response, {}, now);
            }
        },
        purpose);
    pump(now);
}

void App::on_transport_error(std::uint64_t id, const std::string& reason, Instant now) {
    auto it = http_.find(id);
    if (it == http_.end()) return;
    const HttpPurpose purpose = it->second;
    http_.erase(it);
    log_.fail(id, reason, now);
    std::visit(
        [&](const auto& p) {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ConfigFetch>) {
                config_loading_ = false;
                config_error_ = "roomkey-helper did not answer /config.json (" + reason + ")";
                if (callback_) {
                    callback_.reset();
                    set_error(transport_error("Completing sign-in", reason));
                }
            } else if constexpr (std::is_same_v<T, TokenCall>) {
                on_token_answer(p.id, std::nullopt, reason, now);
            } else {
                on_api_answer(p.id, std::nullopt, reason, now);
            }
        },
        purpose);
    pump(now);
}

void App::on_token_answer(TokenRequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                          Instant now) {
    const SessionState before = session_.state();
    const std::uint64_t generation = session_.token_generation();
    if (response) {
        run_session(session_event::TokenResponse{id, *response, now}, now);
    } else {
        run_session(session_event::TokenRequestFailed{id, reason, now}, now);
    }
    const SessionState after = session_.state();
    if (session_.token_generation() != generation) {
        remember_tokens();
        if (before == SessionState::exchanging) {
            on_signed_in(now);
        } else {
            ++counters_.token_refreshes;
            notice_ = "The access token was refreshed.";
        }
    } else if ((after == SessionState::failed || after == SessionState::expired) && session_.ended()) {
        set_error(session_end_error(*session_.ended(), response));
        if (!response) last_error_->message += " (" + reason + ")";
        reset_account_data();
    }
}

// ===========================================================================
// [SECTION] The session state machine
// ===========================================================================

SessionConfig App::session_config(const std::string& client_id) const {
    SessionConfig config = default_session_config();
    if (config_) config.token_url = config_->token_endpoint;
    // Through the helper the browser is always a public client: in BFF mode
    // (a confidential client) the helper adds the secret (spec 4.3).
    config.credentials = PublicClient{client_id};
    return config;
}

void App::run_session(const SessionEvent& event, Instant now) {
    auto result = session_.handle(event);
    if (!result) {
        // The table has no row for this: a bug in this adapter, shown, not hidden.
        notice_ = "internal: " + describe(result.error());
        return;
    }
    for (const SessionEffect& effect : *result) {
        std::visit(
            [&](const auto& e) {
                using T = std::decay_t<decltype(e)>;
                if constexpr (std::is_same_v<T, session_effect::NavigateToConsent>) {
                    if (pending_to_store_) {
                        effects_.push_back(effect::StorePending{std::move(*pending_to_store_)});
                        pending_to_store_.reset();
                    }
                    effects_.push_back(effect::Navigate{e.url});
                } else if constexpr (std::is_same_v<T, session_effect::SendCodeExchange>) {
                    send(TokenCall{e.id}, "code exchange (spec 4.3)", e.request, now);
                } else if constexpr (std::is_same_v<T, session_effect::SendRefresh>) {
                    send(TokenCall{e.id}, "token refresh (spec 4.3)", e.request, now);
                } else if constexpr (std::is_same_v<T, session_effect::SendApiRequest>) {
                    send_call(e.id, false, now);
                } else if constexpr (std::is_same_v<T, session_effect::RetryApiRequest>) {
                    ++counters_.retries_after_401;
                    send_call(e.id, true, now);
                } else if constexpr (std::is_same_v<T, session_effect::FailApiRequest>) {
                    fail_call(e.id, "not sent: " + std::string(to_string(e.reason)), now);
                } else if constexpr (std::is_same_v<T, session_effect::ScheduleRefreshAt>) {
                    refresh_tick_at_ = e.at;
                } else if constexpr (std::is_same_v<T, session_effect::ForgetTokens>) {
                    log_.forget_secrets(redaction());
                }
            },
            effect);
    }
}

void App::process_callback(Instant now) {
    ValidatedCallback callback = std::move(*callback_);
    callback_.reset();
    const Millis waited = std::chrono::duration_cast<Millis>(now - callback_received_at_);
    if (waited > kAuthorizationCodeLifetime) {
        // Spec 2.2 / 8.3: the code is valid 1 minute from when it was issued,
        // which was before this page loaded: exchanging it now can only fail.
        session_ = Session(session_config(callback.client_id()));
        mode_ = Mode::none;
        requested_scopes_.clear();
        notice_.clear();
        set_error(code_expired_error(waited));
        return;
    }
    session_ = Session(session_config(callback.client_id()));
    mode_ = Mode::oauth;
    notice_ = "Exchanging the authorization code...";
    run_session(session_event::CallbackValidated{std::move(callback)}, now);
}

void App::on_signed_in(Instant now) {
    mode_ = Mode::oauth;
    last_error_.reset();
    notice_ = "Signed in.";
    load_dashboard(now);
}

void App::remember_tokens() {
    if (const auto& tokens = session_.tokens()) {
        add_secret(tokens->access_token);
        add_secret(tokens->refresh_token);
    }
}

void App::add_secret(const std::string& secret) {
    if (secret.empty()) return;
    if (std::find(secrets_.begin(), secrets_.end(), secret) != secrets_.end()) return;
    secrets_.push_back(secret);
    // Old tokens stay in old log entries; keep masking the recent ones.
    if (secrets_.size() > kMaxSecrets) secrets_.erase(secrets_.begin());
}

// ===========================================================================
// [SECTION] REST calls: queue, pacing, answers
// ===========================================================================

bool App::can_send() const {
    if (mode_ == Mode::api_token) return true;
    return mode_ == Mode::oauth && session_.state() == SessionState::signed_in;
}

Credentials App::credentials() const {
    if (mode_ == Mode::api_token) return ApiToken{api_token_};
    const auto& tokens = session_.tokens();
    return BearerToken{tokens ? tokens->access_token : std::string()};
}

ApiConfig App::api_config() const {
    ApiConfig config;
    if (config_) {
        config.base_url = config_->api_base;
        config.token_header = config_->token_header;
    } else {
        config.base_url = "/api";
    }
    return config;
}

void App::load_dashboard(Instant now) {
    if (!has_pending(CallKind::me)) enqueue(CallKind::me, std::nullopt, now);
    if (!has_pending(CallKind::my_status)) enqueue(CallKind::my_status, std::nullopt, now);
    if (!has_pending(CallKind::rooms)) enqueue(CallKind::rooms, std::nullopt, now);
}

bool App::has_pending(CallKind kind) const {
    return std::any_of(calls_.begin(), calls_.end(), [&](const auto& entry) { return entry.second.kind == kind; });
}

void App::enqueue(CallKind kind, std::optional<std::string> room_for_post, Instant now, RequestId id) {
    (void)now;
    ApiCall call;
    call.id = id != 0 ? id : next_call_id_++;
    call.kind = kind;
    call.room_for_post = room_for_post;
    calls_[call.id] = call;
    switch (kind) {
        case CallKind::me: account_.loading = true; break;
        case CallKind::my_status: status_.loading = true; break;
        case CallKind::rooms: rooms_.loading = true; break;
        case CallKind::post: break;
    }
    if (kind == CallKind::post && room_for_post) {
        // A new batch starts when nothing else is waiting or sending.
        const bool idle = std::none_of(posts_.begin(), posts_.end(), [&](const PostJob& job) {
            return job.id != call.id && (job.stage == PostStage::waiting || job.stage == PostStage::sending);
        });
        if (idle) batch_ = PostBatch{};
        ++batch_.total;
        // One post per room at a time, so they arrive in order; the head of
        // each room is the only one the pacing queue sees.
        auto& fifo = room_fifo_[*room_for_post];
        fifo.push_back(call.id);
        if (fifo.size() > 1) return;
    }
    queue_.push(PendingRequest{call.id, room_for_post});
}

void App::pump(Instant now) {
    while (can_send()) {
        auto next = queue_.pop_ready(now, scheduler_);
        if (!next) break;
        if (calls_.find(next->id) == calls_.end()) continue;
        if (mode_ == Mode::oauth) {
            // The session decides: send now, or wait for a refresh first.
            run_session(session_event::ApiRequest{next->id, now}, now);
        } else {
            send_call(next->id, false, now);
        }
    }
}

void App::send_call(RequestId id, bool retry, Instant now) {
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    ApiCall& call = it->second;
    const ApiConfig config = api_config();
    const Credentials creds = credentials();
    std::string label;
    Result<HttpRequest, ApiRequestError> request = Err{ApiRequestError::unknown_endpoint};
    PostJob* job = find_post(id);
    switch (call.kind) {
        case CallKind::me:
            request = get_me(config, creds);
            label = "account (spec 4.4)";
            break;
        case CallKind::my_status:
            request = get_my_status(config, creds);
            label = "status (spec 4.5)";
            break;
        case CallKind::rooms:
            request = get_rooms(config, creds);
            label = "room list (spec 4.8)";
            break;
        case CallKind::post:
            if (!job) {
                calls_.erase(it);
                return;
            }
            if (job->kind == PostKind::message) {
                request = post_message(config, creds, job->room_id, job->body);
                label = "message (spec 4.6)";
            } else {
                request = post_task(config, creds, job->room_id, job->body, job->to_ids, job->limit, job->limit_type);
                label = "task (spec 4.7)";
            }
            break;
    }
    if (!request) {
        fail_call(id, "the request could not be built: " + std::string(to_string(request.error())), now);
        return;
    }
    if (retry) label += ", retry after refresh";
    call.generation = session_.token_generation();
    call.in_flight = true;
    if (retry) call.retried = true;
    scheduler_.on_sent(now, call.room_for_post);
    ++counters_.requests_sent;
    if (job) {
        job->stage = PostStage::sending;
        job->sent_at = now;
        if (!batch_.first_sent) batch_.first_sent = now;
    }
    send(RestCall{id}, std::move(label), std::move(*request), now);
}

void App::record_rate(const HttpResponse& response, Instant now) {
    auto read = read_rate_limit(response.headers);
    if (!read || !*read) return;
    rate_samples_.push_back(RateSample{now, (*read)->remaining, (*read)->limit});
    while (rate_samples_.size() > kMaxRateSamples) rate_samples_.pop_front();
}

void App::on_api_answer(RequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                        Instant now) {
    auto it = calls_.find(id);
    const std::optional<std::string> room = it != calls_.end() ? it->second.room_for_post : std::nullopt;
    if (!response) {
        scheduler_.on_response(now, room, 0, nullptr, false);
        if (it != calls_.end()) fail_call(id, std::string(kNoAnswer) + reason, now);
        return;
    }
    auto rate = read_rate_limit(response->headers);
    const RateLimit* headers = (rate && *rate) ? &**rate : nullptr;
    const bool per_room = response->status == 429 && is_per_room_rate_limit(*response);
    scheduler_.on_response(now, room, response->status, headers, per_room);
    record_rate(*response, now);
    if (response->status == 429) ++counters_.responses_429;
    if (it == calls_.end()) return;  // dropped (signed out) while in flight
    ApiCall& call = it->second;
    call.in_flight = false;

    if (response->status == 429) {
        // Spec 7.3: wait (about 10 s for the per-room limit, until the reset
        // for the overall one: the scheduler knows which) and try again.
        if (PostJob* job = find_post(id)) {
            if (++job->rate_limited <= kMaxRateLimitedRetries) {
                job->stage = PostStage::waiting;
                job->note = per_room ? "429: per-room posting limit; waiting about 10 s (spec 7.3)"
                                     : "429: rate limit; waiting for the reset (spec 8.1)";
                queue_.push(PendingRequest{id, call.room_for_post});
                return;
            }
        } else if (call.kind != CallKind::post && ++call.rate_limited <= kMaxRateLimitedGetRetries) {
            // A GET (spec 8.1): the scheduler now holds every request until
            // x-ratelimit-reset; this one goes again then, once, and says so.
            const Millis wait = std::chrono::duration_cast<Millis>(scheduler_.earliest_send(now, std::nullopt) - now);
            const std::string note = "429: the rate limit is used up; retrying once in " +
                                     format_countdown(std::max(wait, Millis(0))) +
                                     ", when x-ratelimit-reset passes (spec 8.1)";
            switch (call.kind) {
                case CallKind::me:
                    account_.note = note;
                    notice_ = "Reading your account: " + note;
                    break;
                case CallKind::my_status:
                    status_.note = note;
                    notice_ = "Reading your status: " + note;
                    break;
                case CallKind::rooms:
                    rooms_.note = note;
                    notice_ = "Reading the room list: " + note;
                    break;
                case CallKind::post: break;
            }
            queue_.push(PendingRequest{id, std::nullopt});
            return;
        }
        finish_call(id, response, {}, now);
        return;
    }
    if (mode_ == Mode::oauth && is_invalid_token(*response)) {
        // Spec 5.2.2: the session decides (one refresh, one retry).
        run_session(session_event::ApiUnauthorized{id, call.generation, call.retried, now}, now);
        return;
    }
    finish_call(id, response, {}, now);
}

void App::finish_call(RequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                      Instant now) {
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    const ApiCall call = it->second;
    calls_.erase(it);
    const bool ok = response && is_success(response->status);

    auto fill = [&](auto& loadable, auto read, std::string_view what, Endpoint endpoint) {
        loadable.loading = false;
        loadable.note.clear();
        if (!response) {
            loadable.error = reason;
            if (reason.rfind(kNoAnswer, 0) == 0) {
                set_error(transport_error(what, reason.substr(kNoAnswer.size())));
            } else {
                // The session gave the request up (e.g. still 401 after the
                // one refresh and retry, spec 5.2.2).
                UserError error;
                error.title = std::string(what) + " failed";
                error.message = "The request was not completed (" + reason + ").";
                error.remedy = "Sign in again.";
                error.offers_try_again = true;
                set_error(std::move(error));
            }
            return;
        }
        if (!ok) {
            UserError error = api_error(what, *response, endpoint);
            loadable.error = error.code + ": " + error.message;
            set_error(std::move(error));
            return;
        }
        auto value = read(*response);
        if (!value) {
            loadable.error = "unexpected answer: " + to_string(value.error());
            return;
        }
        loadable.value = std::move(*value);
        loadable.error.clear();
        loadable.loaded_at = now;
    };

    switch (call.kind) {
        case CallKind::me: fill(account_, read_account, "Reading your account", Endpoint::me); break;
        case CallKind::my_status: fill(status_, read_status, "Reading your status", Endpoint::my_status); break;
        case CallKind::rooms:
            fill(rooms_, read_rooms, "Reading the room list", Endpoint::rooms_list);
            if (rooms_.value && !rooms_.value->empty()) {
                const auto& list = *rooms_.value;
                const bool known = std::any_of(list.begin(), list.end(),
                                               [&](const Room& room) { return room.room_id == selected_room_; });
                if (!known) selected_room_ = list.front().room_id;
            }
            break;
        case CallKind::post: {
            PostJob* job = find_post(id);
            if (job) {
                job->done_at = now;
                if (ok) {
                    job->stage = PostStage::delivered;
                    if (job->kind == PostKind::message) {
                        auto posted = read_posted_message(*response);
                        job->note = posted ? "message_id " + *posted : "delivered";
                    } else {
                        auto posted = read_posted_tasks(*response);
                        job->note = posted ? std::to_string(posted->size()) + " task(s)" : "delivered";
                    }
                    ++batch_.delivered;
                } else {
                    job->stage = PostStage::failed;
                    if (response) {
                        UserError error = api_error(job->kind == PostKind::message ? "Posting a message"
                                                                                   : "Adding a task",
                                                    *response,
                                                    job->kind == PostKind::message ? Endpoint::room_messages_post
                                                                                   : Endpoint::room_tasks_post);
                        job->note = error.code + ": " + error.message;
                        set_error(std::move(error));
                    } else {
                        job->note = reason;
                    }
                    ++batch_.failed;
                }
                batch_.last_done = now;
            }
            if (call.room_for_post) release_room(*call.room_for_post);
            prune_posts();
            break;
        }
    }
}

void App::fail_call(RequestId id, const std::string& reason, Instant now) {
    finish_call(id, std::nullopt, reason, now);
}

void App::release_room(const std::string& room_id) {
    auto it = room_fifo_.find(room_id);
    if (it == room_fifo_.end()) return;
    auto& fifo = it->second;
    // The finished post is the head; the next one now waits for its turn.
    while (!fifo.empty() && calls_.find(fifo.front()) == calls_.end()) fifo.pop_front();
    if (fifo.empty()) {
        room_fifo_.erase(it);
        return;
    }
    queue_.push(PendingRequest{fifo.front(), room_id});
}

PostJob* App::find_post(RequestId id) {
    for (auto it = posts_.rbegin(); it != posts_.rend(); ++it) {
        if (it->id == id) return &*it;
    }
    return nullptr;
}

void App::drop_all_calls(const std::string& reason, Instant now) {
    (void)now;
    for (const auto& [id, call] : calls_) queue_.remove(id);
    calls_.clear();
    room_fifo_.clear();
    for (PostJob& job : posts_) {
        if (job.stage == PostStage::waiting || job.stage == PostStage::sending) {
            job.stage = PostStage::cancelled;
            job.note = reason;
        }
    }
    account_.loading = status_.loading = rooms_.loading = false;
    account_.note.clear();
    status_.note.clear();
    rooms_.note.clear();
    batch_ = PostBatch{};
}

void App::prune_posts() {
    std::size_t finished = 0;
    for (const PostJob& job : posts_) {
        if (job.stage != PostStage::waiting && job.stage != PostStage::sending) ++finished;
    }
    while (finished > kMaxFinishedPosts && !posts_.empty()) {
        const PostStage stage = posts_.front().stage;
        if (stage == PostStage::waiting || stage == PostStage::sending) break;
        posts_.pop_front();
        --finished;
    }
}

void App::reset_account_data() {
    account_ = {};
    status_ = {};
    rooms_ = {};
    selected_room_.clear();
}

// ===========================================================================
// [SECTION] Views
// ===========================================================================

std::string App::session_label() const {
    if (mode_ == Mode::api_token) return "api token";
    if (callback_) return "exchanging";
    switch (session_.state()) {
        case SessionState::signed_out: return "signed out";
        case SessionState::authorizing: return "signing in";
        case SessionState::exchanging: return "exchanging";
        case SessionState::signed_in: return "signed in";
        case SessionState::refreshing: return "refreshing";
        case SessionState::expired: return "expired";
        case SessionState::failed: return "failed";
    }
    return "unknown";
}

bool App::scopes_differ() const {
    const auto& tokens = session_.tokens();
    if (!tokens || requested_scopes_.empty()) return false;
    return expand(tokens->scope) != expand(requested_scopes_);
}

std::optional<Instant> App::access_expires_at() const {
    const auto& tokens = session_.tokens();
    if (!tokens) return std::nullopt;
    return tokens->access_expires_at;
}

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
