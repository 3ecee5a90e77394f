// stable_order.cpp: see stable_order.hpp.
#include "app/stable_order.hpp"

#include <algorithm>

namespace roomkey::app::stable_order_detail {

std::vector<std::size_t> order(std::size_t count, Before before, const void* rule) {
    std::vector<std::size_t> positions(count);
    for (std::size_t i = 0; i < count; ++i) positions[i] = i;
    // Ties go by position, which makes the order total and so stable.
    std::sort(positions.begin(), positions.end(), [&](std::size_t a, std::size_t b) {
        if (before(rule, a, b)) return true;
        if (before(rule, b, a)) return false;
        return a < b;
    });
    return positions;
}

}  // namespace roomkey::app::stable_order_detail
