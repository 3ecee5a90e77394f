// features.cpp: the intents whose work spans two features (features.hpp):
// the open room and the workspace's details and drafts, the settings and the
// open room's mark-read, the reply and quote fills of the open room's view.
#include "app/features.hpp"

namespace roomkey::app {

void Features::apply(const intent::OpenRoom& i, Instant now) {
    // Another room opens with its details closed (the address says so at once).
    if (open_room.view().room_id() != i.room_id) workspace.show_details(DetailsTab::none);
    open_room.open(i.room_id, now);
}

void Features::apply(const intent::UploadFile& i, Instant now) {
    open_room.upload(i, now);
    // The composer's text went with the file: it is not a draft any more.
    if (!i.message.empty() && workspace.drafts().text(i.room_id) == i.message) workspace.drafts().set(i.room_id, "");
}

void Features::apply(const intent::SetPageVisible& i, Instant now) {
    page_visible = i.visible;
    previews.resume(now);
}

void Features::apply(const intent::Reply& i, Instant) {
    if (open_room.view().room_id() == i.room_id) workspace.reply(open_room.view(), i.message_id);
}

void Features::apply(const intent::Quote& i, Instant) {
    if (open_room.view().room_id() == i.room_id) workspace.quote(open_room.view(), i.message_id);
}

void Features::apply(const intent::SetSetting& i, Instant) {
    workspace.settings().set(i.name, i.value);
    open_room.set_mark_read_on_view(workspace.settings().mark_read_on_view());
}

void Features::apply(const intent::RestoreSettings& i, Instant) {
    workspace.settings().restore(i.stored);
    open_room.set_mark_read_on_view(workspace.settings().mark_read_on_view());
}

void Features::apply(const intent::NotificationPermission& i, Instant) {
    workspace.set_permission(i.permission);
    if (i.permission != "granted") workspace.set_notifications(false);
}

}  // namespace roomkey::app
