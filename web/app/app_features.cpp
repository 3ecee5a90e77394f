// app_features.cpp: the features' intents, each forwarded to the feature
// that owns it (dashboard.hpp, open_room.hpp, my_tasks.hpp, contacts.hpp,
// api_console.hpp, workspace.hpp; "sign in again adding a scope" is sign_in.hpp's).
#include <type_traits>

#include "app/app.hpp"

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
                if (auto scopes = sign_in_.adding(i.scope, granted_scopes())) start_sign_in(*scopes, now);
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

}  // namespace roomkey::app
