// ui_image_preview.hpp: an image file's preview (app/file_preview.hpp), in
// a message and in the details' Files tab: the image at a bounded size
// keeping its aspect ratio, a placeholder while it loads, words when it
// cannot be shown (in the accessibility tree and the page's text too);
// which previews are on screen and which near it, reported once a frame
// after every pane is drawn. web/src only (ui_message_body.cpp,
// ui_conversation.cpp, ui_room.cpp, ui.cpp).
#pragma once

#include <string>
#include <vector>

#include "ui_message_body.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

// The [preview] `part` of `parts` (its [download] sibling names the file), at the cursor.
void image_preview(const Drawing& d, const notation::Part& part, const std::vector<notation::Part>& parts);
// The preview of the file `file_id` at the cursor, at most `lines` text lines tall.
void file_preview(const app::FilePreviews& previews, const std::string& file_id, float lines);
// The conversation's rows were laid out with measured heights (`measured`):
// only such a frame tells what is on screen (before, an estimate may have
// drawn a far message in view).
void previews_measured(bool measured);
// After the frame's panes: the previews on screen in the open room
// `room_id` to the app when they changed; the textures of those far off
// screen freed, and near the cap those off screen before any on it.
void previews_drawn(const std::string& room_id, Intents& out);

}  // namespace roomkey::web::parts
