// file_transfer.hpp: the browser side of files both ways: the browser's file
// picker and a file dropped on the canvas, and opening a download_url (an
// upload is an ordinary request with its progress reported:
// fetch_transport.hpp). Emscripten-only; pairs with App's effect::PickFile
// and effect::OpenUrl.
#pragma once

#include <cstdint>
#include <string>

namespace roomkey::web {

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
// Saves `text` as the download `name` (a Blob URL; not the clipboard).
void save_file(const std::string& name, const std::string& mime, const std::string& text);

}  // namespace roomkey::web
