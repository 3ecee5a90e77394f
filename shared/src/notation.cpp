// notation.cpp: reading the service's notation into parts (see notation.hpp).
//
// Index
//   [SECTION] Reading one tag       what the inside of [...] says
//   [SECTION] Tokens                one pass over the body: every tag the parser knows, in order
//   [SECTION] Matching              openers to closers with one stack (linear, depth-bounded)
//   [SECTION] Parts                 tokens and the text between them into the part tree
//
// Why two passes instead of recursive descent that searches for each closer:
// searching forward from every opener is quadratic on "[qt][qt][qt]..." and
// recursing on it is as deep as the body is long. Here every '[' is looked at
// once, a tag's inside is read at most kMaxTagInside bytes far, each verbatim
// closer ([/code], [/title], [/download]) is searched for once per body
// (NextCloser), and the recursion that builds the tree goes only as deep as
// the matched containers, which matching caps at kMaxDepth.
#include "roomkey/notation.hpp"

#include <algorithm>

namespace roomkey::notation {

namespace notation_reading {
namespace {

constexpr std::size_t kNpos = std::string_view::npos;

// No tag the service writes has a longer inside than this ("rp aid=.. to=..-.."
// is under 60 bytes); a '[' followed by more is text, and reading stops there.
constexpr std::size_t kMaxTagInside = 160;

// [SECTION] Reading one tag

bool all_digits(std::string_view text) {
    if (text.empty()) return false;
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_key(std::string_view text) {
    if (text.empty()) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

// Digits to a number; nullopt past int64 (a hostile lt=999...).
std::optional<std::int64_t> to_int64(std::string_view digits) {
    if (!all_digits(digits) || digits.size() > 18) return std::nullopt;
    std::int64_t value = 0;
    for (char c : digits) value = value * 10 + (c - '0');
    return value;
}

// The space-separated name=value attributes of a tag's inside, as spans of
// the body. `from` is where they start; the first of a repeated name wins.
struct Attributes {
    std::string_view body;
    Span all;
    std::optional<Span> get(std::string_view name) const {
        std::size_t pos = all.begin;
        while (pos < all.end) {
            std::size_t space = body.find(' ', pos);
            if (space == kNpos || space > all.end) space = all.end;
            const std::string_view item = body.substr(pos, space - pos);
            if (item.size() > name.size() && starts_with(item, name) && item[name.size()] == '=') {
                return Span{pos + name.size() + 1, space};
            }
            pos = space + 1;
        }
        return std::nullopt;
    }
};

// The first `needle` at or after a position, for positions that only grow:
// each byte of the body is searched once however many openers ask.
class NextCloser {
public:
    NextCloser(std::string_view body, std::string_view needle) : body_(body), needle_(needle) {}
    std::size_t from(std::size_t pos) {
        if (!searched_ || (found_ != kNpos && found_ < pos)) {
            found_ = body_.find(needle_, pos);
            searched_ = true;
        }
        return found_;
    }

private:
    std::string_view body_;
    std::string_view needle_;
    std::size_t found_ = kNpos;
    bool searched_ = false;
};

// [SECTION] Tokens

enum class TokenKind { part, open, close };

struct Token {
    TokenKind kind = TokenKind::part;
    // part: the whole leaf or verbatim part; open: the container as far as
    // its opening tags go (its kind and attributes); close: kind and source.
    Part part;
    std::size_t match = kNpos;  // open: the index of its closer, when matched
};

constexpr std::string_view kReplyJapanese = "\xE8\xBF\x94\xE4\xBF\xA1 ";  // "返信 "

class Tokenizer {
public:
    explicit Tokenizer(std::string_view body)
        : body_(body),
          code_close_(body, "[/code]"),
          title_close_(body, "[/title]"),
          download_close_(body, "[/download]") {}

    std::vector<Token> run() {
        std::size_t pos = 0;
        while ((pos = body_.find('[', pos)) != kNpos) {
            const std::size_t close = inside_end(pos);
            if (close == kNpos || body_[close] != ']') {
                // Not a tag: go on from the '[' that cut it short, or the next byte.
                pos = (close != kNpos && body_[close] == '[') ? close : pos + 1;
                continue;
            }
            const std::size_t next = read_tag(pos, close);
            pos = next > pos ? next : pos + 1;
        }
        return std::move(tokens_);
    }

private:
    // Where the inside of the tag opened at `open` stops: its ']', or the '['
    // or newline that cuts it short; kNpos at the body's end or the length limit.
    std::size_t inside_end(std::size_t open) const {
        const std::size_t limit = std::min(body_.size(), open + 2 + kMaxTagInside);
        for (std::size_t i = open + 1; i < limit; ++i) {
            const char c = body_[i];
            if (c == ']' || c == '[' || c == '\n') return i;
        }
        return kNpos;
    }

    // Reads the tag body_[open..close]; returns where scanning goes on
    // (`open` itself when it is not a tag the parser knows).
    std::size_t read_tag(std::size_t open, std::size_t close) {
        const std::string_view inside = body_.substr(open + 1, close - open - 1);
        const std::size_t end = close + 1;
        const std::size_t at = open + 1;  // where `inside` starts in the body
        Part p;
        p.source = Span{open, end};

        if (starts_with(inside, "To:") && all_digits(inside.substr(3))) {
            p.kind = PartKind::mention;
            p.account_id = Span{at + 3, close};
            return leaf_with_name(p);
        }
        if (starts_with(inside, "rp ") || starts_with(inside, kReplyJapanese)) {
            const std::size_t skip = inside[0] == 'r' ? 3 : kReplyJapanese.size();
            const Attributes attributes{body_, Span{at + skip, close}};
            const auto aid = attributes.get("aid");
            if (!aid || !all_digits(aid->of(body_))) return open;
            p.kind = PartKind::reply;
            p.account_id = *aid;
            if (const auto to = attributes.get("to")) {
                const std::string_view target = to->of(body_);
                const std::size_t dash = target.find('-');
                if (dash != kNpos && all_digits(target.substr(0, dash)) && all_digits(target.substr(dash + 1))) {
                    p.room_id = Span{to->begin, to->begin + dash};
                    p.message_id = Span{to->begin + dash + 1, to->end};
                }
            }
            return leaf_with_name(p);
        }
        if (inside == "toall") return leaf(p, PartKind::to_all);
        if (inside == "hr") return leaf(p, PartKind::rule);
        if (starts_with(inside, "picon:") && all_digits(inside.substr(6))) {
            p.account_id = Span{at + 6, close};
            return leaf(p, PartKind::picon);
        }
        if (starts_with(inside, "piconname:") && all_digits(inside.substr(10))) {
            p.account_id = Span{at + 10, close};
            return leaf(p, PartKind::piconname);
        }
        if (starts_with(inside, "dtext:") && is_key(inside.substr(6))) {
            p.key = Span{at + 6, close};
            return leaf(p, PartKind::dtext);
        }
        if (starts_with(inside, "preview ")) {
            const Attributes attributes{body_, Span{at + 8, close}};
            const auto id = attributes.get("id");
            const auto height = attributes.get("ht");
            if (!id || !all_digits(id->of(body_)) || (height && !all_digits(height->of(body_)))) return open;
            p.file_id = *id;
            return leaf(p, PartKind::preview);
        }
        if (inside == "code") return verbatim_code(p, end);
        if (starts_with(inside, "download:") && all_digits(inside.substr(9))) {
            p.file_id = Span{at + 9, close};
            return verbatim_download(p, end);
        }
        if (inside == "qt") return open_quote(p, end);
        if (inside == "info") return open_info(p, end);
        if (inside == "task" || starts_with(inside, "task ")) return open_task(p, inside, at);
        if (inside == "/qt") return closer(p, PartKind::quote);
        if (inside == "/info") return closer(p, PartKind::info);
        if (inside == "/task") return closer(p, PartKind::task);
        return open;
    }

    std::size_t leaf(Part& p, PartKind kind) {
        p.kind = kind;
        p.inner = p.source;
        push(TokenKind::part, p);
        return p.source.end;
    }

    // Mentions and replies take the rest of their line: the name the
    // service's pickers write there, or what the writer typed instead.
    std::size_t leaf_with_name(Part& p) {
        std::size_t end = p.source.end;
        while (end < body_.size() && body_[end] != '\n' && body_[end] != '[') ++end;
        p.name = Span{p.source.end, end};
        p.source.end = end;
        p.inner = p.source;
        push(TokenKind::part, p);
        return end;
    }

    std::size_t verbatim_code(Part& p, std::size_t end) {
        const std::size_t stop = code_close_.from(end);
        if (stop == kNpos) return p.source.begin;
        p.kind = PartKind::code;
        p.inner = Span{end, stop};
        p.source.end = stop + 7;
        push(TokenKind::part, p);
        return p.source.end;
    }

    std::size_t verbatim_download(Part& p, std::size_t end) {
        const std::size_t stop = download_close_.from(end);
        if (stop == kNpos) return p.source.begin;
        p.kind = PartKind::download;
        p.inner = Span{end, stop};
        p.name = p.inner;
        // "name (size)": the size is the last parentheses, when the contents end with them.
        const std::string_view contents = p.inner.of(body_);
        const std::size_t paren = contents.rfind(" (");
        if (paren != kNpos && !contents.empty() && contents.back() == ')') {
            p.name = Span{end, end + paren};
            p.size = Span{end + paren + 2, stop - 1};
        }
        p.source.end = stop + 11;
        push(TokenKind::part, p);
        return p.source.end;
    }

    // [qt] takes a [qtmeta aid=.. time=..] right after it as its author and time.
    std::size_t open_quote(Part& p, std::size_t end) {
        p.kind = PartKind::quote;
        constexpr std::string_view kMeta = "[qtmeta ";
        if (body_.substr(end, kMeta.size()) == kMeta) {
            const std::size_t meta_close = inside_end(end);
            if (meta_close != kNpos && body_[meta_close] == ']') {
                const Attributes attributes{body_, Span{end + kMeta.size(), meta_close}};
                const auto aid = attributes.get("aid");
                const auto time = attributes.get("time");
                const bool aid_ok = aid && all_digits(aid->of(body_));
                const bool time_ok = !time || to_int64(time->of(body_));
                if (aid_ok && time_ok) {
                    p.account_id = *aid;
                    if (time) p.time = to_int64(time->of(body_));
                    end = meta_close + 1;
                }
            }
        }
        p.source.end = end;
        push(TokenKind::open, p);
        return end;
    }

    // [info] takes a [title]...[/title] right after it (verbatim); a title
    // that is one [dtext:KEY] makes it the service's own message.
    std::size_t open_info(Part& p, std::size_t end) {
        p.kind = PartKind::info;
        constexpr std::string_view kTitle = "[title]";
        if (body_.substr(end, kTitle.size()) == kTitle) {
            const std::size_t stop = title_close_.from(end + kTitle.size());
            if (stop != kNpos) {
                p.name = Span{end + kTitle.size(), stop};
                const std::string_view title = p.name.of(body_);
                if (starts_with(title, "[dtext:") && title.back() == ']' && is_key(title.substr(7, title.size() - 8))) {
                    p.kind = PartKind::service_event;
                    p.key = Span{p.name.begin + 7, p.name.end - 1};
                }
                end = stop + 8;
            }
        }
        p.source.end = end;
        push(TokenKind::open, p);
        return end;
    }

    std::size_t open_task(Part& p, std::string_view inside, std::size_t at) {
        p.kind = PartKind::task;
        if (inside.size() > 4) {
            const Attributes attributes{body_, Span{at + 5, p.source.end - 1}};
            const auto aid = attributes.get("aid");
            const auto state = attributes.get("st");
            const auto limit = attributes.get("lt");
            const auto type = attributes.get("ltype");
            if (aid) {
                if (!all_digits(aid->of(body_))) return p.source.begin;
                p.account_id = *aid;
            }
            if (state) {
                const std::string_view st = state->of(body_);
                if (st != "open" && st != "done") return p.source.begin;
                p.task_state = st == "open" ? TaskState::open : TaskState::done;
            }
            if (limit) {
                p.time = to_int64(limit->of(body_));
                if (!p.time) return p.source.begin;
            }
            if (type) {
                const std::string_view lt = type->of(body_);
                if (lt == "none") {
                    p.limit_type = LimitType::none;
                } else if (lt == "date") {
                    p.limit_type = LimitType::date;
                } else if (lt == "time") {
                    p.limit_type = LimitType::time;
                } else {
                    return p.source.begin;
                }
            }
        }
        push(TokenKind::open, p);
        return p.source.end;
    }

    std::size_t closer(Part& p, PartKind kind) {
        p.kind = kind;
        push(TokenKind::close, p);
        return p.source.end;
    }

    void push(TokenKind kind, const Part& p) {
        Token token;
        token.kind = kind;
        token.part = p;
        tokens_.push_back(std::move(token));
    }

    std::string_view body_;
    NextCloser code_close_;
    NextCloser title_close_;
    NextCloser download_close_;
    std::vector<Token> tokens_;
};

// [SECTION] Matching

// The closer's kind for an opener's (a service event closes with [/info]).
PartKind closing_kind(PartKind kind) {
    return kind == PartKind::service_event ? PartKind::info : kind;
}

std::size_t kind_slot(PartKind kind) {
    switch (closing_kind(kind)) {
        case PartKind::quote:
            return 0;
        case PartKind::info:
            return 1;
        default:
            return 2;  // task
    }
}

// One stack for all containers, as an HTML parser keeps its open elements: a
// closer matches the nearest open container of its kind, and the containers
// opened after that one never close (they are text). A closer with no open
// container of its kind is text. An opener deeper than kMaxDepth is text.
void match(std::vector<Token>& tokens) {
    std::vector<std::size_t> open;
    std::size_t open_of_kind[3] = {0, 0, 0};
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        Token& token = tokens[i];
        if (token.kind == TokenKind::open) {
            if (open.size() >= static_cast<std::size_t>(kMaxDepth)) continue;
            open.push_back(i);
            ++open_of_kind[kind_slot(token.part.kind)];
        } else if (token.kind == TokenKind::close) {
            const std::size_t slot = kind_slot(token.part.kind);
            if (open_of_kind[slot] == 0) continue;
            while (true) {
                const std::size_t top = open.back();
                open.pop_back();
                const std::size_t top_slot = kind_slot(tokens[top].part.kind);
                --open_of_kind[top_slot];
                if (top_slot == slot) {
                    tokens[top].match = i;
                    break;
                }
            }
        }
    }
}

// [SECTION] Parts

class Builder {
public:
    explicit Builder(const std::vector<Token>& tokens) : tokens_(tokens) {}

    // The parts of `range`, from tokens [first, last) which all lie inside it.
    std::vector<Part> build(std::size_t first, std::size_t last, Span range) const {
        std::vector<Part> parts;
        std::size_t cursor = range.begin;
        std::size_t i = first;
        while (i < last) {
            const Token& token = tokens_[i];
            if (token.kind == TokenKind::part) {
                add_text(parts, cursor, token.part.source.begin);
                parts.push_back(token.part);
                cursor = token.part.source.end;
                ++i;
            } else if (token.kind == TokenKind::open && token.match != kNpos) {
                const Token& closer = tokens_[token.match];
                add_text(parts, cursor, token.part.source.begin);
                Part container = token.part;
                container.inner = Span{token.part.source.end, closer.part.source.begin};
                container.source.end = closer.part.source.end;
                container.children = build(i + 1, token.match, container.inner);
                parts.push_back(std::move(container));
                cursor = closer.part.source.end;
                i = token.match + 1;
            } else {
                ++i;  // an opener or closer without its pair: its bytes stay in the text around it
            }
        }
        add_text(parts, cursor, range.end);
        return parts;
    }

private:
    static void add_text(std::vector<Part>& parts, std::size_t begin, std::size_t end) {
        if (begin >= end) return;
        Part text;
        text.kind = PartKind::text;
        text.source = Span{begin, end};
        text.inner = text.source;
        parts.push_back(std::move(text));
    }

    const std::vector<Token>& tokens_;
};

}  // namespace
}  // namespace notation_reading

std::string_view to_string(PartKind kind) {
    switch (kind) {
        case PartKind::text:
            return "text";
        case PartKind::mention:
            return "mention";
        case PartKind::to_all:
            return "to_all";
        case PartKind::reply:
            return "reply";
        case PartKind::quote:
            return "quote";
        case PartKind::info:
            return "info";
        case PartKind::service_event:
            return "service_event";
        case PartKind::code:
            return "code";
        case PartKind::rule:
            return "rule";
        case PartKind::picon:
            return "picon";
        case PartKind::piconname:
            return "piconname";
        case PartKind::dtext:
            return "dtext";
        case PartKind::task:
            return "task";
        case PartKind::preview:
            return "preview";
        case PartKind::download:
            return "download";
    }
    return "unknown";
}

std::vector<Part> parse_parts(std::string_view body) {
    using namespace notation_reading;
    std::vector<Token> tokens = Tokenizer(body).run();
    match(tokens);
    return Builder(tokens).build(0, tokens.size(), Span{0, body.size()});
}

Parts parse(std::string body) {
    Parts parsed;
    parsed.body = std::move(body);
    parsed.parts = parse_parts(parsed.body);
    return parsed;
}

int depth(const std::vector<Part>& parts) {
    int deepest = 0;
    for (const Part& part : parts) {
        if (part.kind == PartKind::quote || part.kind == PartKind::info || part.kind == PartKind::service_event ||
            part.kind == PartKind::task) {
            deepest = std::max(deepest, 1 + depth(part.children));
        }
    }
    return deepest;
}

}  // namespace roomkey::notation
