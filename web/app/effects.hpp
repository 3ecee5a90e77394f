// effects.hpp: what the App asks the platform layer (web/src) to do: a
// request to send, a page to navigate to, a record to keep in or remove
// from sessionStorage, text for the clipboard, a file picker or a download
// to open. App::take_effects hands them over; web/src performs them.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "roomkey/http.hpp"

namespace roomkey::app {

namespace effect {
// Send through the transport; answer with App::on_response / on_transport_error.
struct Send {
    std::uint64_t id = 0;
    HttpRequest request;
    // A file upload: the platform reports the body's progress
    // (App::on_upload_progress) from its XMLHttpRequest (web/src/fetch_transport.cpp).
    bool upload_progress = false;
};
// Open the browser's file picker for a room's upload; the chosen file comes
// back as intent::UploadFile with this room and message.
struct PickFile {
    std::string room_id;
    std::string message;
};
// Open a download_url (an attachment: the browser saves it, the page stays).
struct OpenUrl {
    std::string url;
};
// Fetch and decode an image preview into a texture (file_preview.hpp):
// App::take_image_loads, answered by App::preview_loaded (not in Effect).
struct LoadImage {
    std::string file_id;
    std::string url;
};
// Keep the pending authorization in sessionStorage (read back once, at start).
struct StorePending {
    std::string record;
};
// Leave the page for the consent screen (spec 4.2).
struct Navigate {
    std::string url;
};
// Put the text on the system clipboard and in the app's own paste buffer.
// Neither is reachable through the page API (shell/page.js).
struct CopyText {
    std::string text;
};
// Sign-out: empty the app's paste buffer; when `system` is set the app put
// text on the system clipboard in this session (a curl command holds the
// session's URLs and bodies, its secrets when revealed), so the system
// clipboard is overwritten too. The platform answers with
// intent::ClipboardCleared.
struct ForgetClipboard {
    bool system = false;
};
// Remove the pending authorization from sessionStorage (the page
// was shown again from the back/forward cache; that sign-in is abandoned).
struct ForgetPending {};
// Keep the posts not yet sent in sessionStorage (waiting_posts.hpp): the
// text, its room and the account that wrote it; never a token.
struct StorePosts {
    std::string record;
};
// Save `text` as a file the user downloads (not the clipboard): a HAR export.
struct SaveFile {
    std::string name;
    std::string mime;
    std::string text;
};
// Select text of a message of the open room in the conversation's text
// layer (intent::SelectText), or copy what is selected there.
struct SelectText {
    std::string message_id;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
};
struct CopySelection {};
}  // namespace effect
using Effect = std::variant<effect::Send, effect::StorePending, effect::Navigate, effect::CopyText,
                            effect::ForgetClipboard, effect::PickFile, effect::OpenUrl, effect::ForgetPending,
                            effect::StorePosts, effect::SaveFile, effect::SelectText, effect::CopySelection>;

}  // namespace roomkey::app
