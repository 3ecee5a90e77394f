// ui_message_body.hpp: a message's body as the conversation draws it: its
// notation's parts (app/message_view.hpp): mentions and replies as labels,
// quotes, info boxes, the service's events, code and tasks as boxes, the
// rest as wrapped paragraphs. web/src only (ui_conversation.cpp).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/file_preview.hpp"
#include "app/message_view.hpp"

namespace roomkey::web::parts {

struct Drawing {
    const notation::Parts& parts;
    const notation::NameLookup& names;
    const app::UserTime& offset;
    std::int64_t now = 0;
    std::string* jump = nullptr;       // a reply's label was clicked: the message it answers
    std::string* open_file = nullptr;  // a file card was clicked: its file_id
    const app::FilePreviews* previews = nullptr;  // image previews (ui_image_preview.hpp)
};

// Draws `parts` (a message's, or a box's children) at the cursor.
void draw_parts(const Drawing& d, const std::vector<notation::Part>& parts);

}  // namespace roomkey::web::parts
