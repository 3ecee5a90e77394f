// digest.hpp: a 64-bit FNV-1a digest of values, to tell cheaply whether the
// inputs of something built from them changed (page_state.cpp's parts, the
// message layout cache). Not for anything adversarial.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace roomkey::app {

class Digest {
public:
    Digest& add(std::string_view text) {
        for (unsigned char c : text) mix(c);
        mix(0xff);  // "ab","c" differs from "a","bc"
        return *this;
    }
    Digest& add(std::int64_t value) {
        for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(static_cast<std::uint64_t>(value) >> (8 * i)));
        return *this;
    }
    Digest& add(bool value) { return add(static_cast<std::int64_t>(value ? 1 : 0)); }
    template <class T>
    Digest& add(const std::optional<T>& value) {
        add(value.has_value());
        return value ? add(*value) : *this;
    }
    std::uint64_t value() const { return hash_; }

private:
    void mix(unsigned char c) {
        hash_ ^= c;
        hash_ *= 0x100000001b3ULL;
    }
    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace roomkey::app
