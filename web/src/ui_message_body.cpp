// ui_message_body.cpp: see ui_message_body.hpp.
#include "ui_message_body.hpp"

#include <algorithm>

#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

using notation::Part;
using notation::PartKind;

std::string name_of(const Drawing& d, std::string_view id) {
    std::string name = d.names(id);
    return name.empty() ? "account " + std::string(id) : name;
}

bool is_block(PartKind kind) {
    return kind == PartKind::quote || kind == PartKind::info || kind == PartKind::service_event ||
           kind == PartKind::code || kind == PartKind::rule || kind == PartKind::task;
}

// A box around what `draw` puts inside, in `colour`.
template <class Draw>
void boxed(ImVec4 colour, Draw draw) {
    ImGui::BeginGroup();
    ImGui::Indent(ImGui::GetFontSize() * 0.6f);
    draw();
    ImGui::Unindent(ImGui::GetFontSize() * 0.6f);
    ImGui::EndGroup();
    const ImVec2 min = ImGui::GetItemRectMin();
    ImVec2 max = ImGui::GetItemRectMax();
    max.x = std::max(max.x, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x);
    ImGui::GetWindowDrawList()->AddRect(ImVec2(min.x, min.y - 2), ImVec2(max.x - 2, max.y + 2),
                                        ImGui::GetColorU32(colour), 3.0f);
    ImGui::Spacing();
}

void draw_block(const Drawing& d, const Part& part) {
    switch (part.kind) {
        case PartKind::quote:
            boxed(kDim, [&] {
                std::string head = "Quote";
                if (!part.account_id.empty()) head += ": " + name_of(d, d.parts.of(part.account_id));
                if (part.time) head += "  " + app::message_time_text(*part.time, d.now, d.offset);
                text_dim(head);
                draw_parts(d, part.children);
            });
            break;
        case PartKind::info:
            boxed(kAccent, [&] {
                if (!part.name.empty()) ImGui::TextColored(kAccent, "%s", std::string(d.parts.of(part.name)).c_str());
                draw_parts(d, part.children);
            });
            break;
        case PartKind::service_event:
            boxed(kGood, [&] {
                ImGui::TextColored(kGood, "%s", notation::dtext_words(d.parts.of(part.key)).c_str());
                draw_parts(d, part.children);
            });
            break;
        case PartKind::code:
            boxed(kDim, [&] {
                const std::string_view code = d.parts.of(part.inner);
                ImGui::TextUnformatted(code.data(), code.data() + code.size());
            });
            break;
        case PartKind::rule:
            ImGui::Separator();
            break;
        case PartKind::task:
            boxed(kWarn, [&] {
                std::string head = "Task";
                if (!part.account_id.empty()) head += " for " + name_of(d, d.parts.of(part.account_id));
                if (part.task_state == notation::TaskState::done) head += " (done)";
                ImGui::TextColored(kWarn, "%s", head.c_str());
                draw_parts(d, part.children);
                if (part.time) {
                    const char* type = part.limit_type == notation::LimitType::time ? "time" : "date";
                    const app::DeadlineText due = app::deadline_text(
                        *part.time, type, part.task_state == notation::TaskState::done, d.now, d.offset);
                    if (!due.text.empty()) {
                        ImGui::TextColored(due.overdue ? kBad : kDim, "due %s%s", due.text.c_str(),
                                           due.overdue ? " (overdue)" : "");
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
        if (start < line.size()) ImGui::TextWrapped("%s", line.c_str() + start);
        line.clear();
    };
    for (const Part& part : parts) {
        if (is_block(part.kind)) {
            flush();
            draw_block(d, part);
        } else if (part.kind == PartKind::mention || part.kind == PartKind::reply || part.kind == PartKind::to_all) {
            flush();
            std::string label = part.kind == PartKind::to_all  ? "To all"
                                : part.kind == PartKind::reply ? "Re " + name_of(d, d.parts.of(part.account_id))
                                                               : "To " + name_of(d, d.parts.of(part.account_id));
            if (part.kind == PartKind::reply && d.jump) {
                // A reply names whom it answers; a click shows that message when it is loaded.
                ImGui::PushStyleColor(ImGuiCol_Text, kAccent);
                ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
                if (ImGui::SmallButton(label.c_str())) *d.jump = std::string(d.parts.of(part.message_id));
                ImGui::PopStyleColor(2);
            } else {
                ImGui::TextColored(kAccent, "%s", label.c_str());
            }
            const std::string name = d.names(d.parts.of(part.account_id));
            line += std::string(notation::written_after_name(d.parts.of(part.name), name));
        } else {
            line += notation::plain_text(d.parts.body, std::vector<Part>{part}, d.names);
        }
    }
    flush();
}

}  // namespace roomkey::web::parts
