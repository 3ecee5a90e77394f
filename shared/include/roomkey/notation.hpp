// notation.hpp: the service's message notation read into typed parts that keep every byte of the body.
//
// [SECTION] What is read
//   [To:1001]Alice                  mention      (name: the rest of the line the writer put after the tag)
//   [toall]                         to_all
//   [rp aid=1002 to=2100-123]Bob    reply        (also [返信 aid=.. to=..], as the Japanese UI writes it)
//   [qt][qtmeta aid=1002 time=T]..[/qt]   quote  (qtmeta optional; nested parts)
//   [info][title]T[/title]..[/info] info         (title optional; nested parts)
//   [info][title][dtext:KEY][/title]..[/info]    service_event: the service's own message
//   [code]..[/code]                 code         (contents verbatim: no tags inside)
//   [hr]                            rule
//   [picon:1002] [piconname:1002]   picon / piconname: an account's picture, its picture and name
//   [task aid=1 st=open lt=UNIX ltype=date]..[/task]   task (attributes optional; nested parts)
//   [dtext:KEY]                     dtext: a phrase the service's clients put into words
//   [preview id=5 ht=120]           preview of an uploaded file
//   [download:5]name (size)[/download]   download (contents verbatim)
// Sources: the service's notation guide; wlg-shinya/chatwork-converter; nnabeyang/unofficial-chatwork-parser;
// helper/sandbox/service_messages.hpp for the service's own messages.
//
// [SECTION] The rules (see docs in notation.cpp for how they are met)
// - Every byte belongs to exactly one part: the top-level parts' `source` ranges are in order, do not
//   overlap and cover the body; a container's children cover its `inner` range the same way.
// - A tag the parser does not know, one whose attributes do not read (an id that is not digits), an
//   opener that never closes and a closer that opens nothing are text. Adjacent text is one part.
// - Names are case-sensitive as the service writes them ("[To:", not "[to:").
// - Containers (quote, info, service_event, task) nest at most kMaxDepth deep; a deeper opener is text.
// - Work is linear in the body's length (a 65,535-character hostile body parses in one pass).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roomkey::notation {

// Containers inside containers; the 9th level of [qt] is text. Real bodies
// nest quotes two or three deep.
inline constexpr int kMaxDepth = 8;

enum class PartKind {
    text,
    mention,
    to_all,
    reply,
    quote,
    info,
    service_event,
    code,
    rule,
    picon,
    piconname,
    dtext,
    task,
    preview,
    download,
};
std::string_view to_string(PartKind kind);

enum class TaskState { unknown, open, done };
enum class LimitType { unknown, none, date, time };

// A byte range [begin, end) of the body. Offsets, not views, so a parsed
// message can be copied or moved with its body and stay valid.
struct Span {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t size() const { return end - begin; }
    bool empty() const { return end == begin; }
    std::string_view of(std::string_view body) const { return body.substr(begin, end - begin); }
    friend bool operator==(const Span& a, const Span& b) { return a.begin == b.begin && a.end == b.end; }
    friend bool operator!=(const Span& a, const Span& b) { return !(a == b); }
};

// One part of a body. Which fields mean something depends on `kind`; the
// others stay empty.
struct Part {
    PartKind kind = PartKind::text;
    Span source;  // every byte of the part, tags included
    // quote, info, service_event, task: the range `children` cover;
    // code, download: the verbatim contents; the others: == source.
    Span inner;
    Span account_id;  // mention, reply, quote (qtmeta aid), picon, piconname, task (aid)
    // mention, reply: the rest of the line after the tag, as the writer left
    // it (the service's pickers put the account's name there: "[To:1001]Alice").
    // info: the title's text. download: the file's name.
    Span name;
    Span room_id;                      // reply: to=ROOM-...
    Span message_id;                   // reply: to=...-MESSAGE
    Span key;                          // service_event (its title's dtext), dtext
    Span file_id;                      // preview, download
    Span size;                         // download: the text in the last parentheses of its contents ("12.5 KB")
    std::optional<std::int64_t> time;  // quote: qtmeta time=; task: lt= (Unix seconds)
    TaskState task_state = TaskState::unknown;
    LimitType limit_type = LimitType::unknown;
    std::vector<Part> children;  // quote, info, service_event, task
};

// The parts of `body`, whose spans index `body`.
std::vector<Part> parse_parts(std::string_view body);

// A message parsed with its own copy of the body, so the spans stay valid
// wherever the value goes.
struct Parts {
    std::string body;
    std::vector<Part> parts;
    std::string_view of(const Span& span) const { return span.of(body); }
};
Parts parse(std::string body);

// The deepest container nesting in `parts` (0: no containers).
int depth(const std::vector<Part>& parts);

// A dtext key the app has no words for, read as itself: '_' as spaces, the
// first letter capitalised ("chatroom_description_is" -> "Chatroom
// description is"). The words of the keys the app knows are its catalog's
// (shared/ holds no language).
std::string dtext_words(std::string_view key);

// What the writer put after a mention or reply tag, once the account's name
// is drawn: "[To:1001] Alice, hi" with name "Alice" leaves ", hi"; text that
// does not start with the name is left whole.
std::string_view written_after_name(std::string_view written, std::string_view name);

// Account id -> display name; an empty answer means "not known" (the id is shown).
using NameLookup = std::function<std::string(std::string_view account_id)>;

// The words plain_text puts where a tag stood. shared/ says which words are
// meant and with which values; the caller puts them in the reader's
// language (the app: from its catalog, web/app/dtext_words.hpp).
enum class Phrase {
    mention,        // [To:id]             name: the account's        "To Alice"
    reply,          // [rp aid=..]         name                       "Re Bob"
    to_all,         // [toall]                                        "To all"
    task,           // a task for no one   text: its contents         "Task: Review"
    task_for,       // name, text                                     "Task for Alice: Review"
    task_done,      // text                                           "Task: Review, done"
    task_for_done,  // name, text                                     "Task for Alice: Review, done"
    dtext,          // [dtext:KEY] and a service event's title: text is KEY   "Task added"
};
struct PhraseValues {
    std::string_view name;
    std::string_view text;
};
using Wording = std::function<std::string(Phrase phrase, const PhraseValues& values)>;

// The message as a reader sees it, without tags:
//   mention    Phrase::mention (then what the writer put after the name); [toall] Phrase::to_all
//   reply      Phrase::reply
//   quote      "> Bob" then each quoted line as "> line" (nested quotes "> > ")
//   info       its title on a line, then its contents
//   service    its event in words (Phrase::dtext) on a line, then its contents
//   task       Phrase::task.. (the deadline is left to the caller, who knows the time zone)
//   code       its contents verbatim; rule "----"
//   picon, piconname   the account's name; dtext: its words
//   download   "name (size)" as written; preview: nothing (its download names the file)
// Blocks (quote, info, service_event, code, rule) stand on lines of their own.
std::string plain_text(const Parts& parts, const NameLookup& names, const Wording& words);
std::string plain_text(std::string_view body, const std::vector<Part>& parts, const NameLookup& names,
                       const Wording& words);

}  // namespace roomkey::notation
