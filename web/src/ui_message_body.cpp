// ui_message_body.cpp: see ui_message_body.hpp.
#include "ui_message_body.hpp"

#include <algorithm>

#include "a11y.hpp"
#include "app/dtext_words.hpp"
#include "app/i18n.hpp"
#include "emoji_glyphs.hpp"
#include "app/message_layout.hpp"
#include "roomkey/line_break.hpp"
#include "roomkey/links.hpp"
#include "text_layer.hpp"
#include "ui_image_preview.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

using notation::Part;
using notation::PartKind;

// One line of a paragraph from `s` to `end` at `at`, its links (`links`,
// byte offsets from `base`) in the link colour, underlined. Under the
// pointer, a link gets a real <a> of the page laid over it
// (a11y::hover_link): a click, a middle-click or Ctrl+click opens it in a
// new tab and a right-click gives the browser's own link menu, as on any
// page. Answers the line's width.
float draw_line(const char* base, const char* s, const char* end, ImVec2 at, const std::vector<TextLink>& links) {
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float x0 = at.x;
    while (s < end) {
        const auto offset = static_cast<std::size_t>(s - base);
        const TextLink* link = nullptr;
        std::size_t stop = static_cast<std::size_t>(end - base);
        for (const TextLink& l : links) {
            if (l.end > offset && l.begin <= offset) link = &l;
            if (l.end > offset && l.begin <= offset) stop = std::min(stop, l.end);
            if (l.begin > offset) stop = std::min(stop, l.begin);
        }
        const char* piece_end = base + stop;
        // Each emoji sequence one glyph (emoji_glyphs.hpp).
        const std::string shown = emoji_folded(std::string_view(s, static_cast<std::size_t>(piece_end - s)));
        const char* text = shown.c_str();
        const char* text_end = text + shown.size();
        const float width = font->CalcTextSizeA(size, FLT_MAX, 0.0f, text, text_end).x;
        draw->AddText(font, size, at, ImGui::GetColorU32(link ? kAccent : ImGui::GetStyleColorVec4(ImGuiCol_Text)),
                      text, text_end);
        if (link) {
            const ImVec2 max(at.x + width, at.y + size);
            draw->AddLine(ImVec2(at.x, max.y - 1.0f), ImVec2(max.x, max.y - 1.0f), ImGui::GetColorU32(kAccent));
            if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(at, max)) {
                ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
                a11y::hover_link(link->url, at, max);
                // A click that reached the canvas (a tap, or a click before the <a> was there).
                if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
                    a11y::open_link(link->url);
                }
            }
        }
        at.x += width;
        s = piece_end;
    }
    return at.x - x0;
}

// The room a box's padding takes on the right of its text (boxed()).
float g_box_inset = 0.0f;

// A wrapped paragraph with its links, broken into lines as a reader
// expects (shared/line_break.hpp: UAX #14 with the Japanese rules), laid
// out once per text and width (app/message_layout.hpp); only its lines
// inside the window's clip rectangle are painted. A label (`kind`: a
// heading) is wrapped the same, without links.
void paragraph(std::string_view text, text_layer::Run kind = text_layer::Run::text) {
    static app::ParagraphLayouts layouts;
    static const std::vector<TextLink> none;
    const float size = ImGui::GetFontSize();
    const float wrap = std::max(size, ImGui::GetContentRegionAvail().x - g_box_inset);
    const line_break::Measure measure = [](std::string_view piece, const void*) {
        const std::string shown = emoji_folded(piece);
        return ImGui::CalcTextSize(shown.data(), shown.data() + shown.size()).x;
    };
    const app::ParagraphLayout& layout = layouts.get(text, wrap, size, measure, nullptr);
    const std::vector<TextLink>& links = kind == text_layer::Run::text ? layout.links : none;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImDrawList* draw = ImGui::GetWindowDrawList();
    const float top = draw->GetClipRectMin().y;
    const float bottom = draw->GetClipRectMax().y;
    float y = origin.y;
    for (std::size_t i = 0; i < layout.lines.size(); ++i) {
        const char* from = text.data() + layout.lines[i].begin;
        const char* to = text.data() + layout.lines[i].end;
        if (y + size >= top && y <= bottom) draw_line(text.data(), from, to, ImVec2(origin.x, y), links);
        // The page's text over it (every line of a drawn message, as before);
        // a label's next lines go on with its first.
        const text_layer::Run line = kind == text_layer::Run::label && i > 0 ? text_layer::Run::label_more : kind;
        if (from != to) text_layer::run(from, to, ImVec2(origin.x, y), layout.widths[i], size, line);
        y += size;
    }
    ImGui::Dummy(ImVec2(layout.widest, y - origin.y));
}

std::string name_of(const Drawing& d, std::string_view id) {
    std::string name = d.names(id);
    // Without a name, words: the id is the page API's and the developer view's.
    return name.empty() ? std::string(tr("mentions.unknown")) : name;
}

// Words drawn with the message (a heading, a label), in the page's text
// too: wrapped where the line is too narrow for them (a long name and a
// date on a phone), never cut.
void heading(ImVec4 colour, std::string_view words) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    paragraph(words, text_layer::Run::label);
    ImGui::PopStyleColor();
}

// A code block's lines, each a line of the page's text.
void code_lines(std::string_view code) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::TextUnformatted(code.data(), code.data() + code.size());
    const float size = ImGui::GetFontSize();
    float y = at.y;
    for (std::size_t begin = 0; begin <= code.size(); y += size) {
        std::size_t end = std::min(code.find('\n', begin), code.size());
        const std::string_view line = code.substr(begin, end - begin);
        text_layer::run(line.data(), line.data() + line.size(), ImVec2(at.x, y),
                        ImGui::CalcTextSize(line.data(), line.data() + line.size()).x, size);
        begin = end + 1;
    }
}

bool is_block(PartKind kind) {
    return kind == PartKind::quote || kind == PartKind::info || kind == PartKind::service_event ||
           kind == PartKind::code || kind == PartKind::rule || kind == PartKind::task;
}

// A box around what `draw` puts inside, in `colour`.
template <class Draw>
void boxed(ImVec4 colour, Draw draw) {
    // Padding on both sides: the text never touches the border.
    const float pad = ImGui::GetFontSize() * 0.4f;
    ImGui::BeginGroup();
    ImGui::Indent(pad * 1.5f);
    g_box_inset += pad * 1.5f;
    draw();
    g_box_inset -= pad * 1.5f;
    ImGui::Unindent(pad * 1.5f);
    ImGui::EndGroup();
    const ImVec2 min = ImGui::GetItemRectMin();
    ImVec2 max = ImGui::GetItemRectMax();
    max.x = std::max(max.x, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - g_box_inset);
    ImGui::GetWindowDrawList()->AddRect(ImVec2(min.x, min.y - 2), ImVec2(max.x - 2, max.y + 2),
                                        ImGui::GetColorU32(colour), 3.0f);
    ImGui::Spacing();
}

void draw_block(const Drawing& d, const Part& part) {
    switch (part.kind) {
        case PartKind::quote:
            boxed(kDim, [&] {
                std::string head = part.account_id.empty()
                                       ? std::string(tr("message.quote"))
                                       : tr("message.quote_by", {{"name", name_of(d, d.parts.of(part.account_id))}});
                if (part.time) head += "  " + app::message_time_text(*part.time, d.now, d.offset);
                heading(kDim, head);
                draw_parts(d, part.children);
            });
            break;
        case PartKind::info:
            boxed(kAccent, [&] {
                if (!part.name.empty()) heading(kAccent, d.parts.of(part.name));
                draw_parts(d, part.children);
            });
            break;
        case PartKind::service_event:
            boxed(kGood, [&] {
                heading(kGood, app::dtext_in_words(d.parts.of(part.key)));
                draw_parts(d, part.children);
            });
            break;
        case PartKind::code:
            boxed(kDim, [&] {
                code_lines(d.parts.of(part.inner));
            });
            break;
        case PartKind::rule:
            ImGui::Separator();
            break;
        case PartKind::task:
            boxed(kWarn, [&] {
                std::string head = part.account_id.empty()
                                       ? std::string(tr("message.task"))
                                       : tr("message.task_for", {{"name", name_of(d, d.parts.of(part.account_id))}});
                if (part.task_state == notation::TaskState::done) head = tr("message.task_done", {{"head", head}});
                heading(kWarn, head);
                draw_parts(d, part.children);
                if (part.time) {
                    const char* type = part.limit_type == notation::LimitType::time ? "time" : "date";  // i18n: not shown (a wire value)
                    const app::DeadlineText due = app::deadline_text(
                        *part.time, type, part.task_state == notation::TaskState::done, d.now, d.offset);
                    if (!due.text.empty()) {
                        const std::string when =
                            tr(due.overdue ? "message.due_overdue" : "message.due", {{"when", due.text}});
                        heading(due.overdue ? kBad : kDim, when);
                    }
                }
            });
            break;
        default:
            break;
    }
}

}  // namespace

// Inline parts gather into one wrapped paragraph; mentions and replies are
// labels of their own, blocks stand on lines of their own.
void draw_parts(const Drawing& d, const std::vector<Part>& parts) {
    std::string line;
    auto flush = [&] {
        while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
        std::size_t start = 0;
        while (start < line.size() && (line[start] == '\n' || line[start] == ' ')) ++start;
        if (start < line.size()) paragraph(std::string_view(line).substr(start));
        line.clear();
    };
    for (const Part& part : parts) {
        if (is_block(part.kind)) {
            flush();
            draw_block(d, part);
        } else if (part.kind == PartKind::preview && d.previews) {
            flush();
            image_preview(d, part, parts);
        } else if (part.kind == PartKind::download && d.open_file) {
            // A file card: a click downloads the file (open_file: a fresh download_url).
            flush();
            const std::string id(d.parts.of(part.file_id));
            const std::string label =
                tr("message.file", {{"name", app::plain_text(d.parts.body, std::vector<Part>{part}, d.names)}}) +
                "##file" + id;
            if (ImGui::Button(label.c_str())) *d.open_file = id;
            text_layer::item(std::string_view(label).substr(0, label.rfind("##file")), text_layer::Run::control,
                             ImGui::GetStyle().FramePadding);
        } else if (part.kind == PartKind::mention || part.kind == PartKind::reply || part.kind == PartKind::to_all) {
            flush();
            const std::string who = name_of(d, d.parts.of(part.account_id));
            std::string label = part.kind == PartKind::to_all  ? std::string(tr("message.to_all"))
                                : part.kind == PartKind::reply ? tr("message.reply_to", {{"name", who}})
                                                               : tr("message.to", {{"name", who}});
            if (part.kind == PartKind::reply && d.jump) {
                // A reply names whom it answers; a click shows that message when it is loaded.
                ImGui::PushStyleColor(ImGuiCol_Text, kAccent);
                ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
                a11y::name_next(label);  // said as written; drawn with each emoji one glyph
                if (tap_button(emoji_folded(label).c_str())) *d.jump = std::string(d.parts.of(part.message_id));
                ImGui::PopStyleColor(2);
                const ImVec2 pad = ImGui::GetStyle().FramePadding;
                text_layer::item(label, text_layer::Run::control, ImVec2(pad.x, tap_height() > 0 ? pad.y : 0));
            } else {
                heading(kAccent, label);
            }
            // What was written after the name ("さん", ", hi") stays on the
            // label's line when it fits there: an honorific never stands
            // alone at the start of the next line.
            const std::string_view rest =
                notation::written_after_name(d.parts.of(part.name), d.names(d.parts.of(part.account_id)));
            const std::size_t start = std::min(rest.find_first_not_of(" \t"), rest.size());
            const std::string_view words = rest.substr(start);
            const float gap = start > 0 ? ImGui::CalcTextSize(" ").x : 0.0f;
            if (!words.empty() && words.find('\n') == std::string_view::npos) {
                ImGui::SameLine(0.0f, gap);
                if (ImGui::CalcTextSize(words.data(), words.data() + words.size()).x <=
                    ImGui::GetContentRegionAvail().x - g_box_inset) {
                    paragraph(words);
                    continue;
                }
                ImGui::NewLine();
            }
            line += std::string(rest);
        } else {
            line += app::plain_text(d.parts.body, std::vector<Part>{part}, d.names);
        }
    }
    flush();
}

}  // namespace roomkey::web::parts
