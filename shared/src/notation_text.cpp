// notation_text.cpp: parts put into words: the message as a reader sees it, without tags (see notation.hpp).
#include <string>

#include "roomkey/notation.hpp"

namespace roomkey::notation {

namespace notation_text {
namespace {

std::string_view trim_newlines(std::string_view text) {
    while (!text.empty() && (text.front() == '\n' || text.front() == '\r')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    return text;
}

std::string_view trim_spaces_front(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    return text;
}

// Builds the text: blocks on lines of their own, chips apart from each other.
class Writer {
public:
    // Text as written; it goes on a new line after a block unless it starts one itself.
    void text(std::string_view s) {
        if (s.empty()) return;
        if (after_block_ && s.front() != '\n') out_ += '\n';
        // "[toall]lunch" reads "To all lunch" (and "[toall]お昼" "To all お昼": the chip's
        // words may be any language's); "[piconname:1]さん" or "Bob, " keep their own spacing.
        if ((last_chip_ == Chip::picture || last_chip_ == Chip::everyone) && !after_block_ && s.front() != ' ' &&
            s.front() != '\n' && std::string_view(".,:;!?)").find(s.front()) == std::string_view::npos &&
            (last_chip_ == Chip::everyone || static_cast<unsigned char>(s.front()) < 0x80)) {
            out_ += ' ';
        }
        out_ += s;
        after_block_ = false;
        last_chip_ = Chip::none;
    }

    // A name or a "To ..." standing for a tag; two in a row get a space
    // between them (a comma between pictures of accounts: "Bob, Carol").
    enum class Chip { none, picture, everyone, address };
    void chip(std::string_view s, Chip now) {
        const bool separate = last_chip_ != Chip::none && !out_.empty() && out_.back() != ' ' && out_.back() != '\n';
        if (after_block_) out_ += '\n';
        if (separate && !after_block_) out_ += (now == Chip::picture && last_chip_ == Chip::picture) ? ", " : " ";
        out_ += s;
        after_block_ = false;
        last_chip_ = now;
    }

    void block(std::string_view s) {
        if (!out_.empty() && out_.back() != '\n') out_ += '\n';
        out_ += s;
        after_block_ = true;
        last_chip_ = Chip::none;
    }

    std::string take() { return std::move(out_); }

private:
    std::string out_;
    bool after_block_ = false;
    Chip last_chip_ = Chip::none;
};

class PlainText {
public:
    PlainText(std::string_view body, const NameLookup& names, const Wording& words)
        : body_(body), names_(names), words_(words) {}

    std::string of(const std::vector<Part>& parts) const {
        Writer w;
        for (const Part& part : parts) write(w, part);
        return w.take();
    }

private:
    std::string name_of(const Span& account) const {
        const std::string_view id = account.of(body_);
        std::string name = names_ ? names_(id) : std::string();
        return name.empty() ? std::string(id) : name;
    }

    std::string say(Phrase phrase, std::string_view name = {}, std::string_view text = {}) const {
        if (words_) return words_(phrase, PhraseValues{name, text});
        // No words given: the values alone, a dtext key as it reads.
        if (phrase == Phrase::dtext) return dtext_words(text);
        std::string out(name);
        if (!out.empty() && !text.empty()) out += ' ';
        return out += text;
    }

    // "To Alice" / "Re Bob", then what the writer put after the name.
    void addressed(Writer& w, Phrase phrase, const Part& part) const {
        const std::string_view id = part.account_id.of(body_);
        const std::string known = names_ ? names_(id) : std::string();
        const std::string_view written = part.name.of(body_);
        if (known.empty()) {
            const std::string_view rest = trim_spaces_front(written);
            w.chip(say(phrase, rest.empty() ? id : rest), Writer::Chip::address);
            return;
        }
        w.chip(say(phrase, known), Writer::Chip::address);
        const std::string_view rest = written_after_name(written, known);
        if (rest.empty()) return;
        // Text that is not the name gets a space of its own ("To Alice Ali").
        if (rest.size() == written.size() && rest.front() != ' ' && rest.front() != '\t') {
            w.text(" ");
        }
        w.text(rest);
    }

    std::string quoted(const Part& part) const {
        std::string out;
        if (!part.account_id.empty()) out += "> " + name_of(part.account_id) + "\n";
        const std::string inside = of(part.children);
        const std::string_view lines = trim_newlines(inside);
        std::size_t pos = 0;
        while (pos <= lines.size()) {
            std::size_t end = lines.find('\n', pos);
            if (end == std::string_view::npos) end = lines.size();
            const std::string_view line = lines.substr(pos, end - pos);
            out += line.empty() ? ">" : "> ";
            out += line;
            out += '\n';
            pos = end + 1;
        }
        out.pop_back();
        return out;
    }

    std::string titled(std::string_view title, const Part& part) const {
        const std::string inside = of(part.children);
        const std::string_view content = trim_newlines(inside);
        std::string out(trim_newlines(title));
        if (!out.empty() && !content.empty()) out += '\n';
        out += content;
        return out;
    }

    void write(Writer& w, const Part& part) const {
        switch (part.kind) {
            case PartKind::text:
                w.text(part.source.of(body_));
                return;
            case PartKind::mention:
                addressed(w, Phrase::mention, part);
                return;
            case PartKind::reply:
                addressed(w, Phrase::reply, part);
                return;
            case PartKind::to_all:
                w.chip(say(Phrase::to_all), Writer::Chip::everyone);
                return;
            case PartKind::picon:
            case PartKind::piconname:
                w.chip(name_of(part.account_id), Writer::Chip::picture);
                return;
            case PartKind::dtext:
                w.text(say(Phrase::dtext, {}, part.key.of(body_)));
                return;
            case PartKind::quote:
                w.block(quoted(part));
                return;
            case PartKind::info:
                w.block(titled(part.name.of(body_), part));
                return;
            case PartKind::service_event:
                w.block(titled(say(Phrase::dtext, {}, part.key.of(body_)), part));
                return;
            case PartKind::code:
                w.block(trim_newlines(part.inner.of(body_)));
                return;
            case PartKind::rule:
                w.block("----");
                return;
            case PartKind::task: {
                const std::string inside = of(part.children);
                const bool done = part.task_state == TaskState::done;
                if (part.account_id.empty()) {
                    w.block(say(done ? Phrase::task_done : Phrase::task, {}, trim_newlines(inside)));
                } else {
                    w.block(say(done ? Phrase::task_for_done : Phrase::task_for, name_of(part.account_id),
                                trim_newlines(inside)));
                }
                return;
            }
            case PartKind::download:
                w.text(part.inner.of(body_));
                return;
            case PartKind::preview:
                return;
        }
    }

    std::string_view body_;
    const NameLookup& names_;
    const Wording& words_;
};

}  // namespace
}  // namespace notation_text

std::string dtext_words(std::string_view key) {
    std::string words(key);
    for (char& c : words) {
        if (c == '_') c = ' ';
    }
    if (!words.empty() && words[0] >= 'a' && words[0] <= 'z') words[0] = static_cast<char>(words[0] - 'a' + 'A');
    return words;
}

std::string_view written_after_name(std::string_view written, std::string_view name) {
    const std::string_view trimmed = notation_text::trim_spaces_front(written);
    if (!name.empty() && trimmed.substr(0, name.size()) == name) return trimmed.substr(name.size());
    return written;
}

std::string plain_text(std::string_view body, const std::vector<Part>& parts, const NameLookup& names,
                       const Wording& words) {
    return notation_text::PlainText(body, names, words).of(parts);
}

std::string plain_text(const Parts& parts, const NameLookup& names, const Wording& words) {
    return plain_text(parts.body, parts.parts, names, words);
}

}  // namespace roomkey::notation
