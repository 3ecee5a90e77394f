// stable_order.hpp: the positions 0..count-1 of a sequence, in a stable order
// by a caller's "drawn before" rule, through one compiled sort for the whole
// app.
//
// Why not std::stable_sort: it compiles a merge sort for every comparator
// (about 3.5 KB of wasm each; three of them were 9.3 KB in
// bench/wasm_origins.mjs's attribution). Here every caller shares one sort of
// positions; its rule is reached through a function pointer, a cost that
// lists of a few hundred rooms, messages or accessibility operations do not
// notice.
#pragma once

#include <cstddef>
#include <vector>

namespace roomkey::app {

namespace stable_order_detail {
using Before = bool (*)(const void* rule, std::size_t a, std::size_t b);
std::vector<std::size_t> order(std::size_t count, Before before, const void* rule);
}  // namespace stable_order_detail

// `before(a, b)`: position a goes before position b (a strict weak order).
// Positions that neither goes before keep their order.
template <class Rule>
std::vector<std::size_t> stable_order(std::size_t count, const Rule& before) {
    return stable_order_detail::order(
        count, [](const void* rule, std::size_t a, std::size_t b) { return (*static_cast<const Rule*>(rule))(a, b); },
        &before);
}

// `items` rearranged into `order` (a permutation of its positions).
template <class T>
std::vector<T> in_order(std::vector<T>&& items, const std::vector<std::size_t>& order) {
    std::vector<T> sorted;
    sorted.reserve(items.size());
    for (std::size_t i : order) sorted.push_back(std::move(items[i]));
    return sorted;
}

}  // namespace roomkey::app
