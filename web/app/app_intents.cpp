// app_intents.cpp: every intent to its owner, one line each: the sign-in and
// the BFF panel, the features (features.hpp), the trace, or the App's own
// feedback. The overload set has no catch-all, so an intent without an owner
// does not compile.
#include "app/app.hpp"
#include "app/i18n.hpp"
#include "app/message_view.hpp"

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
                if (open > 0 && !i.discard_posts) {
                    // Posts still open are the user's text, not yet anywhere else: ask first.
                    feedback_.sign_out_confirm = open;
                    return;
                }
                feedback_.sign_out_confirm.reset();
                if (i.discard_posts) posting.discard_open();
                sign_out(now);
                feedback_.notice = open > 0 ? tr_n("notice.signed_out_discarded", open) : tr("notice.signed_out");
            },
            [&](const intent::CancelSignOut&) { feedback_.sign_out_confirm.reset(); },
            [&](const intent::TryAgain& i) {
                const bool retry = i.sign_in && feedback_.error && feedback_.error->offers_try_again;
                feedback_.error.reset();
                feedback_.notice.clear();
                sign_in_.try_again();
                if (!config_load_.value && !config_load_.loading) fetch_config(now);
                // Signed out, the thing to try again is the sign-in: it starts anew.
                if (retry && !client_.can_send() && config_load_.value && config_load_.value->configured)
                    start_sign_in(config_load_.value->default_scopes, now);
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
            [&](const intent::FormError& i) { feedback_.form_error = i.message; },
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
                if (i.item) return choose_menu_item(*i.item, now);
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
            [&](const intent::CopyCurl& i) {
                if (auto copy = trace_.copy_curl(i.entry_id, i.may_reveal, origin_, redaction())) {
                    effects_.push_back(effect::CopyText{std::move(copy->text)});
                    feedback_.notice = std::move(copy->notice);
                }
            },
            [&](const intent::CopyAs& i) {
                auto copy = trace_.copy_as(i.entry, planned_console_call(), i.format, i.may_reveal, snippet_target(),
                                           redaction());
                if (!copy) {
                    feedback_.notice = copy.error();
                    return;
                }
                effects_.push_back(effect::CopyText{std::move(copy->text)});
                feedback_.notice = std::move(copy->notice);
            },
            [&](const intent::ExportHar& i) {
                auto file = trace_.export_har(i.may_reveal, origin_, redaction(), now);
                feedback_.notice = tr(trace_.reveal() && i.may_reveal ? "notice.har_saved_revealed" : "notice.har_saved",
                                      {{"file", file.name}});
                effects_.push_back(effect::SaveFile{std::move(file.name), "application/json", std::move(file.text)});
            },
            [&](const intent::SetLogFilter& i) {
                LogFilter filter{i.text, i.method, i.status};
                if (std::string problem = log_filter_problem(filter); !problem.empty()) {
                    feedback_.notice = tr("notice.log_filter_unchanged", {{"problem", problem}});
                    return;
                }
                trace_.set_filter(std::move(filter));
            },
            [&](const intent::ClearLog&) { trace_.log().clear(); },
            [&](const intent::ClipboardCleared& i) { trace_.clipboard_cleared(i.cleared); },
        },
        intent);
    pump(now);
}

// Each item goes to the part that owns its action: Reply and Quote to the
// workspace's composer fill, Delete to the console's question (asked first),
// the copies to the clipboard, Edit and "Add as task" to the UI's fields.
void App::choose_menu_item(MenuItem item, Instant now) {
    MessageMenu& menu = features_.message_menu;
    const RoomView& room = features_.open_room.view();
    if (!menu.offers(item)) {
        feedback_.notice = tr("menu.not_offered", {{"item", std::string(to_string(item))}});
        return;
    }
    const MessageMenu::Target target = *menu.target();
    menu.close();
    const ChatMessage* message = nullptr;
    for (const ChatMessage& m : room.messages()) {
        if (m.message_id == target.message_id) message = &m;
    }
    if (!message || room.room_id() != target.room_id) return;  // the room changed under the menu
    const auto& account = features_.dashboard.account().value;
    const auto& contacts = features_.contacts.contacts().value;
    const DrawnMessage drawn =
        drawn_message(*message, account ? account->account_id : "", account_names(room, contacts ? &*contacts : nullptr),
                      unix_ms(now) / 1000, features_.workspace.user_time());
    MenuChoice choice = menu_choice(item, target.room_id, *message, drawn.text, target.selected);
    switch (item) {
        case MenuItem::reply:
            features_.workspace.reply(room, choice.message_id);
            break;
        case MenuItem::quote:
            features_.workspace.quote(room, choice.message_id, choice.text);
            break;
        case MenuItem::copy_text:
        case MenuItem::copy_link:
            feedback_.notice = tr(item == MenuItem::copy_text ? "menu.copied_text" : "menu.copied_link");
            effects_.push_back(effect::CopyText{std::move(choice.text)});
            break;
        case MenuItem::remove:
            apply(intent::DeleteMessage{choice.room_id, choice.message_id}, now);
            break;
        case MenuItem::edit:
        case MenuItem::add_task:
            menu.hand_off(std::move(choice));
            break;
    }
}

}  // namespace roomkey::app
