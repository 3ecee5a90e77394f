// dtext_words.cpp: see dtext_words.hpp.
#include "app/dtext_words.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {

std::string dtext_in_words(std::string_view key) {
    const std::string entry = "dtext." + std::string(key);
    return i18n::has(entry) ? std::string(tr(entry)) : notation::dtext_words(key);
}

namespace {

std::string catalog_words(notation::Phrase phrase, const notation::PhraseValues& values) {
    using notation::Phrase;
    const std::initializer_list<i18n::Arg> args = {{"name", std::string(values.name)},
                                                   {"text", std::string(values.text)}};
    switch (phrase) {
        case Phrase::mention:
            return tr("notation.mention", args);
        case Phrase::reply:
            return tr("notation.reply", args);
        case Phrase::to_all:
            return tr("notation.to_all");
        case Phrase::task:
            return tr("notation.task", args);
        case Phrase::task_for:
            return tr("notation.task_for", args);
        case Phrase::task_done:
            return tr("notation.task_done", args);
        case Phrase::task_for_done:
            return tr("notation.task_for_done", args);
        case Phrase::dtext:
            return dtext_in_words(values.text);
    }
    return std::string(values.text);
}

}  // namespace

const notation::Wording& notation_words() {
    static const notation::Wording words = catalog_words;
    return words;
}

std::string plain_text(const notation::Parts& parts, const notation::NameLookup& names) {
    return notation::plain_text(parts, names, notation_words());
}

std::string plain_text(std::string_view body, const std::vector<notation::Part>& parts,
                       const notation::NameLookup& names) {
    return notation::plain_text(body, parts, names, notation_words());
}

}  // namespace roomkey::app
