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
                features_.open_room.open(i.room_id, now);
            } else if constexpr (std::is_same_v<T, intent::LoadMessages>) {
                features_.open_room.load_messages(i.room_id, now);
            } else if constexpr (std::is_same_v<T, intent::MarkRead>) {
                features_.open_room.mark_read(i.room_id, now);
            } else if constexpr (std::is_same_v<T, intent::CompleteTask>) {
                features_.open_room.set_task_status(i.room_id, i.task_id, "done", now);
            } else if constexpr (std::is_same_v<T, intent::ReopenTask>) {
                features_.open_room.set_task_status(i.room_id, i.task_id, "open", now);
            } else if constexpr (std::is_same_v<T, intent::UploadFile>) {
                features_.open_room.upload(i, now);
            } else if constexpr (std::is_same_v<T, intent::PickFile>) {
                features_.open_room.ensure_open(i.room_id, now);
                effects_.push_back(effect::PickFile{i.room_id, i.message});
            } else if constexpr (std::is_same_v<T, intent::OpenFile>) {
                features_.open_room.open_file(i, now);
            } else if constexpr (std::is_same_v<T, intent::LoadMyTasks>) {
                features_.my_tasks.load(now);
            } else if constexpr (std::is_same_v<T, intent::LoadContacts>) {
                features_.contacts.load(now);
            } else if constexpr (std::is_same_v<T, intent::AcceptRequest>) {
                features_.contacts.accept(i.request_id, now);
            } else if constexpr (std::is_same_v<T, intent::DeclineRequest>) {
                features_.contacts.decline(i.request_id, now);
            } else if constexpr (std::is_same_v<T, intent::SetPageVisible>) {
                features_.page_visible = i.visible;
            } else if constexpr (std::is_same_v<T, intent::ConsoleCall>) {
                features_.console.call(i, console_scopes(), now);
            } else if constexpr (std::is_same_v<T, intent::ConfirmConsoleCall>) {
                features_.console.confirm(now);
            } else if constexpr (std::is_same_v<T, intent::CancelConsoleCall>) {
                features_.console.cancel();
            } else if constexpr (std::is_same_v<T, intent::EditMessage>) {
                features_.console.edit(i, console_scopes(), now);
            } else if constexpr (std::is_same_v<T, intent::DeleteMessage>) {
                features_.console.remove(i, console_scopes(), now);
            } else if constexpr (std::is_same_v<T, intent::AddScopes>) {
                add_scopes(i, now);
            } else if constexpr (std::is_same_v<T, intent::ShowView>) {
                features_.workspace.show(i.developer ? View::developer : View::workspace);
            } else if constexpr (std::is_same_v<T, intent::SetRoomFilter>) {
                features_.workspace.set_room_filter(i.text);
            } else if constexpr (std::is_same_v<T, intent::Reply>) {
                if (features_.open_room.view().room_id() == i.room_id)
                    features_.workspace.reply(features_.open_room.view(), i.message_id);
            } else if constexpr (std::is_same_v<T, intent::Quote>) {
                if (features_.open_room.view().room_id() == i.room_id)
                    features_.workspace.quote(features_.open_room.view(), i.message_id);
            } else if constexpr (std::is_same_v<T, intent::Mention>) {
                features_.workspace.mention(features_.open_room.view(), i.account_id);
            } else if constexpr (std::is_same_v<T, intent::SetNotifications>) {
                features_.workspace.set_notifications(i.on);
            } else if constexpr (std::is_same_v<T, intent::NotificationPermission>) {
                features_.workspace.set_permission(i.permission);
                if (i.permission != "granted") features_.workspace.set_notifications(false);
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
    if (!config_load_.value || holder() == CredentialHolder::api_token) {
        UserError error;
        error.title = "Cannot add a scope";
        error.message = holder() == CredentialHolder::api_token
                            ? "An API token's scopes are set when it is created, not here."
                            : "roomkey-helper's configuration is not loaded yet.";
        error.remedy =
            holder() == CredentialHolder::api_token ? "Sign in with OAuth to choose scopes." : "Try again in a moment.";
        set_error(std::move(error));
        return;
    }
    const ScopeSet* held = granted_scopes();
    const ScopeSet granted = held ? *held : sign_in_.requested_scopes();
    auto scopes = scopes_adding(granted, i.scope, config_load_.value->client_type);
    if (!scopes) {
        UserError error;
        error.title = "Cannot add " + i.scope;
        error.message = describe(scopes.error(), i.scope);
        set_error(std::move(error));
        return;
    }
    start_sign_in(*scopes, now);
}

}  // namespace roomkey::app
