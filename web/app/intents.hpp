// intents.hpp: what the user (through the UI or the page's JS API) can ask the
// app to do. The UI returns these; App::apply performs them. Reading the page
// API's JSON actions into intents lives here too, so it is tested natively.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/i18n.hpp"
#include "app/details_tab.hpp"
#include "app/message_menu.hpp"
#include "roomkey/api.hpp"
#include "roomkey/request_snippets.hpp"
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace intent {
// Start the authorization-code + PKCE flow with these scopes (spec 4.2).
struct SignIn { ScopeSet scopes; };
// With posts still open the app asks first (App::sign_out_confirm);
// `discard_posts` is the user's "yes, discard them".
struct SignOut {
    bool discard_posts = false;
};
// The user stays signed in after that question.
struct CancelSignOut {};
// A post held as unknown or refused (or waiting to retry) goes again now;
// EditPost replaces its text first.
// `local_id` (the conversation's name for a post, kept across a reload) wins over `id`.
struct RetryPost {
    std::uint64_t id = 0;
    std::string local_id = {};
};
struct EditPost {
    std::uint64_t id = 0;
    std::string body;
    std::string local_id = {};
};
// The user drops a post that was not delivered.
struct DiscardPost {
    std::uint64_t id = 0;
    std::string local_id = {};
};
// The posts a session left unsent, offered to the account that wrote them:
// send them, show them in their rooms as not sent, or drop them.
struct WaitingPosts {
    enum Do { send, review, discard } what = send;
};
// The conversation shows the open room to its newest message (marks it read
// when the setting says so).
struct SeenLatest {
    std::string room_id;
};
// A view's own input check failed ("" clears it): shown in state() and the
// mirror like every other error on screen.
struct FormError {
    std::string message;
};
// Leave an error screen for a fresh start (the "try again" action). With
// `sign_in` (the error's own "Try again" button) a sign-in that did not
// complete, a denied consent say, starts anew.
struct TryAgain {
    bool sign_in = false;
};
struct RefreshNow {};
// Refresh with fewer scopes: a subset of the grant (spec 4.3).
struct RefreshScopes {
    ScopeSet scopes;
};
struct SetAutoRefresh { bool on = true; };
// Spec 5.1: use an API token instead of OAuth.
struct UseApiToken { std::string token; };
// GET /me and GET /my/status (spec 4.4, 4.5).
struct ReloadAccount {};
// GET /rooms (spec 4.8).
struct ReloadRooms {};
struct SelectRoom { std::string room_id; };
// Spec 4.6: `count` > 1 queues numbered copies ("text (3/30)").
struct QueueMessage { std::string room_id; std::string body; int count = 1; };
// Spec 4.7.
struct QueueTask {
    std::string room_id;
    std::string body;
    std::vector<std::string> to_ids;
    std::optional<std::int64_t> limit;  // Unix seconds
    TaskLimitType limit_type = TaskLimitType::none;
};
// Drops every post still waiting for its turn.
struct CancelQueued {};
struct ClearFinishedPosts {};
// Shows secrets in the HTTP log on screen. The UI only: the page API refuses
// it, so no script can turn secrets into text it can read.
struct SetReveal { bool on = false; };
// Copies the logged request as a curl command, masked unless revealed and
// `may_reveal` (set by the UI; a copy asked for by the page API is masked).
struct CopyCurl {
    std::uint64_t entry_id = 0;
    bool may_reveal = false;
};
// Download the HTTP log as a HAR 1.2 file (masked unless revealed and `may_reveal`).
struct ExportHar {
    bool may_reveal = false;
};
struct ClearLog {};
// Shows only the log entries that match (http_log.hpp's LogFilter).
struct SetLogFilter {
    std::string text;    // part of the path, any case ("" = any)
    std::string method;  // "GET", ... ("" = any)
    std::string status;  // "2xx", "3xx", "4xx", "5xx", "none" (no answer) ("" = any)
};
// "Copy as <format>" of log entry `entry`, or of the console's call when none.
struct CopyAs {
    std::optional<std::uint64_t> entry;
    SnippetFormat format = SnippetFormat::curl_service;
    bool may_reveal = false;
};

// ---- The room view, my tasks and contacts (open_room.hpp, my_tasks.hpp, contacts.hpp) ----
// Opens the room: GET its messages (force=1), tasks, members and files, then
// polls its messages while the page is visible.
struct OpenRoom {
    std::string room_id;
};
// GET /rooms/{room_id}/messages?force=1 now.
struct LoadMessages {
    std::string room_id;
};
// PUT /rooms/{room_id}/messages/read; then the room's unread and /my/status.
struct MarkRead {
    std::string room_id;
};
// PUT /rooms/{room_id}/tasks/{task_id}/status with body=done.
struct CompleteTask {
    std::string room_id;
    std::string task_id;
};
struct LoadMyTasks {};
// GET /contacts and GET /incoming_requests.
struct LoadContacts {};
// PUT / DELETE /incoming_requests/{request_id}.
struct AcceptRequest {
    std::string request_id;
};
struct DeclineRequest {
    std::string request_id;
};
// The platform: the tab was hidden or shown (polling pauses while hidden).
// Not a page API action.
struct SetPageVisible {
    bool visible = true;
};
// The platform's too (not page API actions). The browser showed
// the page again from its back/forward cache (`pageshow` with `persisted`):
// a sign-in that left it for the consent screen was abandoned.
struct PageRestored {};
// What became of overwriting the system clipboard at sign-out: done, or
// refused because the engine allows a write only right after a click or
// key press (the platform then tries again at the next one).
struct ClipboardCleared {
    bool cleared = true;
};
// The API console (console.hpp, api_console.hpp): one catalog endpoint,
// `path` a template or concrete; `params` go to the query for GET and
// DELETE, to the form body for POST and PUT. `confirmed` skips the question
// a destructive call asks.
struct ConsoleCall {
    Method method = Method::Get;
    std::string path;
    FormFields params;
    bool confirmed = false;
    bool anyway = false;  // send even when the console's own check finds problems
};
struct ConfirmConsoleCall {};
struct CancelConsoleCall {};
// ---- Files both ways (open_room.hpp) ----
// Upload a file to a room (POST /rooms/{room_id}/files, multipart). `size`
// is the file's size when the platform did not read a file over the limit
// (data then empty); otherwise data.size(). Progress is room.upload.
struct UploadFile {
    std::string room_id;
    std::string name;
    std::string mime;
    std::string data;
    std::string message;
    std::optional<std::int64_t> size;
};
// The user asked to choose a file for the room (the Files tab's button):
// the platform opens the browser's file picker (effect::PickFile). Not a
// page API action (a script uploads with upload_file).
struct PickFile {
    std::string room_id;
    std::string message;
};
// Ask for a download_url now (create_download_url=1, valid 30 s) and open it.
struct OpenFile {
    std::string room_id;
    std::string file_id;
};
// The conversation's image previews on screen now, top first (the UI's; file_preview.hpp).
struct PreviewsOnScreen {
    std::string room_id;
    std::vector<std::string> file_ids;
};
// "Sign in again adding <scope>": a new authorization request for the union
// of the granted scopes and this one (incremental consent).
struct AddScopes {
    std::string scope;
};
// ---- The workspace (workspace.hpp; app_intents.cpp, mentions.hpp) ----
// "workspace" or "developer".
struct ShowView {
    bool developer = false;
};
// The open room's details pane, showing `tab` (none: closed): the UI's, and the page's for a place.
struct ShowDetails {
    DetailsTab tab = DetailsTab::none;
};
struct SetRoomFilter {
    std::string text;
};
// Fill the composer with a reply to / a quote of a message of the open room.
struct Reply {
    std::string room_id;
    std::string message_id;
};
struct Quote {
    std::string room_id;
    std::string message_id;
};
// Select characters [start, end) of a loaded message's text (its page API
// `text`, counted in UTF-16 code units as a script indexes it) in the
// conversation's text layer (web/src/text_layer.hpp), showing the message.
struct SelectText {
    std::string room_id;
    std::string message_id;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
};
// Put the conversation's selected text on the clipboard (Ctrl+C).
struct CopySelection {};
// Insert "[To:id]Name" into the composer.
struct Mention {
    std::string account_id;
};
// PUT / DELETE /rooms/{room_id}/messages/{message_id}; a delete asks first
// (the console's question: confirm_api_call / cancel_api_call).
struct EditMessage {
    std::string room_id;
    std::string message_id;
    std::string body;
};
struct DeleteMessage {
    std::string room_id;
    std::string message_id;
};
// A message's menu (message_menu.hpp): opens on a message of the open room
// (the UI closes it with an empty message_id; the page API always names
// one), or, with `item`, chooses an item of the open menu for its message.
struct MessageMenu {
    std::string room_id;
    std::string message_id;
    std::optional<MenuItem> item;
};
// PUT /rooms/{room_id}/tasks/{task_id}/status with body=open.
struct ReopenTask {
    std::string room_id;
    std::string task_id;
};
// Desktop notifications for new mentions; the platform asks the browser.
struct SetNotifications {
    bool on = false;
};
// The language the app speaks ("ja", "en"; "qps", the pseudo-locale).
struct SetLanguage {
    i18n::Lang lang = i18n::Lang::en;
};
// The platform: the browser's notification permission ("granted", ...).
// Not a page API action.
struct NotificationPermission {
    std::string permission;
};
// The platform: the conversation's selection changed (the page's text
// layer, shell/text_layer.js): what a Quote of the menu takes. Not a page
// API action (the page API reads it as state().selection).
struct SelectionChanged {
    std::string text;
    std::vector<std::string> message_ids;
};
// A setting (settings.hpp): the value as text ("enter", "true", ...).
struct SetSetting {
    std::string name;
    std::string value;
};
// The composer's text for a room, as typed (the UI, not a page API action).
struct SetDraft {
    std::string room_id;
    std::string text;
};
// The platform: what localStorage kept (settings; an account's drafts, "" when signed out).
struct RestoreSettings {
    std::string stored;
};
struct RestoreDrafts {
    std::string account_id;
    std::string stored;
};
}  // namespace intent

using Intent =
    std::variant<intent::SignIn, intent::SignOut, intent::TryAgain, intent::RefreshNow, intent::SetAutoRefresh,
                 intent::UseApiToken, intent::ReloadAccount, intent::ReloadRooms, intent::SelectRoom,
                 intent::QueueMessage, intent::QueueTask, intent::CancelQueued, intent::ClearFinishedPosts,
                 intent::SetReveal, intent::CopyCurl, intent::CopyAs, intent::ExportHar,
                 intent::SetLogFilter, intent::ClearLog, intent::CancelSignOut, intent::RetryPost,
                 intent::EditPost, intent::DiscardPost, intent::FormError, intent::OpenRoom, intent::LoadMessages,
                 intent::MarkRead, intent::CompleteTask, intent::LoadMyTasks, intent::LoadContacts,
                 intent::AcceptRequest, intent::DeclineRequest, intent::SetPageVisible, intent::ConsoleCall,
                 intent::ConfirmConsoleCall, intent::CancelConsoleCall, intent::AddScopes, intent::RefreshScopes,
                 intent::UploadFile, intent::PickFile, intent::OpenFile, intent::PageRestored,
                 intent::ClipboardCleared, intent::ShowView, intent::ShowDetails, intent::SetRoomFilter, intent::Reply, intent::Quote,
                 intent::Mention, intent::EditMessage, intent::DeleteMessage, intent::ReopenTask,
                 intent::SetNotifications, intent::NotificationPermission, intent::SetLanguage,
                 intent::WaitingPosts, intent::SeenLatest, intent::SetSetting, intent::SetDraft,
                 intent::RestoreSettings, intent::RestoreDrafts, intent::SelectText, intent::CopySelection,
                 intent::MessageMenu, intent::SelectionChanged, intent::PreviewsOnScreen>;

// The most posts one QueueMessage may add (a burst, not a flood).
inline constexpr int kMaxBurst = 100;

// Reads one page API action, a JSON object such as
//   {"type":"sign_in","scope":"users.all:read rooms.all:read_write"}
//   {"type":"use_api_token","token":"..."}  {"type":"post_message","room_id":"1","body":"hi","count":30}
//   {"type":"post_task","room_id":"1","body":"x","to_ids":["2"],"limit":1700000000,"limit_type":"date"}
//   {"type":"sign_out"} {"type":"refresh_now"} {"type":"reload_account"} {"type":"reload_rooms"}
//   {"type":"select_room","room_id":"1"} {"type":"set_auto_refresh","on":false} {"type":"try_again"}
//   {"type":"cancel_queued"} {"type":"copy_curl","entry":3} (always masked)
//   {"type":"sign_out","discard_posts":true} {"type":"cancel_sign_out"}
//   {"type":"retry_post","id":7} {"type":"edit_post","id":7,"body":"new text"} {"type":"discard_post","id":7}
//   (each also with "local_id" instead of "id") {"type":"send_waiting_posts"} {"type":"review_waiting_posts"}
//   {"type":"discard_waiting_posts"}
//   {"type":"open_room","room_id":"2100"} {"type":"load_messages","room_id":"2100"}
//   {"type":"mark_read","room_id":"2100"} {"type":"complete_task","room_id":"2100","task_id":"5"}
//   {"type":"load_my_tasks"} {"type":"load_contacts"}
//   {"type":"accept_request","request_id":"9"} {"type":"decline_request","request_id":"9"}
//   {"type":"api_call","method":"GET","path":"/rooms/{room_id}/messages","params":{"room_id":"2100","force":1}}
//   {"type":"confirm_api_call"} {"type":"cancel_api_call"} {"type":"add_scopes","scope":"contacts.all:read"}
//   {"type":"refresh_scopes","scope":"users.all:read"} (a subset of the granted scopes, spec 4.3)
//   {"type":"upload_file","room_id":"2100","name":"a.pdf","mime":"application/pdf","data_base64":"...",
//    "message":"optional"} (attach_file: the same) {"type":"open_file","room_id":"2100","file_id":"9001"}
// {"type":"show_view","view":"developer"} {"type":"set_room_filter","text":"launch"}
//   {"type":"reply","room_id":"2100","message_id":"5"} {"type":"quote",...same} {"type":"mention","account_id":"1002"}
//   {"type":"edit_message","room_id":"2100","message_id":"5","body":"new"} {"type":"delete_message",...}
//   {"type":"message_menu","room_id":"2100","message_id":"5"} {"type":"message_menu_choose","item":"quote"}
//   (item: reply, quote, copy_text, copy_link, edit, delete, add_task)
//   {"type":"reopen_task","room_id":"2100","task_id":"5"} {"type":"set_notifications","on":true}
//   {"type":"set_setting","name":"send_key","value":"enter"} ("enter"|"ctrl_enter")
//   {"type":"set_setting","name":"mark_read_on_view","value":false}
//   {"type":"select_text","room_id":"2100","message_id":"5","start":0,"end":4} {"type":"copy_selection"}
// "set_reveal" is refused: revealing secrets is reachable from the UI only.
// The error text names what is wrong, for the page's console.
Result<Intent, std::string> parse_action(std::string_view json_text);

// A JSON array of actions, as the page hands them over once per frame.
// Malformed items are reported in `errors` and skipped.
std::vector<Intent> parse_actions(std::string_view json_array, std::vector<std::string>& errors);

}  // namespace roomkey::app
