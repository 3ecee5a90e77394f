// page_state.cpp: the published JSON snapshot of the app.
#include "app/page_state.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "app/bff_state.hpp"
#include "app/console.hpp"
#include "app/i18n.hpp"
#include "app/post_words.hpp"
#include "app/views_state.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/json_text.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

json optional_ms(const std::optional<Instant>& at) {
    return at ? json(unix_ms(*at)) : json(nullptr);
}

// The page API's names for who holds the credentials.
std::string_view mode_name(CredentialHolder holder) {
    switch (holder) {
        case CredentialHolder::none:
            return "none";
        case CredentialHolder::page_session:
            return "oauth";
        case CredentialHolder::api_token:
            return "api_token";
        case CredentialHolder::helper:
            return "bff";
    }
    return "none";
}

// The small parts that change with time alone (countdowns, the rate
// window, the posts' retry times): built at each publish, sent when their text changed.
void add_ticking_state(const App& app, Instant now, json& state) {
    if (auto expires = app.session_shown().access_expires_at()) {
        state["access_expires_in"] = std::chrono::duration_cast<Seconds>(*expires - now).count();
    } else {
        state["access_expires_in"] = nullptr;
    }
    add_bff_state(app, now, state);  // where the tokens are, the helper's session

    long waiting = 0;
    long sending = 0;
    long retrying = 0;
    long checking = 0;
    long unknown = 0;
    long refused = 0;
    // The open posts (not delivered, cancelled or discarded), with what the
    // queue shows of each: the user's own text, its stage and why.
    json posts = json::array();
    for (const PostJob& job : app.posting().posts()) {
        if (job.stage == PostStage::waiting) ++waiting;
        if (job.stage == PostStage::sending) ++sending;
        if (job.stage == PostStage::retrying) ++retrying;
        if (job.stage == PostStage::checking) ++checking;
        if (job.stage == PostStage::unknown) ++unknown;
        if (job.stage == PostStage::refused) ++refused;
        if (!is_open(job.stage)) continue;
        json post = object_of({{"id", job.id},
                               {"local_id", job.local_id},
                               {"kind", job.kind == PostKind::message ? "message" : "task"},
                               {"room_id", job.room_id},
                               {"body", job.body},
                               {"stage", std::string(to_string(job.stage))},
                               {"attempts", job.attempts},
                               {"note", job.note},
                               // The note in words, as the post's row says it (the mirror's line outside the developer view).
                               {"words", pending_words(job, app.workspace().user_time())}});
        post["retry_in_ms"] =
            job.retry_at ? json(std::max<std::int64_t>(0, (*job.retry_at - now).count())) : json(nullptr);
        posts.push_back(std::move(post));
    }
    state["posts"] = std::move(posts);
    const PostBatch& batch = app.posting().batch();
    state["queue"] = object_of({{"waiting", waiting},
                                {"sending", sending},
                                {"retrying", retrying},
                                {"checking", checking},
                                {"unknown", unknown},
                                {"refused", refused},
                                {"total", batch.total},
                                {"delivered", batch.delivered},
                                {"failed", batch.failed},
                                {"first_sent_ms", optional_ms(batch.first_sent)},
                                {"last_done_ms", optional_ms(batch.last_done)}});

    const OverallBudget overall = app.scheduler().overall(now);
    state["rate"] = object_of({{"limit", overall.limit},
                               {"remaining", overall.remaining},
                               {"from_headers", overall.from_headers},
                               {"reset_ms", optional_ms(overall.reset)}});
    json connection = object_of({{"helper", app.helper_unreachable() ? "unreachable" : "reachable"}});
    if (auto at = app.helper_probe_at()) {
        connection["retry_in_ms"] = std::max<std::int64_t>(0, (*at - now).count());
    }
    state["connection"] = std::move(connection);
}

// The rest of the small parts, the log's titles among them: they change
// only when the app does, so a frame that only time changed builds none of them.
void add_small_state(const App& app, json& state) {
    state["ready"] = true;
    state["session"] = app.session_shown().session_label();
    state["mode"] = mode_name(app.holder());
    // The language the app speaks: "ja" or "en" (the pseudo-locale is English's).
    state["lang"] = i18n::language() == i18n::Lang::ja ? "ja" : "en";

    json config = json::object();
    config["loaded"] = app.config().has_value();
    config["loading"] = app.config_loading();
    config["error"] = app.config_error();
    if (app.config()) {
        config["client_id"] = app.config()->client_id;
        config["client_type"] = std::string(to_string(app.config()->client_type));
        config["upstream"] = app.config()->upstream_base_url;
        config["session"] = std::string(to_string(app.config()->session));  // "browser" or "bff"
    }
    state["config"] = std::move(config);

    if (const auto& account = app.dashboard().account().value) {
        state["account"] = object_of({{"account_id", account->account_id}, {"name", account->name.value_or("")}});
    } else {
        state["account"] = nullptr;
    }
    if (const auto& status = app.dashboard().status().value) {
        state["status"] = object_of({{"unread_room_num", status->unread_room_num},
                                     {"mention_room_num", status->mention_room_num},
                                     {"mytask_room_num", status->mytask_room_num},
                                     {"unread_num", status->unread_num},
                                     {"mention_num", status->mention_num},
                                     {"mytask_num", status->mytask_num}});
    } else {
        state["status"] = nullptr;
    }
    state["room_count"] = app.dashboard().rooms().value ? app.dashboard().rooms().value->size() : 0;
    state["selected_room"] = app.dashboard().selected_room();
    state["loading"] =
        app.dashboard().account().loading || app.dashboard().status().loading || app.dashboard().rooms().loading;

    json scopes = json::object();
    scopes["requested"] = format_scope_list(app.sign_in().requested_scopes());
    const ScopeSet* granted = app.session_shown().granted_scopes();
    scopes["granted"] = granted ? format_scope_list(*granted) : std::string();
    scopes["differ"] = app.session_shown().scopes_differ();
    state["scopes"] = std::move(scopes);
    // "Refresh with fewer scopes": what was asked and what came back.
    const ScopeRefresh& narrow = app.sign_in().scope_refresh();
    state["scope_refresh"] = object_of(
        {{"pending", narrow.pending()},
         {"requested", format_scope_list(narrow.requested())},
         {"granted_before", format_scope_list(narrow.granted_before())},
         {"granted", narrow.granted_after() ? json(format_scope_list(*narrow.granted_after())) : json(nullptr)}});
    state["auto_refresh"] = app.sign_in().auto_refresh();
    // What a session left unsent, offered to the account that wrote it (waiting_posts.hpp).
    state["waiting_posts"] = roomkey::parse_json_text(waiting_posts_record(app.posting().waiting_for_me()));
    const Counters& counters = app.counters();
    state["counters"] = object_of({{"requests", counters.requests_sent},
                                   {"responses_429", counters.responses_429},
                                   {"token_refreshes", counters.token_refreshes},
                                   {"retries_after_401", counters.retries_after_401}});

    if (const auto& error = app.last_error()) {
        state["last_error"] = object_of({{"title", error->title},
                                         {"message", error->message},
                                         {"shown", error->shown()},
                                         {"code", error->code},
                                         {"remedy", error->remedy},
                                         {"try_again", error->offers_try_again}});
    } else {
        state["last_error"] = nullptr;
    }
    state["notice"] = app.notice();
    const std::string clipboard = app.clipboard_notice();
    state["clipboard_notice"] = clipboard.empty() ? json(nullptr) : json(clipboard);
    // Each view's own error, as its panel shows it ("" when none): with
    // last_error, everything the screen shows as an error. error_words: the
    // same errors as the box says them (words, no status; feedback.hpp), for
    // the text mirror's per-view lines outside the developer view.
    const Feedback& feedback = app.feedback();
    struct ViewError {
        const char* key;
        std::string error;
        std::optional<ErrorSource> source;  // none: said only as its panel shows it
    };
    const ViewError views[] = {{"config", app.config_error(), ErrorSource::config},
                               {"account", app.dashboard().account().error, ErrorSource::account},
                               {"status", app.dashboard().status().error, ErrorSource::status},
                               {"rooms", app.dashboard().rooms().error, ErrorSource::rooms},
                               {"posting", app.posting().error(), ErrorSource::posting},
                               {"form", app.form_error(), std::nullopt},
                               {"room", app.open_room().view().error(), ErrorSource::room},
                               {"my_tasks", app.my_tasks().tasks().error, ErrorSource::my_tasks},
                               {"contacts", app.contacts().contacts().error, ErrorSource::contacts},
                               {"scope_refresh", app.sign_in().scope_refresh().error(), std::nullopt}};
    json errors = json::object();
    json words = json::object();
    for (const ViewError& view : views) {
        errors[view.key] = view.error;
        if (view.source) words[view.key] = feedback.said(*view.source);
    }
    state["errors"] = std::move(errors);
    state["error_words"] = std::move(words);
    if (auto open = app.sign_out_confirm()) {
        state["sign_out_confirm"] = object_of({{"posts", *open}});
    } else {
        state["sign_out_confirm"] = nullptr;
    }

    json log = json::array();
    const auto& entries = app.log().entries();
    const std::size_t first = entries.size() > kPublishedLogEntries ? entries.size() - kPublishedLogEntries : 0;
    for (std::size_t i = first; i < entries.size(); ++i) {
        // Titles only: the page API never carries a header or a body.
        log.push_back(object_of({{"id", entries[i].id}, {"title", entry_title(entries[i])}}));
    }
    state["log"] = std::move(log);
    const LogFilter& filter = app.trace().filter();
    state["log_filter"] = object_of({{"text", filter.text}, {"method", filter.method}, {"status", filter.status}});
    if (const auto& saved = app.trace().last_export()) {
        state["last_export"] = object_of({{"name", saved->name}, {"bytes", saved->bytes}});
    } else {
        state["last_export"] = nullptr;
    }

    add_views_small(app, state);
    add_previews(app.previews(), state);
}

// The endpoint catalog (shared/endpoint_catalog.hpp), for scripts driving the console.
void add_catalog(json& state) {
    json catalog = json::array();
    for (const EndpointInfo& info : endpoint_catalog()) {
        catalog.push_back(object_of({{"method", std::string(to_string(info.method))},
                                     {"path", std::string(info.path)},
                                     {"scope", std::string(info.scope)},
                                     {"room_post", info.room_post},
                                     {"destructive", info.destructive}}));
    }
    state["catalog"] = std::move(catalog);
}

std::string text_of(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string page_state_json(const App& app, Instant now) {
    json state = json::object();
    add_ticking_state(app, now, state);
    add_small_state(app, state);
    add_catalog(state);
    add_views_state(app, now, state);  // room, rooms, my_tasks, contacts, ...
    return text_of(state);
}

std::string PageStatePublisher::changes(const App& app, Instant now, bool time_only) {
    built_.clear();
    if (!published_) time_only = false;  // the page holds nothing yet
    json parts = json::object();
    add_ticking_state(app, now, parts);
    built_.push_back("small");
    if (!time_only) {
        add_small_state(app, parts);
        built_.push_back("status");
        // Each larger part is built again only when what it reads changed.
        const std::string console = console_json(app.api_console().console());
        std::size_t index = 0;
        auto group = [&](const char* name, std::uint64_t key, auto build) {
            std::uint64_t& known = keys_[index++];
            if (published_ && known == key) return;
            known = key;
            build();
            built_.push_back(name);
        };
        group("catalog", 0, [&] { add_catalog(parts); });
        group("rooms", room_list_key(app), [&] { add_room_list(app, parts); });
        group("room", open_room_key(app), [&] { add_open_room(app, parts); });
        group("room.messages", open_room_messages_key(app, now),
              [&] { parts[std::string(kRoomMessages)] = open_room_messages(app, now); });
        group("lists", lists_key(app), [&] { add_lists(app, parts); });
        group("console", console_key(app, console), [&] { add_console(app, console, parts); });
    }
    // The countdown inside `room`, on its own: it ticks without the room being rebuilt.
    parts[std::string(kRoomPollInMs)] = room_poll_in_ms(app, now);
    // The parts that changed, each written once (the room's messages are
    // most of the state: written again, they were most of a publish). In
    // the order of their names: `room` before the parts set inside it.
    std::string changed;
    for (auto& [name, value] : parts.items()) {
        std::string text = text_of(value);
        json& last = sent_[name];
        if (last.is_string() && last.get_ref<const std::string&>() == text) continue;
        changed += (changed.empty() ? "{" : ",") + text_of(json(name)) + ":" + text;
        last = std::move(text);
    }
    published_ = true;
    return changed.empty() ? std::string() : changed + "}";
}

}  // namespace roomkey::app
