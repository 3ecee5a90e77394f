// app_intents.cpp: every intent to its owner, one line each: the sign-in and
// the BFF panel, the features (features.hpp), the log's copies (copies.hpp),
// the menu's items (menu_action.hpp) or what the user is told (feedback.hpp). The overload set has no catch-all, so an intent without an owner
// does not compile.
#include "app/app.hpp"
#include "app/i18n.hpp"
#include "app/menu_action.hpp"

namespace roomkey::app {

namespace {

template <class... Routes>
struct Overloaded : Routes... {
    using Routes::operator()...;
};
template <class... Routes>
Overloaded(Routes...) -> Overloaded<Routes...>;

// An API token's scopes are not known to the client: the service decides.
std::optional<ScopeSet> console_scopes(const App& app) {
    if (!app.oauth_grant()) return std::nullopt;
    const ScopeSet* scopes = app.session_shown().granted_scopes();
    return scopes ? *scopes : ScopeSet{};
}

}  // namespace

void App::apply(const Intent& intent, Instant now) {
    Posting& posting = features_.posting;
    OpenRoom& room = features_.open_room;
    Workspace& workspace = features_.workspace;
    ApiConsole& console = features_.console;
    std::visit(
        Overloaded{
            // ---- the session: sign-in, the BFF panel, sign-out ----
            [&](const intent::SignIn& i) { start_sign_in(i.scopes, now); },
            [&](const intent::SignOut& i) {
                const long open = posting.open_posts();
                if (!feedback_.sign_out_may_go(open, i.discard_posts)) return;
                if (i.discard_posts) posting.discard_open();
                sign_out(now);
                feedback_.set_notice(open > 0 ? tr_n("notice.signed_out_discarded", open) : tr("notice.signed_out"));
            },
            [&](const intent::CancelSignOut&) { feedback_.cancel_sign_out(); },
            [&](const intent::TryAgain& i) {
                const bool retry = i.sign_in && last_error() && last_error()->offers_try_again;
                feedback_.clear();
                sign_in_.try_again();
                if (!config() && !config_.loading()) fetch_config(now);
                // Signed out, the thing to try again is the sign-in: it starts anew.
                if (retry && !client_.can_send() && config() && config()->configured)
                    start_sign_in(config()->default_scopes, now);
            },
            // In BFF mode the helper refreshes (POST /bff/refresh {"scope": ...}).
            [&](const intent::RefreshNow&) {
                if (holder() == CredentialHolder::helper)
                    bff_.refresh(std::nullopt, now);
                else
                    sign_in_.refresh_now(now);
            },
            [&](const intent::RefreshScopes& i) {
                if (holder() == CredentialHolder::helper)
                    bff_.refresh(i.scopes, now);
                else
                    sign_in_.refresh_with_scopes(i.scopes, now);
            },
            [&](const intent::SetAutoRefresh& i) { sign_in_.set_auto_refresh(i.on, now); },
            [&](const intent::UseApiToken& i) { sign_in_.use_api_token(i.token, now); },
            [&](const intent::AddScopes& i) {
                if (auto scopes = sign_in_.adding(i.scope, session_shown().granted_scopes())) start_sign_in(*scopes, now);
            },
            [&](const intent::PageRestored&) { page_restored(now); },
            [&](const intent::FormError& i) { feedback_.set_form_error(i.message); },
            // ---- posting (with recovery) ----
            [&](const intent::RetryPost& i) {
                i.local_id.empty() ? posting.retry(i.id, std::nullopt, now) : posting.retry_local(i.local_id, {}, now);
            },
            [&](const intent::EditPost& i) {
                i.local_id.empty() ? posting.retry(i.id, i.body, now) : posting.retry_local(i.local_id, i.body, now);
            },
            [&](const intent::DiscardPost& i) {
                i.local_id.empty() ? posting.discard(i.id) : posting.discard_local(i.local_id);
            },
            [&](const intent::WaitingPosts& i) {
                if (i.what == intent::WaitingPosts::send) posting.send_waiting(now);
                if (i.what == intent::WaitingPosts::review) posting.review_waiting(now);
                if (i.what == intent::WaitingPosts::discard) posting.discard_waiting();
            },
            [&](const intent::QueueMessage& i) { posting.queue_message(i, now); },
            [&](const intent::QueueTask& i) { posting.queue_task(i, now); },
            [&](const intent::CancelQueued&) { posting.cancel_queued(); },
            [&](const intent::ClearFinishedPosts&) { posting.clear_finished(); },
            // ---- the dashboard, my tasks, contacts ----
            [&](const intent::ReloadAccount&) { features_.dashboard.reload_account(now); },
            [&](const intent::ReloadRooms&) { features_.dashboard.reload_rooms(now); },
            [&](const intent::SelectRoom& i) { features_.dashboard.select_room(i.room_id); },
            [&](const intent::LoadMyTasks&) { features_.my_tasks.load(now); },
            [&](const intent::LoadContacts&) { features_.contacts.load(now); },
            [&](const intent::AcceptRequest& i) { features_.contacts.accept(i.request_id, now); },
            [&](const intent::DeclineRequest& i) { features_.contacts.decline(i.request_id, now); },
            // ---- the open room and its files ----
            [&](const intent::OpenRoom& i) {
                // Another room opens with its details closed (the address says so at once).
                if (room.view().room_id() != i.room_id) workspace.show_details(DetailsTab::none);
                room.open(i.room_id, now);
            },
            [&](const intent::LoadMessages& i) { room.load_messages(i.room_id, now); },
            [&](const intent::MarkRead& i) { room.mark_read(i.room_id, now); },
            [&](const intent::SeenLatest& i) { room.seen_latest(i.room_id, now); },
            [&](const intent::CompleteTask& i) { room.set_task_status(i.room_id, i.task_id, "done", now); },
            [&](const intent::ReopenTask& i) { room.set_task_status(i.room_id, i.task_id, "open", now); },
            [&](const intent::UploadFile& i) {
                room.upload(i, now);
                // The composer's text went with the file: it is not a draft any more.
                if (!i.message.empty() && workspace.drafts().text(i.room_id) == i.message) {
                    workspace.drafts().set(i.room_id, "");
                }
            },
            [&](const intent::PickFile& i) {
                room.ensure_open(i.room_id, now);
                effects_.push_back(effect::PickFile{i.room_id, i.message});
            },
            [&](const intent::OpenFile& i) { room.open_file(i, now); },
            // ---- the API console ----
            [&](const intent::ConsoleCall& i) { console.call(i, console_scopes(*this), now); },
            [&](const intent::ConfirmConsoleCall&) { console.confirm(now); },
            [&](const intent::CancelConsoleCall&) { console.cancel(); },
            [&](const intent::EditMessage& i) { console.edit(i, console_scopes(*this), now); },
            [&](const intent::DeleteMessage& i) { console.remove(i, console_scopes(*this), now); },
            // ---- the workspace ----
            [&](const intent::SetPageVisible& i) {
                features_.page_visible = i.visible;
                features_.previews.resume(now);
            },
            [&](const intent::PreviewsOnScreen& i) { features_.previews.on_screen(i.room_id, i.file_ids, now); },
            [&](const intent::ShowView& i) { workspace.show(i.developer ? View::developer : View::workspace); },
            [&](const intent::ShowDetails& i) { workspace.show_details(i.tab); },
            [&](const intent::SetRoomFilter& i) { workspace.set_room_filter(i.text); },
            [&](const intent::Reply& i) {
                if (room.view().room_id() == i.room_id) workspace.reply(room.view(), i.message_id);
            },
            [&](const intent::Quote& i) {
                if (room.view().room_id() == i.room_id) workspace.quote(room.view(), i.message_id);
            },
            [&](const intent::MessageMenu& i) {
                if (i.item) {
                    MenuAction done = choose_menu_item(features_, *i.item, now);
                    told(std::move(done.told));
                    return done.remove ? apply(*done.remove, now) : void();
                }
                if (i.message_id.empty()) return features_.message_menu.close();
                const auto& me = features_.dashboard.account().value;
                features_.message_menu.open(room.view(), i.room_id, i.message_id, me ? me->account_id : "");
            },
            [&](const intent::Mention& i) { workspace.mention(room.view(), i.account_id); },
            [&](const intent::SelectText& i) {
                if (room.view().room_id() == i.room_id) effects_.push_back(effect::SelectText{i.message_id, i.start, i.end});
            },
            [&](const intent::CopySelection&) { effects_.push_back(effect::CopySelection{}); },
            [&](const intent::SelectionChanged& i) { features_.message_menu.set_selection(i.text, i.message_ids); },
            [&](const intent::SetNotifications& i) { workspace.set_notifications(i.on); },
            [&](const intent::SetSetting& i) {
                workspace.settings().set(i.name, i.value);
                room.set_mark_read_on_view(workspace.settings().mark_read_on_view());
            },
            [&](const intent::RestoreSettings& i) {
                workspace.settings().restore(i.stored);
                room.set_mark_read_on_view(workspace.settings().mark_read_on_view());
            },
            [&](const intent::SetDraft& i) { workspace.drafts().set(i.room_id, i.text); },
            [&](const intent::RestoreDrafts& i) { workspace.drafts().restore(i.account_id, i.stored); },
            [&](const intent::SetLanguage& i) { i18n::set_language(i.lang); },
            [&](const intent::NotificationPermission& i) {
                workspace.set_permission(i.permission);
                if (i.permission != "granted") workspace.set_notifications(false);
            },
            // ---- the trace: the HTTP log and the clipboard ----
            [&](const intent::SetReveal& i) { trace_.set_reveal(i.on); },
            [&](const intent::CopyCurl& i) { told(copies_.copy_curl(i.entry_id, i.may_reveal)); },
            [&](const intent::CopyAs& i) { told(copies_.copy_as(i.entry, i.format, i.may_reveal)); },
            [&](const intent::ExportHar& i) { told(copies_.export_har(i.may_reveal, now)); },
            [&](const intent::SetLogFilter& i) { told(copies_.set_filter(LogFilter{i.text, i.method, i.status})); },
            [&](const intent::ClearLog&) { trace_.log().clear(); },
            [&](const intent::ClipboardCleared& i) { trace_.clipboard_cleared(i.cleared); },
        },
        intent);
    pump(now);
}

// An action's outcome: its effect for the platform, its words for the user.
void App::told(std::optional<Told> told) {
    if (!told) return;
    if (told->copy) effects_.push_back(effect::CopyText{std::move(*told->copy)});
    if (told->file) effects_.push_back(std::move(*told->file));
    feedback_.set_notice(std::move(told->notice));
}

}  // namespace roomkey::app
