// intents.cpp: reading the page API's JSON actions into intents.
#include "app/intents.hpp"

#include <nlohmann/json.hpp>

#include "app/settings.hpp"
#include "roomkey/encoding.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/json_text.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

// Ids arrive as strings or as integers; both become the digits as text.
// An id of the service (a room, an account): a string or a number, and
// either way what is_resource_id accepts, so no script can make the app
// build a path out of "../me" or "-1".
bool id_of(const json& value, std::string& out) {
    if (value.is_string()) {
        out = value.get<std::string>();
    } else if (value.is_number_unsigned()) {
        out = std::to_string(value.get<std::uint64_t>());
    } else if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
        out = std::to_string(value.get<std::int64_t>());
    } else {
        return false;
    }
    return is_resource_id(out);
}

// Text, flags and integers are read by the one rule of json_text.hpp
// (read_required, read_optional: a null member is an absent one). An id is
// neither text nor an integer but either one (id_of above), and a post's or
// a log entry's number is the app's own unsigned count: read here.
bool read_id(const json& object, const char* name, std::string& out) {
    return object.contains(name) && id_of(object[name], out);
}

Result<Intent, std::string> missing(const std::string& type, const char* field) {
    return Err{"action " + type + ": \"" + field + "\" is missing or of the wrong type"};
}

Result<Intent, std::string> bad_id(const std::string& type, const char* field) {
    return Err{"action " + type + ": \"" + field +
               "\" must be an id of the service (1 to 20 digits, as a string or a number)"};
}

Result<Intent, std::string> parse_object(const json& action) {
    if (!action.is_object()) return Err{std::string("an action must be a JSON object")};
    std::string type;
    if (!read_required(action, "type", type)) return Err{std::string("an action needs a \"type\" string")};

    if (type == "sign_in") {
        std::string scope;
        if (!read_required(action, "scope", scope)) return missing(type, "scope");
        auto scopes = parse_scope_list(scope);
        if (!scopes) return Err{"action sign_in: \"scope\" is not a list of known scopes: " + scope};
        return Intent{intent::SignIn{std::move(*scopes)}};
    }
    if (type == "sign_out") {
        bool discard = false;
        if (!read_optional(action, "discard_posts", discard)) {
            return missing(type, "discard_posts");
        }
        return Intent{intent::SignOut{discard}};
    }
    if (type == "cancel_sign_out") return Intent{intent::CancelSignOut{}};
    if (type == "retry_post" || type == "discard_post" || type == "edit_post") {
        // By the queue's id, or by the conversation's local_id (a post kept across a reload has only that).
        std::string local;
        const bool by_local = read_required(action, "local_id", local) && !local.empty();
        if (!by_local && (!action.contains("id") || !action["id"].is_number_unsigned())) return missing(type, "id");
        const auto id = by_local ? 0 : action["id"].get<std::uint64_t>();
        if (type == "retry_post") return Intent{intent::RetryPost{id, local}};
        if (type == "discard_post") return Intent{intent::DiscardPost{id, local}};
        std::string body;
        if (!read_required(action, "body", body) || body.empty()) return missing(type, "body");
        return Intent{intent::EditPost{id, std::move(body), local}};
    }
    if (type == "try_again") {
        bool sign_in = false;
        if (!read_optional(action, "sign_in", sign_in)) return missing(type, "sign_in");
        return Intent{intent::TryAgain{sign_in}};
    }
    if (type == "refresh_now") return Intent{intent::RefreshNow{}};
    if (type == "refresh_scopes") {
        std::string scope;
        if (!read_required(action, "scope", scope)) return missing(type, "scope");
        auto scopes = parse_scope_list(scope);
        if (!scopes) return Err{"action refresh_scopes: \"scope\" is not a list of known scopes: " + scope};
        return Intent{intent::RefreshScopes{std::move(*scopes)}};
    }
    if (type == "set_auto_refresh") {
        bool on = true;
        if (!read_required(action, "on", on)) return missing(type, "on");
        return Intent{intent::SetAutoRefresh{on}};
    }
    if (type == "use_api_token") {
        std::string token;
        if (!read_required(action, "token", token) || token.empty()) return missing(type, "token");
        return Intent{intent::UseApiToken{std::move(token)}};
    }
    if (type == "reload_account") return Intent{intent::ReloadAccount{}};
    if (type == "reload_rooms") return Intent{intent::ReloadRooms{}};
    if (type == "select_room") {
        std::string room;
        if (!read_id(action, "room_id", room)) return bad_id(type, "room_id");
        return Intent{intent::SelectRoom{std::move(room)}};
    }
    if (type == "post_message") {
        intent::QueueMessage message;
        if (!read_id(action, "room_id", message.room_id)) return bad_id(type, "room_id");
        if (!read_required(action, "body", message.body)) return missing(type, "body");
        std::int64_t count = message.count;
        if (!read_optional(action, "count", count)) return missing(type, "count");
        if (count < 1 || count > kMaxBurst) {
            return Err{"action post_message: \"count\" must be 1 to " + std::to_string(kMaxBurst)};
        }
        message.count = static_cast<int>(count);
        return Intent{std::move(message)};
    }
    if (type == "post_task") {
        intent::QueueTask task;
        if (!read_id(action, "room_id", task.room_id)) return bad_id(type, "room_id");
        if (!read_required(action, "body", task.body)) return missing(type, "body");
        if (!action.contains("to_ids") || !action["to_ids"].is_array()) return missing(type, "to_ids");
        for (const json& id : action["to_ids"]) {
            std::string text;
            if (!id_of(id, text)) return bad_id(type, "to_ids");
            task.to_ids.push_back(std::move(text));
        }
        if (!read_optional(action, "limit", task.limit)) return missing(type, "limit");
        std::string limit_type = task.limit ? "date" : "none";
        if (!read_optional(action, "limit_type", limit_type)) {
            return missing(type, "limit_type");
        }
        if (limit_type == "none") {
            task.limit_type = TaskLimitType::none;
        } else if (limit_type == "date") {
            task.limit_type = TaskLimitType::date;
        } else if (limit_type == "time") {
            task.limit_type = TaskLimitType::time;
        } else {
            return Err{"action post_task: \"limit_type\" must be none, date or time"};
        }
        return Intent{std::move(task)};
    }
    if (type == "cancel_queued") return Intent{intent::CancelQueued{}};
    if (type == "send_waiting_posts") return Intent{intent::WaitingPosts{intent::WaitingPosts::send}};
    if (type == "review_waiting_posts") return Intent{intent::WaitingPosts{intent::WaitingPosts::review}};
    if (type == "discard_waiting_posts") return Intent{intent::WaitingPosts{intent::WaitingPosts::discard}};
    if (type == "clear_finished_posts") return Intent{intent::ClearFinishedPosts{}};
    if (type == "set_reveal") {
        // The page API is open to every script on the page: revealed secrets
        // must not become something a script can ask for.
        return Err{
            std::string("action set_reveal is not available through the page API: reveal secrets in the "
                        "app's HTTP log panel")};
    }
    if (type == "copy_curl") {
        if (!action.contains("entry") || !action["entry"].is_number_unsigned()) return missing(type, "entry");
        // may_reveal stays false: a copy the page API asks for is always masked.
        return Intent{intent::CopyCurl{action["entry"].get<std::uint64_t>(), false}};
    }
    if (type == "copy_as") {
        intent::CopyAs copy;
        std::string format;
        if (!read_required(action, "format", format) || !parse_snippet_format(format)) {
            return Err{std::string(
                "action copy_as: \"format\" must be one of curl_service, curl_helper, fetch, python")};
        }
        copy.format = *parse_snippet_format(format);
        if (action.contains("entry") && !action["entry"].is_null()) {
            if (!action["entry"].is_number_unsigned()) return missing(type, "entry");
            copy.entry = action["entry"].get<std::uint64_t>();
        }
        // may_reveal stays false: a copy the page API asks for is always masked.
        return Intent{copy};
    }
    if (type == "export_har") return Intent{intent::ExportHar{}};  // masked: see copy_curl
    if (type == "set_log_filter") {
        intent::SetLogFilter filter;
        for (auto [name, out] : {std::pair{"text", &filter.text}, {"method", &filter.method}, {"status", &filter.status}}) {
            if (!read_optional(action, name, *out)) return missing(type, name);
        }
        return Intent{std::move(filter)};
    }
    if (type == "clear_log") return Intent{intent::ClearLog{}};
    // The room view, my tasks and contacts.
    if (type == "open_room" || type == "load_messages" || type == "mark_read" || type == "complete_task") {
        std::string room;
        if (!read_id(action, "room_id", room)) return missing(type, "room_id");
        if (type == "open_room") return Intent{intent::OpenRoom{std::move(room)}};
        if (type == "load_messages") return Intent{intent::LoadMessages{std::move(room)}};
        if (type == "mark_read") return Intent{intent::MarkRead{std::move(room)}};
        std::string task;
        if (!read_id(action, "task_id", task)) return missing(type, "task_id");
        return Intent{intent::CompleteTask{std::move(room), std::move(task)}};
    }
    // The workspace.
    if (type == "show_view") {
        std::string view;
        if (!read_required(action, "view", view) || (view != "workspace" && view != "developer")) {
            return Err{std::string("action show_view: \"view\" must be \"workspace\" or \"developer\"")};
        }
        return Intent{intent::ShowView{view == "developer"}};
    }
    if (type == "show_details") {
        std::string tab;
        const auto named = read_required(action, "tab", tab) ? details_tab_named(tab) : std::nullopt;
        if (!named) {
            return Err{
                std::string("action show_details: \"tab\" must be \"tasks\", \"members\", \"files\" or \"none\"")};
        }
        return Intent{intent::ShowDetails{*named}};
    }
    if (type == "set_room_filter") {
        std::string text;
        if (!read_required(action, "text", text)) return missing(type, "text");
        return Intent{intent::SetRoomFilter{std::move(text)}};
    }
    if (type == "set_language") {
        std::string lang;
        if (!read_required(action, "lang", lang)) return missing(type, "lang");
        const auto parsed = lang.find('-') == std::string::npos ? i18n::parse_tag(lang) : std::nullopt;
        if (!parsed) return Err{"action set_language: \"lang\" must be \"ja\" or \"en\", not \"" + lang + "\""};
        return Intent{intent::SetLanguage{*parsed}};
    }
    if (type == "set_notifications") {
        bool on = false;
        if (!read_required(action, "on", on)) return missing(type, "on");
        return Intent{intent::SetNotifications{on}};
    }
    if (type == "set_setting") {
        std::string name;
        if (!read_required(action, "name", name)) return missing(type, "name");
        const json& v = action.contains("value") ? action["value"] : json();
        const std::string value = v.is_string() ? v.get<std::string>() : v.is_boolean() ? v.dump() : "";
        const std::string why = Settings::check(name, value);
        if (!why.empty()) return Err{"action set_setting: " + why};
        return Intent{intent::SetSetting{std::move(name), value}};
    }
    if (type == "mention") {
        std::string account;
        if (!read_id(action, "account_id", account)) return missing(type, "account_id");
        return Intent{intent::Mention{std::move(account)}};
    }
    if (type == "message_menu_choose") {
        std::string name;
        read_optional(action, "item", name);
        if (const auto item = menu_item_named(name)) return Intent{intent::MessageMenu{"", "", item}};
        return Err{"action message_menu_choose: \"item\" must be one of reply, quote, copy_text, copy_link, edit, "
                   "delete, add_task"};
    }
    if (type == "reply" || type == "quote" || type == "edit_message" || type == "delete_message" ||
        type == "reopen_task" || type == "message_menu") {
        std::string room;
        if (!read_id(action, "room_id", room)) return missing(type, "room_id");
        if (type == "reopen_task") {
            std::string task;
            if (!read_id(action, "task_id", task)) return missing(type, "task_id");
            return Intent{intent::ReopenTask{std::move(room), std::move(task)}};
        }
        std::string message;
        if (!read_id(action, "message_id", message)) return missing(type, "message_id");
        if (type == "reply") return Intent{intent::Reply{std::move(room), std::move(message)}};
        if (type == "quote") return Intent{intent::Quote{std::move(room), std::move(message)}};
        if (type == "message_menu") return Intent{intent::MessageMenu{std::move(room), std::move(message), {}}};
        if (type == "delete_message") return Intent{intent::DeleteMessage{std::move(room), std::move(message)}};
        std::string body;
        if (!read_required(action, "body", body)) return missing(type, "body");
        return Intent{intent::EditMessage{std::move(room), std::move(message), std::move(body)}};
    }
    if (type == "select_text") {
        intent::SelectText select;
        if (!read_id(action, "room_id", select.room_id)) return bad_id(type, "room_id");
        if (!read_id(action, "message_id", select.message_id)) return bad_id(type, "message_id");
        for (auto [name, out] : {std::pair{"start", &select.start}, std::pair{"end", &select.end}}) {
            if (!action.contains(name) || !action[name].is_number_unsigned()) {
                return Err{"action select_text: \"" + std::string(name) +
                           "\" must be a character position (a whole number from 0) in the message's text"};
            }
            *out = action[name].get<std::uint64_t>();
        }
        if (select.end < select.start) return Err{std::string("action select_text: \"end\" is before \"start\"")};
        return Intent{std::move(select)};
    }
    if (type == "copy_selection") return Intent{intent::CopySelection{}};
    if (type == "load_my_tasks") return Intent{intent::LoadMyTasks{}};
    if (type == "load_contacts") return Intent{intent::LoadContacts{}};
    if (type == "accept_request" || type == "decline_request") {
        std::string request;
        if (!read_id(action, "request_id", request)) return missing(type, "request_id");
        if (type == "accept_request") return Intent{intent::AcceptRequest{std::move(request)}};
        return Intent{intent::DeclineRequest{std::move(request)}};
    }
    if (type == "api_call") {
        intent::ConsoleCall call;
        std::string method;
        if (!read_required(action, "method", method)) return missing(type, "method");
        if (method == "GET") {
            call.method = Method::Get;
        } else if (method == "POST") {
            call.method = Method::Post;
        } else if (method == "PUT") {
            call.method = Method::Put;
        } else if (method == "DELETE") {
            call.method = Method::Delete;
        } else {
            return Err{"action api_call: \"method\" must be GET, POST, PUT or DELETE"};
        }
        if (!read_required(action, "path", call.path) || call.path.empty()) return missing(type, "path");
        if (action.contains("params")) {
            if (!action["params"].is_object()) return missing(type, "params");
            for (const auto& [name, value] : action["params"].items()) {
                std::string text;
                if (value.is_string()) {
                    text = value.get<std::string>();
                } else if (!id_of(value, text)) {
                    return Err{"action api_call: parameter \"" + name + "\" must be a string or a whole number"};
                }
                call.params.emplace_back(name, std::move(text));
            }
        }
        if (!read_optional(action, "confirmed", call.confirmed)) {
            return missing(type, "confirmed");
        }
        if (!read_optional(action, "anyway", call.anyway)) return missing(type, "anyway");
        return Intent{std::move(call)};
    }
    if (type == "confirm_api_call") return Intent{intent::ConfirmConsoleCall{}};
    if (type == "cancel_api_call") return Intent{intent::CancelConsoleCall{}};
    if (type == "upload_file" || type == "attach_file") {
        intent::UploadFile upload;
        if (!read_id(action, "room_id", upload.room_id)) return bad_id(type, "room_id");
        if (!read_required(action, "name", upload.name) || upload.name.empty()) return missing(type, "name");
        if (!read_optional(action, "mime", upload.mime)) {
            return missing(type, "mime");
        }
        std::string base64;
        if (!read_required(action, "data_base64", base64)) return missing(type, "data_base64");
        auto data = base64_decode(base64);
        if (!data) return Err{"action upload_file: \"data_base64\" is not base64 (" + std::string(to_string(data.error())) + ")"};
        upload.data = std::move(*data);
        if (!read_optional(action, "message", upload.message)) {
            return missing(type, "message");
        }
        return Intent{std::move(upload)};
    }
    if (type == "open_file") {
        intent::OpenFile open;
        if (!read_id(action, "room_id", open.room_id)) return bad_id(type, "room_id");
        if (!read_id(action, "file_id", open.file_id)) return bad_id(type, "file_id");
        return Intent{std::move(open)};
    }
    if (type == "add_scopes") {
        std::string scope;
        if (!read_required(action, "scope", scope) || scope.empty()) return missing(type, "scope");
        return Intent{intent::AddScopes{std::move(scope)}};
    }
    return Err{"unknown action type \"" + type + "\""};
}

}  // namespace

Result<Intent, std::string> parse_action(std::string_view json_text) {
    const json action = roomkey::parse_json_text(json_text);
    if (action.is_discarded()) return Err{std::string("the action is not JSON")};
    return parse_object(action);
}

std::vector<Intent> parse_actions(std::string_view json_array, std::vector<std::string>& errors) {
    std::vector<Intent> intents;
    const json actions = roomkey::parse_json_text(json_array);
    if (actions.is_discarded() || !actions.is_array()) {
        errors.emplace_back("the action list is not a JSON array");
        return intents;
    }
    for (const json& action : actions) {
        auto parsed = parse_object(action);
        if (parsed) {
            intents.push_back(std::move(*parsed));
        } else {
            errors.push_back(parsed.error());
        }
    }
    return intents;
}

}  // namespace roomkey::app
