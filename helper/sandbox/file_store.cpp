// file_store.cpp: FileStore, DownloadSigner and the file name/size formats
// (see file_store.hpp).
#include "sandbox/file_store.hpp"

#include <charconv>
#include <cstdio>

#include "roomkey/hmac.hpp"
#include "roomkey/pkce.hpp"  // constant_time_equals

namespace roomkey::sandbox {

bool FileStore::add(StoredFile file) {
    if (file.bytes.size() > max_bytes_) return false;
    while (!files_.empty() && total_ + file.bytes.size() > max_bytes_) {
        total_ -= files_.front().bytes.size();
        files_.pop_front();
    }
    total_ += file.bytes.size();
    if (file.file_id >= next_id_) next_id_ = file.file_id + 1;  // a fixture's ids may pass 9100
    files_.push_back(std::move(file));
    return true;
}

const StoredFile* FileStore::find(std::int64_t file_id) const {
    for (const StoredFile& f : files_) {
        if (f.file_id == file_id) return &f;
    }
    return nullptr;
}

DownloadSigner::DownloadSigner(const RandomSource& random) : key_(random_bytes(random, 32)) {}

std::string DownloadSigner::signature(std::int64_t file_id, std::int64_t expires) const {
    // The purpose first, so this key signs nothing else by accident.
    return to_hex(hmac_sha256(key_, "roomkey-sandbox download\n" + std::to_string(file_id) + "\n" +
                                        std::to_string(expires)));
}

std::string DownloadSigner::query(std::int64_t file_id, std::int64_t expires) const {
    return "expires=" + std::to_string(expires) + "&signature=" + signature(file_id, expires);
}

DownloadSigner::Check DownloadSigner::check(std::int64_t file_id, std::string_view expires,
                                            std::string_view signature_text, std::int64_t now) const {
    std::int64_t at = 0;
    const auto [end, ec] = std::from_chars(expires.data(), expires.data() + expires.size(), at);
    if (expires.empty() || ec != std::errc() || end != expires.data() + expires.size() || at < 0 ||
        signature_text.size() != 64) {
        return Check::malformed;
    }
    if (!constant_time_equals(signature(file_id, at), signature_text)) return Check::bad_signature;
    if (now > at) return Check::expired;
    return Check::ok;
}

std::string attachment_disposition(std::string_view filename) {
    std::string fallback;
    std::string encoded;
    static const char* hex = "0123456789ABCDEF";
    for (char ch : filename) {
        const auto c = static_cast<unsigned char>(ch);
        // RFC 8187 attr-char: ALPHA / DIGIT / "!#$&+-.^_`|~"; the rest is %XX.
        const bool attr = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          std::string_view("!#$&+-.^_`|~").find(ch) != std::string_view::npos;
        if (attr) {
            encoded += ch;
        } else {
            encoded += '%';
            encoded += hex[c >> 4];
            encoded += hex[c & 0xF];
        }
        // The quoted fallback for old clients: printable ASCII without `"` and `\`.
        fallback += (c >= 0x20 && c < 0x7F && ch != '"' && ch != '\\') ? ch : '_';
    }
    if (fallback.empty()) fallback = "download";
    return "attachment; filename=\"" + fallback + "\"; filename*=UTF-8''" + encoded;
}

}  // namespace roomkey::sandbox
