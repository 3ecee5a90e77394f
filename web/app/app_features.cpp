// app_features.cpp: the features' intents, each forwarded to the feature
// that owns it (dashboard.hpp, open_room.hpp, my_tasks.hpp, contacts.hpp,
// api_console.hpp, workspace.hpp), plus "sign in again adding a scope".
#include <type_traits>

#include "app/app.hpp"
#include "roomkey/incremental_consent.hpp"

namespace roomkey::app {

void App::apply_feature(const Intent& intent, Instant now) {
    std::visit(
        [&](const auto& i) {
            using T = std::decay_t<decltype(i)>;
            if constexpr (std::is_same_v<T, intent::OpenRoom>) {
                open_room_.open(i.room_id, now);
            } else if constexpr (std::is_same_v<T, intent::LoadMessages>) {
                open_room_.load_messages(i.room_id, now);
            } else if constexpr (std::is_same_v<T, intent::MarkRead>) {
                open_room_.mark_read(i.room_id, now);
            } else if constexpr (std::is_same_v<T, intent::CompleteTask>) {
                open_room_.set_task_status(i.room_id, i.task_id, "done", now);
            } else if constexpr (std::is_same_v<T, intent::ReopenTask>) {
                open_room_.set_task_status(i.room_id, i.task_id, "open", now);
            } else if constexpr (std::is_same_v<T, intent::UploadFile>) {
                open_room_.upload(i, now);
            } else if constexpr (std::is_same_v<T, intent::PickFile>) {
                open_room_.ensure_open(i.room_id, now);
                effects_.push_back(effect::PickFile{i.room_id, i.message});
            } else if constexpr (std::is_same_v<T, intent::OpenFile>) {
                open_room_.open_file(i, now);
            } else if constexpr (std::is_same_v<T, intent::LoadMyTasks>) {
                my_tasks_.load(now);
            } else if constexpr (std::is_same_v<T, intent::LoadContacts>) {
                contacts_.load(now);
            } else if constexpr (std::is_same_v<T, intent::AcceptRequest>) {
                contacts_.accept(i.request_id, now);
            } else if constexpr (std::is_same_v<T, intent::DeclineRequest>) {
                contacts_.decline(i.request_id, now);
            } else if constexpr (std::is_same_v<T, intent::SetPageVisible>) {
                page_visible_ = i.visible;
            } else if constexpr (std::is_same_v<T, intent::ConsoleCall>) {
                console_.call(i, console_scopes(), now);
            } else if constexpr (std::is_same_v<T, intent::ConfirmConsoleCall>) {
                console_.confirm(now);
            } else if constexpr (std::is_same_v<T, intent::CancelConsoleCall>) {
                console_.cancel();
            } else if constexpr (std::is_same_v<T, intent::EditMessage>) {
                console_.edit(i, console_scopes(), now);
            } else if constexpr (std::is_same_v<T, intent::DeleteMessage>) {
                console_.remove(i, console_scopes(), now);
            } else if constexpr (std::is_same_v<T, intent::AddScopes>) {
                add_scopes(i, now);
            } else if constexpr (std::is_same_v<T, intent::ShowView>) {
                workspace_.show(i.developer ? View::developer : View::workspace);
            } else if constexpr (std::is_same_v<T, intent::SetRoomFilter>) {
                workspace_.set_room_filter(i.text);
            } else if constexpr (std::is_same_v<T, intent::Reply>) {
                if (room().room_id() == i.room_id) workspace_.reply(room(), i.message_id);
            } else if constexpr (std::is_same_v<T, intent::Quote>) {
                if (room().room_id() == i.room_id) workspace_.quote(room(), i.message_id);
            } else if constexpr (std::is_same_v<T, intent::Mention>) {
                workspace_.mention(room(), i.account_id);
            } else if constexpr (std::is_same_v<T, intent::SetNotifications>) {
                workspace_.set_notifications(i.on);
            } else if constexpr (std::is_same_v<T, intent::NotificationPermission>) {
                workspace_.set_permission(i.permission);
                if (i.permission != "granted") workspace_.set_notifications(false);
            }
        },
        intent);
}

// An API token's scopes are not known to the client: the service decides.
std::optional<ScopeSet> App::console_scopes() const {
    if (!oauth_grant()) return std::nullopt;
    const ScopeSet* scopes = granted_scopes();
    return scopes ? *scopes : ScopeSet{};
}

// "Sign in again adding <scope>": a new authorization request for the union
// of the granted scopes and that one.
void App::add_scopes(const intent::AddScopes& i, Instant now) {
    if (!config_ || holder() == CredentialHolder::api_token) {
        UserError error;
        error.title = "Cannot add a scope";
        error.message = holder() == CredentialHolder::api_token ? "An API token's scopes are set when it is created, not here."
                                                 : "roomkey-helper's configuration is not loaded yet.";
        error.remedy = holder() == CredentialHolder::api_token ? "Sign in with OAuth to choose scopes." : "Try again in a moment.";
        set_error(std::move(error));
        return;
    }
    const ScopeSet* held = granted_scopes();
    const ScopeSet granted = held ? *held : requested_scopes_;
    auto scopes = scopes_adding(granted, i.scope, config_->client_type);
    if (!scopes) {
        UserError error;
        error.title = "Cannot add " + i.scope;
        error.message = describe(scopes.error(), i.scope);
        set_error(std::move(error));
        return;
    }
    sign_in(*scopes, now);
}

}  // namespace roomkey::app
