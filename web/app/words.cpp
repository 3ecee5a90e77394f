// words.cpp: see words.hpp.
#include "app/words.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {

std::string cut_short(std::string_view text, std::size_t most) {
    std::string out;
    std::size_t chars = 0;
    for (char c : text) {
        if (c == '\n' || c == '\t') c = ' ';
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && chars++ == most) {
            while (!out.empty() && out.back() == ' ') out.pop_back();
            return out + "\xE2\x80\xA6";  // …
        }
        out += c;
    }
    return out;
}

std::string room_words(const std::vector<Room>* rooms, const std::string& room_id) {
    if (rooms) {
        for (const Room& r : *rooms) {
            if (r.room_id == room_id && !r.name.empty()) return r.name;
        }
    }
    return tr("words.the_room");
}

std::string file_words(const std::vector<ChatFile>& files, const std::string& file_id) {
    for (const ChatFile& f : files) {
        if (f.file_id == file_id && !f.filename.empty()) return f.filename;
    }
    return tr("words.the_file");
}

std::string task_words(const std::vector<const std::vector<ChatTask>*>& lists, const std::string& task_id) {
    for (const auto* list : lists) {
        if (!list) continue;
        for (const ChatTask& t : *list) {
            if (t.task_id == task_id && !t.body.empty()) return "'" + cut_short(t.body) + "'";
        }
    }
    return tr("words.the_task");
}

std::string role_words(const std::string& role) {
    const std::string key = "room.role." + role;
    return i18n::has(key) ? tr(key) : role;
}

std::string Piece::text() const {
    if (!key) return value;
    if (count >= 0) return tr_n(key, count);
    if (!*name) return tr(key);
    return tr(key, {{name, value_key ? std::string(tr(value_key)) : value}});
}

Words::Words(const char* key, const char* name, std::string value, const char* value_key)
    : Words(Piece{key, name, std::move(value), value_key}) {}

Words::Words(Piece piece) {
    pieces.push_back(std::move(piece));
}

Words Words::counted(const char* key, long long count) {
    return Words(Piece{key, "", {}, nullptr, count});
}

Words Words::as_written(std::string text) {
    return Words(Piece{nullptr, "", std::move(text)});
}

Words Words::then(Piece piece) && {
    pieces.push_back(std::move(piece));
    return std::move(*this);
}

std::string Words::text() const {
    std::string out;
    for (const Piece& piece : pieces) {
        if (&piece != &pieces.front()) out += ": ";
        out += piece.text();
    }
    return out;
}

}  // namespace roomkey::app
