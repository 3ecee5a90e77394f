// encoding.cpp: base64 and base64url (RFC 4648 sections 4 and 5), strict:
// decoding accepts exactly the strings the matching encoder can produce.
#include "roomkey/encoding.hpp"

#include <cstdint>

namespace roomkey {

std::string_view to_string(Base64Error error) {
    switch (error) {
        case Base64Error::invalid_character: return "base64.invalid_character";
        case Base64Error::invalid_length: return "base64.invalid_length";
        case Base64Error::invalid_padding: return "base64.invalid_padding";
    }
    return "base64.unknown";
}

namespace detail {

constexpr char kStandardAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrlAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::string_view bytes, const char* alphabet, bool pad) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    auto at = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k])); };
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t n = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += alphabet[n & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest == 1) {
        const std::uint32_t n = at(i) << 16;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        if (pad) out += "==";
    } else if (rest == 2) {
        const std::uint32_t n = (at(i) << 16) | (at(i + 1) << 8);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        if (pad) out += '=';
    }
    return out;
}

// The 6-bit value of `c` in the alphabet, or -1.
int value_of(char c, bool url) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (url) {
        if (c == '-') return 62;
        if (c == '_') return 63;
    } else {
        if (c == '+') return 62;
        if (c == '/') return 63;
    }
    return -1;
}

// Decodes unpadded data (any length except 4n+1), refusing non-zero bits
// after the last whole byte (RFC 4648 3.5: "canonical encoding").
Result<std::string, Base64Error> decode_unpadded(std::string_view text, bool url) {
    if (text.size() % 4 == 1) return Err{Base64Error::invalid_length};
    std::string out;
    out.reserve(text.size() / 4 * 3 + 2);
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        const int v = value_of(c, url);
        if (v < 0) return Err{c == '=' ? Base64Error::invalid_padding : Base64Error::invalid_character};
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
            acc &= (1u << bits) - 1;
        }
    }
    if (acc != 0) return Err{Base64Error::invalid_padding};
    return out;
}

}  // namespace detail

std::string base64_encode(std::string_view bytes) { return detail::encode(bytes, detail::kStandardAlphabet, true); }

std::string base64url_encode(std::string_view bytes) { return detail::encode(bytes, detail::kUrlAlphabet, false); }

Result<std::string, Base64Error> base64_decode(std::string_view text) {
    if (text.size() % 4 != 0) return Err{Base64Error::invalid_length};
    std::size_t padding = 0;
    if (!text.empty() && text.back() == '=') {
        padding = (text.size() >= 2 && text[text.size() - 2] == '=') ? 2 : 1;
    }
    std::string_view data = text.substr(0, text.size() - padding);
    // "==" with a '=' before it, i.e. a group with fewer than two data characters.
    if (!data.empty() && data.back() == '=') return Err{Base64Error::invalid_padding};
    return detail::decode_unpadded(data, false);
}

Result<std::string, Base64Error> base64url_decode(std::string_view text) {
    return detail::decode_unpadded(text, true);
}

}  // namespace roomkey
