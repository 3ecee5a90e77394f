// message_layout.hpp: what a long list keeps so that only what is on screen
// costs a frame (Dear ImGui's ListClipper, with heights that differ by row):
// each row's measured height, kept by its id and the version of what it
// shows, forgotten when the width or the text size changes; the window of
// rows a scroll position shows; and each message of the conversation parsed
// once per body (kept by message_id and update_time), not every frame. Pure:
// the UI (web/src/ui_conversation.cpp) measures, this remembers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/message_view.hpp"
#include "roomkey/line_break.hpp"
#include "roomkey/links.hpp"

namespace roomkey::app {

// The rows a view shows, and the space of the rows above and below it.
struct RowWindow {
    std::size_t first = 0;  // the first row drawn
    std::size_t last = 0;   // one past the last row drawn
    float before = 0;       // the height of the rows above `first`
    float after = 0;        // the height of the rows from `last` on
};

// A row as the list holds it now: what it is and what it shows.
struct RowKey {
    std::string id;
    std::uint64_t version = 0;  // changes when what the row shows changes (an edit)
    // What its text holds: until it is drawn, a row is given at least the
    // height of the fewest lines that text can take (line_break.hpp).
    line_break::Extent text;
};

class RowHeights {
public:
    // The width and text size rows are laid out at; any change forgets every
    // height (text wraps differently). `estimate`: the height of a short row
    // (one line of text) not measured yet, until one is; a longer text's row
    // is given a line of `text_size` (the line height) more for each line
    // its text takes at the fewest in a font `em` pixels high (0: as high as
    // the lines). Opening a room of long messages then draws the few that
    // fill the view, not as many as short rows would.
    void set_layout(float width, float text_size, float estimate, float em = 0);
    // The rows, in order. Heights measured for a row with the same id and
    // version are kept; a row whose version changed is measured again.
    void set_rows(const std::vector<RowKey>& rows);
    // Row `row` was drawn `height` high.
    void measured(std::size_t row, float height);

    // The rows that meet [scroll_y, scroll_y + view_height], and `margin`
    // more above and below (pixels, so a wheel step finds them drawn).
    RowWindow window(float scroll_y, float view_height, float margin) const;
    // The rows a frame draws: those in view, and those in the margin only
    // while their height is not measured yet (so a wheel step finds them
    // measured, and the rows in view do not jump). Once measured, the rows
    // off screen cost the frame nothing.
    RowWindow drawn(float scroll_y, float view_height, float margin) const;
    // Where row `row` starts, from the top of the list; total(): the list's height.
    float top_of(std::size_t row) const;
    float total() const { return top_of(rows_.size()); }
    std::size_t size() const { return rows_.size(); }
    // Whether row `row`'s height was measured (else it is the estimate).
    bool known(std::size_t row) const;
    // The row with id `id`, or size() when there is none.
    std::size_t find(const std::string& id) const;
    const std::string& id(std::size_t row) const { return rows_[row].id; }

private:
    float height_of(std::size_t row) const;

    float width_ = -1;
    float text_size_ = -1;
    float estimate_ = 0;
    float em_ = 0;
    std::vector<RowKey> rows_;
    std::vector<float> heights_;  // by row; below 0: not measured (no map: wasm size)
};

// The reader's place in a list the view scrolls (the conversation): at
// the newest (the view follows the end as rows come), or at a row (the
// first one whole in view, `below` pixels under the view's top). Rows
// measured again (the width changed: Details opened or closed, the window
// resized; rows measured for the first time) move the rows, not the
// reader: the view is put back at that row. Only the reader moves the place
// (a wheel, the scroll bar, the keys, a jump): a scroll other than the one
// the view asked for as the view clamps it (rounded, at most `max`). Rows
// not measured yet take the estimate, often short, and the end they make
// can clamp the scroll asked for: that clamp is the view's own. (Read as
// the reader's, it moved the place to where the clamp left it: the place
// lost under load, when rows were measured a frame later.)
class ReaderPlace {
public:
    // A frame begins: the view's scroll and its end (`max`), where the list
    // starts in the view's content (`top`), its height. `fresh`: another list
    // (or none yet): at the newest. `jumped`: the frame moves the view itself
    // (a reply's target, the first unread). Returns the scroll, in the list's
    // coordinates, whose rows the frame draws.
    float begin(float scroll, float max, float top, float view, const RowHeights& rows, bool fresh, bool jumped);
    // The reader asked for the newest ("Jump to latest", a post).
    void to_newest() { newest_ = true; }
    // The view opens at the row `id`, its top at the view's top (a room
    // opened at its first unread), and keeps it there while the rows above
    // are measured; called after begin(), returns the frame's scroll as
    // begin() does. The place, not ImGui's SetScrollHereY, moves the view:
    // a scroll ImGui applied would read as the reader's own, taken at
    // whatever row the guessed heights put there.
    float show(const std::string& id, const RowHeights& rows);
    // The frame's rows are drawn and the content ends at `end` (the view's
    // coordinates). Returns the scroll to ask the view for, or below 0 for
    // none: only while it moves the view (a place below the end waits for
    // the end to grow). `hold`: the frame's scroll is someone else's.
    float end(float end, bool hold);
    bool newest() const { return newest_; }
    const std::string& row() const { return id_; }

private:
    bool started_ = false;
    bool newest_ = true;
    std::string id_;
    float below_ = 0;
    float asked_ = -1.0f;  // the scroll asked for at the last frame (below 0: none)
    float seen_ = 0;       // the scroll the last frame began with
    float end_ = -1.0f;    // where the content ended
    // This frame's.
    float scroll_ = 0;
    float max_ = 0;
    float top_ = 0;
    float list_ = 0;
    float view_ = 0;
    float reachable(float list, const RowHeights& rows) const;
};

// What every drawn message reads besides itself. `base`: who I am, the day
// the times are written against and the language (a change parses every
// message again). `names`: the room's members and the contacts (a change
// parses again only the messages that read a name it changed: the members'
// answer coming after the messages' parses nothing again when the names
// the messages show stay). The conversation and the page state ask with the
// same one, so a message is parsed once for both.
struct DrawnContext {
    std::uint64_t base = 0;
    std::uint64_t names = 0;
};
DrawnContext drawn_context(const RoomView& room, const std::vector<Contact>* contacts,
                           const std::string& my_account_id, std::int64_t now_unix, const UserTime& user);

// Messages as drawn (message_view.hpp), parsed once per message_id and
// version (message_version), and again only when what they read changed
// (DrawnContext). The open room keeps one (open_room.hpp).
class DrawnMessages {
public:
    const DrawnMessage& get(const ChatMessage& message, const DrawnContext& context, const std::string& my_account_id,
                            const notation::NameLookup& names, std::int64_t now_unix, const UserTime& user);
    // Forgets the messages not in `kept` (deleted, or another room's).
    void keep_only(const std::vector<ChatMessage>& kept);
    std::size_t size() const { return entries_.size(); }
    // How many times a message was parsed, in all.
    std::size_t parses() const { return parses_; }

private:
    struct Entry {
        std::string id;
        std::uint64_t version = 0;
        std::uint64_t names = 0;  // the names context it was last checked against
        std::vector<std::string> read;  // the names its parse read: account id, name, account id, ...
        DrawnMessage drawn;
    };
    std::uint64_t base_ = 0;
    std::size_t parses_ = 0;
    std::vector<Entry> entries_;  // in the order asked for, so a frame's lookups run along it
    std::size_t next_ = 0;        // where the next lookup starts
};

// A paragraph as drawn: its lines (UAX #14, line_break.hpp; an empty line
// is one with begin == end), each line's width, and its links.
struct ParagraphLayout {
    std::vector<line_break::Line> lines;  // byte offsets into the paragraph, hard lines split
    std::vector<float> widths;            // by line, as `measure` says
    float widest = 0;
    std::vector<TextLink> links;
};

// Paragraphs laid out once per text, width and text size, not every frame:
// breaking a long message into lines (and finding its links) was most of
// what drawing it cost. Keeps the paragraphs of the last few hundred asked
// for (those on screen, and what a scroll brings back).
class ParagraphLayouts {
public:
    const ParagraphLayout& get(std::string_view text, float width, float text_size, line_break::Measure measure,
                               const void* context);
    std::size_t size() const { return entries_.size(); }
    static constexpr std::size_t kKept = 384;

private:
    struct Entry {
        std::uint64_t key = 0;
        std::uint64_t used = 0;
        ParagraphLayout layout;
    };
    std::vector<Entry> entries_;
    std::uint64_t clock_ = 0;  // counts lookups: which were used last
    std::size_t next_ = 0;     // where the next lookup starts (paragraphs come in the same order each frame)
};

// The version of a message as a row shows it: its update_time and body
// length, and whether a day separator sits above it.
std::uint64_t message_version(const ChatMessage& message, bool day_separator);

}  // namespace roomkey::app
