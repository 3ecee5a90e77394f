// ui_image_preview.hpp: an image file's preview in a message
// (app/file_preview.hpp): the image at a bounded size keeping its aspect
// ratio, a placeholder while it loads, words when it cannot be shown; which
// previews are on screen and which near it (their rows drawn), reported
// after the conversation's rows. web/src only (ui_message_body.cpp,
// ui_conversation.cpp).
#pragma once

#include <string>
#include <vector>

#include "ui_message_body.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

// The [preview] `part` of `parts` (its [download] sibling names the file), at the cursor.
void image_preview(const Drawing& d, const notation::Part& part, const std::vector<notation::Part>& parts);
// After the conversation's rows of `room_id`: the previews on screen to the
// app when they changed, the textures of those far off screen freed. Only
// a frame laid out with measured heights (`measured`) tells what is on
// screen: before, an estimate may have drawn a far message in view.
void previews_drawn(const std::string& room_id, bool measured, Intents& out);

}  // namespace roomkey::web::parts
