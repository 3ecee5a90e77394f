// dtext_words.cpp: see dtext_words.hpp.
#include "app/dtext_words.hpp"

#include "app/i18n.hpp"
#include "roomkey/notation.hpp"

namespace roomkey::app {

std::string dtext_in_words(std::string_view key) {
    const std::string entry = "dtext." + std::string(key);
    return i18n::has(entry) ? std::string(tr(entry)) : notation::dtext_words(key);
}

}  // namespace roomkey::app
