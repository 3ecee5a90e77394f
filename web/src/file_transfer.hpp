// file_transfer.hpp: the browser side of files both ways (issue 26 point 4):
// an upload sent with its own XMLHttpRequest so its progress can be seen, the
// browser's file picker and a file dropped on the canvas, and opening a
// download_url. Emscripten-only; pairs with App's effect::Send
// (upload_progress), effect::PickFile and effect::OpenUrl.
#pragma once

#include <cstdint>
#include <string>

#include "roomkey/http.hpp"

namespace roomkey::web {

// Sends `request` like fetch_start() (the outcome arrives through
// take_fetch_outcomes() and the fetch listener), reporting the body's
// progress to the upload listener on each XHR upload progress event.
// Why not emscripten_fetch: its onprogress follows the download
// (xhr.onprogress), never xhr.upload, so an upload's progress cannot be seen.
void upload_start(std::uint64_t id, const HttpRequest& request, unsigned timeout_ms);
void set_upload_progress_listener(void (*listener)(std::uint64_t id, std::int64_t sent, std::int64_t total));

// A file the user chose (picker) or dropped on the canvas. Over
// `max_bytes` (see install_file_input) its bytes are not read: data is
// empty and size says how big it is.
struct ChosenFile {
    std::string name;
    std::string mime;
    std::string data;
    std::int64_t size = 0;
    bool dropped = false;
};
// Installs the hidden <input type=file> and the canvas's dragover/drop
// listeners once; each chosen or dropped file goes to `listener`.
void install_file_input(std::int64_t max_bytes, void (*listener)(ChosenFile file));
// Opens the file picker. Browsers allow it only shortly after a user's
// click or key (transient activation): call it for a UI click's effect.
void open_file_picker();

// Opens a download_url: an <a download> clicked, so an attachment is saved
// and the page stays.
void open_download(const std::string& url);

}  // namespace roomkey::web
