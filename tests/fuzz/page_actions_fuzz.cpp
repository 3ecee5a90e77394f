// page_actions_fuzz.cpp. Property (invariants + round trip) of parse_action
// and parse_actions, the app's reader of the JSON actions any script on the
// page can hand to window.roomkey:
// - no crash on any bytes; a refusal says what is wrong (non-empty text);
// - the page API can never reveal secrets: no SetReveal intent, and a
//   CopyCurl, CopyAs or ExportHar from it is always masked (may_reveal false);
// - a post_message count is 1 to kMaxBurst; ids are non-empty;
// - nothing is dropped silently: every element of an action array becomes
//   either an intent or an error, in order;
// - an accepted action, written back as the page would send it, reads back
//   to the same intent.
// Input: one action, also read as an action array.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "app/intents.hpp"
#include "roomkey/api.hpp"
#include "roomkey/encoding.hpp"
#include "roomkey/scopes.hpp"

namespace {

// A post by the conversation's local_id (a post kept across a reload has
// only that) or by the queue's id.
nlohmann::json by_post(nlohmann::json action, std::uint64_t id, const std::string& local_id) {
    if (local_id.empty()) {
        action["id"] = id;
    } else {
        action["local_id"] = local_id;
    }
    return action;
}

using namespace roomkey;
using namespace roomkey::app;
using json = nlohmann::json;

// The action as a page script would write it.
json write(const Intent& intent) {
    return std::visit(
        [](const auto& i) -> json {
            using T = std::decay_t<decltype(i)>;
            if constexpr (std::is_same_v<T, intent::SignIn>) {
                return {{"type", "sign_in"}, {"scope", format_scope_list(i.scopes)}};
            } else if constexpr (std::is_same_v<T, intent::SignOut>) {
                return {{"type", "sign_out"}, {"discard_posts", i.discard_posts}};
            } else if constexpr (std::is_same_v<T, intent::CancelSignOut>) {
                return {{"type", "cancel_sign_out"}};
            } else if constexpr (std::is_same_v<T, intent::RetryPost>) {
                return by_post({{"type", "retry_post"}}, i.id, i.local_id);
            } else if constexpr (std::is_same_v<T, intent::EditPost>) {
                return by_post({{"type", "edit_post"}, {"body", i.body}}, i.id, i.local_id);
            } else if constexpr (std::is_same_v<T, intent::DiscardPost>) {
                return by_post({{"type", "discard_post"}}, i.id, i.local_id);
            } else if constexpr (std::is_same_v<T, intent::WaitingPosts>) {
                const char* type = i.what == intent::WaitingPosts::send     ? "send_waiting_posts"
                                   : i.what == intent::WaitingPosts::review ? "review_waiting_posts"
                                                                            : "discard_waiting_posts";
                return {{"type", type}};
            } else if constexpr (std::is_same_v<T, intent::SetSetting>) {
                return {{"type", "set_setting"}, {"name", i.name}, {"value", i.value}};
            } else if constexpr (std::is_same_v<T, intent::SeenLatest> || std::is_same_v<T, intent::SetDraft> ||
                                 std::is_same_v<T, intent::RestoreSettings> ||
                                 std::is_same_v<T, intent::RestoreDrafts>) {
                std::abort();  // the UI's and the platform's, never from the page API
            } else if constexpr (std::is_same_v<T, intent::FormError>) {
                std::abort();  // the UI's own, never from the page API
            } else if constexpr (std::is_same_v<T, intent::TryAgain>) {
                return {{"type", "try_again"}, {"sign_in", i.sign_in}};
            } else if constexpr (std::is_same_v<T, intent::RefreshNow>) {
                return {{"type", "refresh_now"}};
            } else if constexpr (std::is_same_v<T, intent::RefreshScopes>) {
                return {{"type", "refresh_scopes"}, {"scope", format_scope_list(i.scopes)}};
            } else if constexpr (std::is_same_v<T, intent::SetAutoRefresh>) {
                return {{"type", "set_auto_refresh"}, {"on", i.on}};
            } else if constexpr (std::is_same_v<T, intent::UseApiToken>) {
                return {{"type", "use_api_token"}, {"token", i.token}};
            } else if constexpr (std::is_same_v<T, intent::ReloadAccount>) {
                return {{"type", "reload_account"}};
            } else if constexpr (std::is_same_v<T, intent::ReloadRooms>) {
                return {{"type", "reload_rooms"}};
            } else if constexpr (std::is_same_v<T, intent::SelectRoom>) {
                return {{"type", "select_room"}, {"room_id", i.room_id}};
            } else if constexpr (std::is_same_v<T, intent::QueueMessage>) {
                return {{"type", "post_message"}, {"room_id", i.room_id}, {"body", i.body}, {"count", i.count}};
            } else if constexpr (std::is_same_v<T, intent::QueueTask>) {
                json j = {{"type", "post_task"},
                          {"room_id", i.room_id},
                          {"body", i.body},
                          {"to_ids", i.to_ids},
                          {"limit_type", std::string(to_string(i.limit_type))}};
                if (i.limit) j["limit"] = *i.limit;
                return j;
            } else if constexpr (std::is_same_v<T, intent::CancelQueued>) {
                return {{"type", "cancel_queued"}};
            } else if constexpr (std::is_same_v<T, intent::ClearFinishedPosts>) {
                return {{"type", "clear_finished_posts"}};
            } else if constexpr (std::is_same_v<T, intent::SetReveal>) {
                std::abort();  // never from the page API
            } else if constexpr (std::is_same_v<T, intent::CopyCurl>) {
                return {{"type", "copy_curl"}, {"entry", i.entry_id}};
            } else if constexpr (std::is_same_v<T, intent::CopyAs>) {
                json j = {{"type", "copy_as"}, {"format", std::string(to_string(i.format))}};
                if (i.entry) j["entry"] = *i.entry;
                return j;
            } else if constexpr (std::is_same_v<T, intent::ExportHar>) {
                return {{"type", "export_har"}};
            } else if constexpr (std::is_same_v<T, intent::SetLogFilter>) {
                return {{"type", "set_log_filter"}, {"text", i.text}, {"method", i.method}, {"status", i.status}};
            } else if constexpr (std::is_same_v<T, intent::OpenRoom>) {
                return {{"type", "open_room"}, {"room_id", i.room_id}};
            } else if constexpr (std::is_same_v<T, intent::LoadMessages>) {
                return {{"type", "load_messages"}, {"room_id", i.room_id}};
            } else if constexpr (std::is_same_v<T, intent::MarkRead>) {
                return {{"type", "mark_read"}, {"room_id", i.room_id}};
            } else if constexpr (std::is_same_v<T, intent::CompleteTask>) {
                return {{"type", "complete_task"}, {"room_id", i.room_id}, {"task_id", i.task_id}};
            } else if constexpr (std::is_same_v<T, intent::LoadMyTasks>) {
                return {{"type", "load_my_tasks"}};
            } else if constexpr (std::is_same_v<T, intent::LoadContacts>) {
                return {{"type", "load_contacts"}};
            } else if constexpr (std::is_same_v<T, intent::AcceptRequest>) {
                return {{"type", "accept_request"}, {"request_id", i.request_id}};
            } else if constexpr (std::is_same_v<T, intent::DeclineRequest>) {
                return {{"type", "decline_request"}, {"request_id", i.request_id}};
            } else if constexpr (std::is_same_v<T, intent::SetPageVisible> || std::is_same_v<T, intent::PageRestored> ||
                                 std::is_same_v<T, intent::ClipboardCleared>) {
                std::abort();  // the platform's, never from the page API
            } else if constexpr (std::is_same_v<T, intent::ConsoleCall>) {
                json params = json::object();
                for (const auto& [name, value] : i.params) params[name] = value;
                return {{"type", "api_call"},
                        {"method", std::string(to_string(i.method))},
                        {"path", i.path},
                        {"params", params},
                        {"confirmed", i.confirmed},
                        {"anyway", i.anyway}};
            } else if constexpr (std::is_same_v<T, intent::ConfirmConsoleCall>) {
                return {{"type", "confirm_api_call"}};
            } else if constexpr (std::is_same_v<T, intent::CancelConsoleCall>) {
                return {{"type", "cancel_api_call"}};
            } else if constexpr (std::is_same_v<T, intent::AddScopes>) {
                return {{"type", "add_scopes"}, {"scope", i.scope}};
            } else if constexpr (std::is_same_v<T, intent::UploadFile>) {
                return {{"type", "upload_file"},   {"room_id", i.room_id},
                        {"name", i.name},          {"mime", i.mime},
                        {"data_base64", roomkey::base64_encode(i.data)}, {"message", i.message}};
            } else if constexpr (std::is_same_v<T, intent::OpenFile>) {
                return {{"type", "open_file"}, {"room_id", i.room_id}, {"file_id", i.file_id}};
            } else if constexpr (std::is_same_v<T, intent::PickFile> || std::is_same_v<T, intent::PreviewsOnScreen>) {
                std::abort();  // the UI's, never from the page API
            } else if constexpr (std::is_same_v<T, intent::ShowView>) {
                return {{"type", "show_view"}, {"view", i.developer ? "developer" : "workspace"}};
            } else if constexpr (std::is_same_v<T, intent::ShowDetails>) {
                return {{"type", "show_details"}, {"tab", std::string(app::to_string(i.tab))}};
            } else if constexpr (std::is_same_v<T, intent::SetRoomFilter>) {
                return {{"type", "set_room_filter"}, {"text", i.text}};
            } else if constexpr (std::is_same_v<T, intent::Reply>) {
                return {{"type", "reply"}, {"room_id", i.room_id}, {"message_id", i.message_id}};
            } else if constexpr (std::is_same_v<T, intent::Quote>) {
                return {{"type", "quote"}, {"room_id", i.room_id}, {"message_id", i.message_id}};
            } else if constexpr (std::is_same_v<T, intent::Mention>) {
                return {{"type", "mention"}, {"account_id", i.account_id}};
            } else if constexpr (std::is_same_v<T, intent::SelectText>) {
                return {{"type", "select_text"}, {"room_id", i.room_id}, {"message_id", i.message_id},
                        {"start", i.start}, {"end", i.end}};
            } else if constexpr (std::is_same_v<T, intent::CopySelection>) {
                return {{"type", "copy_selection"}};
            } else if constexpr (std::is_same_v<T, intent::EditMessage>) {
                return {{"type", "edit_message"}, {"room_id", i.room_id}, {"message_id", i.message_id}, {"body", i.body}};
            } else if constexpr (std::is_same_v<T, intent::DeleteMessage>) {
                return {{"type", "delete_message"}, {"room_id", i.room_id}, {"message_id", i.message_id}};
            } else if constexpr (std::is_same_v<T, intent::MessageMenu>) {
                if (i.item) return {{"type", "message_menu_choose"}, {"item", std::string(to_string(*i.item))}};
                return {{"type", "message_menu"}, {"room_id", i.room_id}, {"message_id", i.message_id}};
            } else if constexpr (std::is_same_v<T, intent::ReopenTask>) {
                return {{"type", "reopen_task"}, {"room_id", i.room_id}, {"task_id", i.task_id}};
            } else if constexpr (std::is_same_v<T, intent::SetNotifications>) {
                return {{"type", "set_notifications"}, {"on", i.on}};
            } else if constexpr (std::is_same_v<T, intent::NotificationPermission> ||
                                 std::is_same_v<T, intent::SelectionChanged>) {
                std::abort();  // the platform's, never from the page API
            } else if constexpr (std::is_same_v<T, intent::SetLanguage>) {
                return {{"type", "set_language"}, {"lang", std::string(roomkey::app::i18n::code(i.lang))}};
            } else {
                static_assert(std::is_same_v<T, intent::ClearLog>, "a new intent: teach this target to write it");
                return {{"type", "clear_log"}};
            }
        },
        intent);
}

bool same(const Intent& x, const Intent& y) {
    if (x.index() != y.index()) return false;
    return std::visit(
        [&y](const auto& a) -> bool {
            using T = std::decay_t<decltype(a)>;
            const T& b = std::get<T>(y);
            if constexpr (std::is_same_v<T, intent::SignIn>) return a.scopes == b.scopes;
            if constexpr (std::is_same_v<T, intent::RefreshScopes>) return a.scopes == b.scopes;
            if constexpr (std::is_same_v<T, intent::SetAutoRefresh>) return a.on == b.on;
            if constexpr (std::is_same_v<T, intent::UseApiToken>) return a.token == b.token;
            if constexpr (std::is_same_v<T, intent::SelectRoom>) return a.room_id == b.room_id;
            if constexpr (std::is_same_v<T, intent::SignOut>) return a.discard_posts == b.discard_posts;
            if constexpr (std::is_same_v<T, intent::RetryPost> || std::is_same_v<T, intent::DiscardPost>) {
                return a.id == b.id && a.local_id == b.local_id;
            }
            if constexpr (std::is_same_v<T, intent::EditPost>) {
                return a.id == b.id && a.body == b.body && a.local_id == b.local_id;
            }
            if constexpr (std::is_same_v<T, intent::TryAgain>) return a.sign_in == b.sign_in;
            if constexpr (std::is_same_v<T, intent::WaitingPosts>) return a.what == b.what;
            if constexpr (std::is_same_v<T, intent::SetSetting>) return a.name == b.name && a.value == b.value;
            if constexpr (std::is_same_v<T, intent::QueueMessage>) {
                return a.room_id == b.room_id && a.body == b.body && a.count == b.count;
            }
            if constexpr (std::is_same_v<T, intent::QueueTask>) {
                return a.room_id == b.room_id && a.body == b.body && a.to_ids == b.to_ids && a.limit == b.limit &&
                       a.limit_type == b.limit_type;
            }
            if constexpr (std::is_same_v<T, intent::CopyCurl>) {
                return a.entry_id == b.entry_id && a.may_reveal == b.may_reveal;
            }
            if constexpr (std::is_same_v<T, intent::CopyAs>) {
                return a.entry == b.entry && a.format == b.format && a.may_reveal == b.may_reveal;
            }
            if constexpr (std::is_same_v<T, intent::ExportHar>) return a.may_reveal == b.may_reveal;
            if constexpr (std::is_same_v<T, intent::SetLogFilter>) {
                return a.text == b.text && a.method == b.method && a.status == b.status;
            }
            if constexpr (std::is_same_v<T, intent::OpenRoom> || std::is_same_v<T, intent::LoadMessages> ||
                          std::is_same_v<T, intent::MarkRead>) {
                return a.room_id == b.room_id;
            }
            if constexpr (std::is_same_v<T, intent::CompleteTask>) {
                return a.room_id == b.room_id && a.task_id == b.task_id;
            }
            if constexpr (std::is_same_v<T, intent::AcceptRequest> || std::is_same_v<T, intent::DeclineRequest>) {
                return a.request_id == b.request_id;
            }
            if constexpr (std::is_same_v<T, intent::ConsoleCall>) {
                // Parameters come back in the JSON object's (sorted) order.
                auto sorted = [](FormFields f) {
                    std::sort(f.begin(), f.end());
                    return f;
                };
                return a.method == b.method && a.path == b.path && sorted(a.params) == sorted(b.params) &&
                       a.confirmed == b.confirmed && a.anyway == b.anyway;
            }
            if constexpr (std::is_same_v<T, intent::AddScopes>) return a.scope == b.scope;
            if constexpr (std::is_same_v<T, intent::UploadFile>) {
                return a.room_id == b.room_id && a.name == b.name && a.mime == b.mime && a.data == b.data &&
                       a.message == b.message && a.size == b.size;
            }
            if constexpr (std::is_same_v<T, intent::OpenFile>) return a.room_id == b.room_id && a.file_id == b.file_id;
            if constexpr (std::is_same_v<T, intent::ShowView>) return a.developer == b.developer;
            if constexpr (std::is_same_v<T, intent::ShowDetails>) return a.tab == b.tab;
            if constexpr (std::is_same_v<T, intent::SetRoomFilter>) return a.text == b.text;
            if constexpr (std::is_same_v<T, intent::Reply> || std::is_same_v<T, intent::Quote> ||
                          std::is_same_v<T, intent::DeleteMessage>) {
                return a.room_id == b.room_id && a.message_id == b.message_id;
            }
            if constexpr (std::is_same_v<T, intent::EditMessage>) {
                return a.room_id == b.room_id && a.message_id == b.message_id && a.body == b.body;
            }
            if constexpr (std::is_same_v<T, intent::Mention>) return a.account_id == b.account_id;
            if constexpr (std::is_same_v<T, intent::SelectText>) {
                return a.room_id == b.room_id && a.message_id == b.message_id && a.start == b.start && a.end == b.end;
            }
            if constexpr (std::is_same_v<T, intent::ReopenTask>) return a.room_id == b.room_id && a.task_id == b.task_id;
            if constexpr (std::is_same_v<T, intent::SetNotifications>) return a.on == b.on;
            if constexpr (std::is_same_v<T, intent::SetLanguage>) return a.lang == b.lang;
            if constexpr (std::is_same_v<T, intent::MessageMenu>) {
                return a.room_id == b.room_id && a.message_id == b.message_id && a.item == b.item;
            }
            return true;
        },
        x);
}

void check(const Intent& intent) {
    if (std::holds_alternative<intent::SetReveal>(intent)) std::abort();
    if (std::holds_alternative<intent::FormError>(intent)) std::abort();  // never from the page
    if (std::holds_alternative<intent::SetPageVisible>(intent)) std::abort();  // the platform's only
    if (std::holds_alternative<intent::PageRestored>(intent)) std::abort();
    if (std::holds_alternative<intent::ClipboardCleared>(intent)) std::abort();
    if (std::holds_alternative<intent::NotificationPermission>(intent) ||
        std::holds_alternative<intent::SelectionChanged>(intent)) {
        std::abort();  // the platform's
    }
    if (std::holds_alternative<intent::SeenLatest>(intent)) std::abort();  // the UI's
    if (std::holds_alternative<intent::PreviewsOnScreen>(intent)) std::abort();  // the UI's
    if (std::holds_alternative<intent::SetDraft>(intent)) std::abort();
    if (std::holds_alternative<intent::RestoreSettings>(intent)) std::abort();  // the platform's
    if (std::holds_alternative<intent::RestoreDrafts>(intent)) std::abort();
    if (const auto* e = std::get_if<intent::EditPost>(&intent); e && e->body.empty()) std::abort();
    if (const auto* copy = std::get_if<intent::CopyCurl>(&intent); copy && copy->may_reveal) std::abort();
    if (const auto* copy = std::get_if<intent::CopyAs>(&intent); copy && copy->may_reveal) std::abort();
    if (const auto* har = std::get_if<intent::ExportHar>(&intent); har && har->may_reveal) std::abort();
    if (const auto* m = std::get_if<intent::QueueMessage>(&intent)) {
        if (m->count < 1 || m->count > kMaxBurst || m->room_id.empty()) std::abort();
    }
    if (const auto* t = std::get_if<intent::QueueTask>(&intent)) {
        if (t->room_id.empty()) std::abort();
        for (const auto& id : t->to_ids) {
            if (id.empty()) std::abort();
        }
    }
    if (const auto* r = std::get_if<intent::SelectRoom>(&intent); r && r->room_id.empty()) std::abort();
    if (const auto* t = std::get_if<intent::SelectText>(&intent)) {
        if (t->room_id.empty() || t->message_id.empty() || t->end < t->start) std::abort();
    }
    // The page always names the message it opens the menu of (an empty one is the UI's way to close it).
    if (const auto* m = std::get_if<intent::MessageMenu>(&intent); m && !m->item && m->message_id.empty()) std::abort();
    if (const auto* s = std::get_if<intent::SignIn>(&intent)) {
        for (const auto& scope : s->scopes) {
            if (!is_known_scope(scope)) std::abort();
        }
    }
    if (const auto* t = std::get_if<intent::UseApiToken>(&intent); t && t->token.empty()) std::abort();

    auto again = parse_action(write(intent).dump());
    if (!again || !same(*again, intent)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    auto one = parse_action(input);
    if (one) {
        check(*one);
    } else if (one.error().empty()) {
        std::abort();
    }

    std::vector<std::string> errors;
    const std::vector<Intent> intents = parse_actions(input, errors);
    for (const auto& e : errors) {
        if (e.empty()) std::abort();
    }
    for (const auto& i : intents) check(i);
    const json array = json::parse(input, nullptr, false);
    if (!array.is_discarded() && array.is_array()) {
        if (intents.size() + errors.size() != array.size()) std::abort();
    } else if (!intents.empty() || errors.size() != 1) {
        std::abort();
    }
    return 0;
}
