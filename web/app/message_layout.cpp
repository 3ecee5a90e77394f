// message_layout.cpp: row heights, the rows on screen, messages parsed once (see message_layout.hpp).
#include "app/message_layout.hpp"

#include <algorithm>
#include <cmath>

#include "app/digest.hpp"
#include "app/i18n.hpp"

namespace roomkey::app {

namespace {

// Where `id` is in `rows`, looking from `from` on, then before it: lists
// keep their order from frame to frame, so this is the next row.
template <class Rows, class Id>
std::size_t find_from(const Rows& rows, std::size_t from, Id id) {
    for (std::size_t n = 0; n < rows.size(); ++n) {
        const std::size_t i = (from + n) % rows.size();
        if (id(rows[i])) return i;
    }
    return rows.size();
}

}  // namespace

void RowHeights::set_layout(float width, float text_size, float estimate, float em) {
    if (width != width_ || text_size != text_size_) heights_.assign(heights_.size(), -1.0f);
    width_ = width;
    text_size_ = text_size;
    estimate_ = estimate;
    em_ = em > 0 ? em : text_size;
}

void RowHeights::set_rows(const std::vector<RowKey>& rows) {
    std::vector<float> heights(rows.size(), -1.0f);
    std::size_t from = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::size_t at = find_from(rows_, from, [&](const RowKey& k) { return k.id == rows[i].id; });
        if (at == rows_.size()) continue;                                     // new
        if (rows_[at].version == rows[i].version) heights[i] = heights_[at];  // else changed: measured again
        from = at + 1;
    }
    rows_ = rows;
    heights_ = std::move(heights);
}

void RowHeights::measured(std::size_t row, float height) {
    if (row < heights_.size()) heights_[row] = height;
}

bool RowHeights::known(std::size_t row) const {
    return row < heights_.size() && heights_[row] >= 0;
}

float RowHeights::height_of(std::size_t row) const {
    if (known(row)) return heights_[row];
    if (row >= rows_.size()) return estimate_;
    const std::size_t lines = line_break::fewest_lines(rows_[row].text, width_, em_);
    return estimate_ + static_cast<float>(lines > 1 ? lines - 1 : 0) * text_size_;
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

RowWindow RowHeights::drawn(float scroll_y, float view_height, float margin) const {
    const RowWindow in_view = window(scroll_y, view_height, 0);
    const RowWindow wide = window(scroll_y, view_height, margin);
    RowWindow w = in_view;
    // From the first unmeasured row above the view, to the last below it.
    for (std::size_t i = wide.first; i < in_view.first; ++i) {
        if (!known(i)) {
            w.first = i;
            w.before = top_of(i);
            break;
        }
    }
    for (std::size_t i = wide.last; i > in_view.last; --i) {
        if (!known(i - 1)) {
            w.last = i;
            w.after = total() - top_of(i);
            break;
        }
    }
    return w;
}

std::size_t RowHeights::find(const std::string& id) const {
    return find_from(rows_, 0, [&](const RowKey& k) { return k.id == id; });
}

float ReaderPlace::begin(float scroll, float max, float top, float view, const RowHeights& rows, bool fresh, bool jumped) {
    if (fresh) *this = ReaderPlace{};
    // Opening at the first unread is not opening at the newest (nor is a jump to a reply's target).
    if (jumped) newest_ = false;
    scroll_ = scroll;
    max_ = max;
    top_ = top;
    view_ = view;
    const float expected = std::min(std::round(std::max(asked_ >= 0.0f ? asked_ : seen_, 0.0f)), max);
    std::size_t anchor = id_.empty() ? rows.size() : rows.find(id_);
    list_ = scroll - top;
    if (started_ && (std::fabs(scroll - expected) > 0.5f || (!newest_ && anchor == rows.size()))) {
        // The reader moved: the place is where they are now.
        newest_ = !jumped && scroll >= max - 1.0f;
        const RowWindow at = rows.window(list_, 0.0f, 0.0f);
        anchor = std::min(at.first + (at.before < list_ - 0.5f ? 1 : 0), rows.size());
        id_ = anchor < rows.size() ? rows.id(anchor) : std::string();
        below_ = anchor < rows.size() ? rows.top_of(anchor) - list_ : 0.0f;
    } else if (newest_) {
        list_ = std::max(0.0f, rows.total() - view);
    } else {
        list_ = reachable(rows.top_of(anchor) - below_, rows);
    }
    return list_;
}

float ReaderPlace::reachable(float list, const RowHeights& rows) const {
    // A place too near the end to be at the view's top (the last unread
    // rows are shorter than the view) draws what the view can show: the
    // rows from the end less a view, not a view below the list's end.
    return std::max(0.0f, std::min(list, rows.total() - view_));
}

float ReaderPlace::show(const std::string& id, const RowHeights& rows) {
    const std::size_t anchor = rows.find(id);
    if (anchor == rows.size()) return list_;
    newest_ = false;
    id_ = id;
    below_ = 0.0f;
    list_ = reachable(rows.top_of(anchor), rows);
    return list_;
}

float ReaderPlace::end(float end, bool hold) {
    const float want = newest_ ? std::max(end, max_) : std::round(std::max(0.0f, top_ + list_));
    asked_ = -1.0f;
    if (!hold && std::fabs(want - scroll_) > 0.5f && (want < scroll_ || scroll_ < max_ - 0.5f || end != end_)) {
        asked_ = want;
    }
    end_ = end;
    seen_ = scroll_;
    started_ = true;
    return asked_;
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

DrawnContext drawn_context(const RoomView& room, const std::vector<Contact>* contacts,
                           const std::string& my_account_id, std::int64_t now_unix, const UserTime& user) {
    Digest base;
    base.add(my_account_id).add(written_time(now_unix, TimeStyle::date, user));
    base.add(static_cast<std::int64_t>(i18n::language()));
    Digest names;
    for (const RoomMember& m : room.members()) names.add(m.account_id).add(m.name);
    if (contacts) {
        for (const Contact& c : *contacts) names.add(c.account_id).add(c.name);
    }
    return {base.value(), names.value()};
}

const DrawnMessage& DrawnMessages::get(const ChatMessage& message, const DrawnContext& context,
                                       const std::string& my_account_id, const notation::NameLookup& names,
                                       std::int64_t now_unix, const UserTime& user) {
    if (context.base != base_) {
        entries_.clear();
        base_ = context.base;
    }
    const std::uint64_t version = message_version(message, false);
    std::size_t at = find_from(entries_, next_, [&](const Entry& e) { return e.id == message.message_id; });
    if (at == entries_.size()) entries_.push_back(Entry{message.message_id, version + 1, context.names, {}, {}});
    Entry& entry = entries_[at];
    if (entry.version == version && entry.names != context.names) {
        // Other names: parsed again only when one it read now reads otherwise.
        for (std::size_t i = 0; i + 1 < entry.read.size(); i += 2) {
            if (names(entry.read[i]) != entry.read[i + 1]) entry.version = version + 1;
        }
    }
    entry.names = context.names;
    if (entry.version != version) {
        entry.version = version;
        entry.read.clear();
        const notation::NameLookup reading = [&](std::string_view id) {
            std::string name = names(id);
            entry.read.emplace_back(id);
            entry.read.push_back(name);
            return name;
        };
        entry.drawn = drawn_message(message, my_account_id, reading, now_unix, user);
        ++parses_;
    }
    next_ = at + 1;
    return entry.drawn;
}

const ParagraphLayout& ParagraphLayouts::get(std::string_view text, float width, float text_size,
                                             line_break::Measure measure, const void* context) {
    // (Widths to 1/64 px: what a layout can tell apart.)
    const std::uint64_t key = Digest()
                                  .add(text)
                                  .add(static_cast<std::int64_t>(text.size()))
                                  .add(static_cast<std::int64_t>(std::lround(width * 64.0f)))
                                  .add(static_cast<std::int64_t>(std::lround(text_size * 64.0f)))
                                  .value();
    ++clock_;
    std::size_t at = find_from(entries_, next_, [&](const Entry& e) { return e.key == key; });
    if (at == entries_.size()) {
        if (entries_.size() >= kKept) {
            // Forget the half used longest ago.
            std::vector<std::uint64_t> uses;
            for (const Entry& e : entries_) uses.push_back(e.used);
            std::nth_element(uses.begin(), uses.begin() + static_cast<std::ptrdiff_t>(uses.size() / 2), uses.end());
            const std::uint64_t cut = uses[uses.size() / 2];
            entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.used < cut; }),
                           entries_.end());
        }
        Entry e;
        e.key = key;
        ParagraphLayout& l = e.layout;
        l.links = find_links(text);
        std::size_t begin = 0;
        while (begin <= text.size()) {
            std::size_t hard = text.find('\n', begin);
            if (hard == std::string_view::npos) hard = text.size();
            const std::vector<line_break::Line> lines =
                line_break::wrap(text.substr(begin, hard - begin), width, measure, context);
            if (lines.empty()) l.lines.push_back({begin, begin});
            for (const line_break::Line& line : lines) l.lines.push_back({begin + line.begin, begin + line.end});
            begin = hard + 1;
        }
        for (const line_break::Line& line : l.lines) {
            l.widths.push_back(line.end > line.begin ? measure(text.substr(line.begin, line.end - line.begin), context) : 0.0f);
            l.widest = std::max(l.widest, l.widths.back());
        }
        entries_.push_back(std::move(e));
        at = entries_.size() - 1;
    }
    entries_[at].used = clock_;
    next_ = at + 1;
    return entries_[at].layout;
}

void DrawnMessages::keep_only(const std::vector<ChatMessage>& kept) {
    if (entries_.size() <= kept.size()) return;
    std::vector<Entry> still;
    for (const ChatMessage& m : kept) {
        const std::size_t at = find_from(entries_, 0, [&](const Entry& e) { return e.id == m.message_id; });
        if (at != entries_.size()) still.push_back(std::move(entries_[at]));
    }
    entries_ = std::move(still);
    next_ = 0;
}

}  // namespace roomkey::app
