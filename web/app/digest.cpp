// digest.cpp: FNV-1a over values (see digest.hpp).
#include "app/digest.hpp"

namespace roomkey::app {

void Digest::mix(unsigned char c) {
    hash_ ^= c;
    hash_ *= 0x100000001b3ULL;
}

Digest& Digest::add(std::string_view text) {
    for (unsigned char c : text) mix(c);
    mix(0xff);  // "ab","c" differs from "a","bc"
    return *this;
}

Digest& Digest::add(std::int64_t value) {
    for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(static_cast<std::uint64_t>(value) >> (8 * i)));
    return *this;
}

Digest& Digest::add(bool value) {
    return add(static_cast<std::int64_t>(value ? 1 : 0));
}

}  // namespace roomkey::app
