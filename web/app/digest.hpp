// digest.hpp: a 64-bit FNV-1a digest of values, to tell cheaply whether the
// inputs of something built from them changed (page_state.cpp's parts, the
// message layout cache). Not for anything adversarial.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace roomkey::app {

// (Its members are out of line, in digest.cpp: inlined at each of the many
// call sites, the loop cost wasm bytes.)
class Digest {
public:
    Digest& add(std::string_view text);
    Digest& add(std::int64_t value);
    Digest& add(bool value);
    template <class T>
    Digest& add(const std::optional<T>& value) {
        add(value.has_value());
        return value ? add(*value) : *this;
    }
    std::uint64_t value() const { return hash_; }

private:
    void mix(unsigned char c);
    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace roomkey::app
