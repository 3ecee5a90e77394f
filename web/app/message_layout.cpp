// message_layout.cpp: row heights, the rows on screen, messages parsed once (see message_layout.hpp).
#include "app/message_layout.hpp"

#include <algorithm>

#include "app/digest.hpp"

namespace roomkey::app {

void RowHeights::set_layout(float width, float text_size, float estimate) {
    if (width != width_ || text_size != text_size_) heights_.clear();
    width_ = width;
    text_size_ = text_size;
    estimate_ = estimate;
}

void RowHeights::set_rows(const std::vector<RowKey>& rows) {
    rows_ = rows;
    // Heights of rows no longer listed (a deleted message) go.
    if (heights_.size() > rows_.size()) {
        std::map<std::string, Measure> kept;
        for (const RowKey& row : rows_) {
            auto it = heights_.find(row.id);
            if (it != heights_.end()) kept.insert(*it);
        }
        heights_ = std::move(kept);
    }
}

void RowHeights::measured(std::size_t row, float height) {
    if (row < rows_.size()) heights_[rows_[row].id] = Measure{rows_[row].version, height};
}

bool RowHeights::known(std::size_t row) const {
    if (row >= rows_.size()) return false;
    const auto it = heights_.find(rows_[row].id);
    return it != heights_.end() && it->second.version == rows_[row].version;
}

float RowHeights::height_of(std::size_t row) const {
    const auto it = heights_.find(rows_[row].id);
    return it != heights_.end() && it->second.version == rows_[row].version ? it->second.height : estimate_;
}

float RowHeights::top_of(std::size_t row) const {
    float y = 0;
    for (std::size_t i = 0; i < row && i < rows_.size(); ++i) y += height_of(i);
    return y;
}

RowWindow RowHeights::window(float scroll_y, float view_height, float margin) const {
    RowWindow w;
    const float from = scroll_y - margin;
    const float to = scroll_y + view_height + margin;
    float y = 0;
    std::size_t i = 0;
    for (; i < rows_.size(); ++i) {
        const float h = height_of(i);
        if (y + h > from) break;
        y += h;
    }
    w.first = i;
    w.before = y;
    for (; i < rows_.size() && y < to; ++i) y += height_of(i);
    w.last = i;
    for (; i < rows_.size(); ++i) w.after += height_of(i);
    return w;
}

std::uint64_t message_version(const ChatMessage& message, bool day_separator) {
    // update_time moves with every edit the service took; the length is for
    // a body changed here before the service answered.
    return Digest()
        .add(message.update_time)
        .add(static_cast<std::int64_t>(message.body.size()))
        .add(day_separator)
        .value();
}

const DrawnMessage& DrawnMessages::get(const ChatMessage& message, std::uint64_t context,
                                       const std::string& my_account_id, const notation::NameLookup& names,
                                       std::int64_t now_unix, const UserTime& user) {
    if (context != context_) {
        entries_.clear();
        context_ = context;
    }
    const std::uint64_t version = message_version(message, false);
    Entry& entry = entries_[message.message_id];
    if (entry.version != version || entry.drawn.parts.body.empty()) {
        entry.version = version;
        entry.drawn = drawn_message(message, my_account_id, names, now_unix, user);
    }
    return entry.drawn;
}

void DrawnMessages::keep_only(const std::vector<ChatMessage>& kept) {
    if (entries_.size() <= kept.size()) return;
    std::map<std::string, Entry> still;
    for (const ChatMessage& m : kept) {
        auto it = entries_.find(m.message_id);
        if (it != entries_.end()) still.insert(std::move(*it));
    }
    entries_ = std::move(still);
}

}  // namespace roomkey::app
