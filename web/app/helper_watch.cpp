// helper_watch.cpp: whether roomkey-helper answers (see helper_watch.hpp).
#include "app/helper_watch.hpp"

#include <algorithm>

#include "app/format.hpp"
#include "app/post_outcome.hpp"

namespace roomkey::app {

std::optional<Words> HelperWatch::on_unreachable(Instant now, bool probe_failed) {
    if (down_ && !probe_failed) return std::nullopt;
    if (!down_) {
        down_ = true;
        probes_ = 0;
    }
    probe_in_flight_ = false;
    if (probe_failed) ++probes_;
    const Millis wait = retry_backoff(probes_ + 1);
    probe_at_ = now + wait;
    return Words("helper.unreachable", "time", format_countdown(std::max(wait, Millis(0))));
}

std::optional<Words> HelperWatch::on_answer() {
    if (!down_) return std::nullopt;
    down_ = false;
    probes_ = 0;
    probe_in_flight_ = false;
    probe_at_.reset();
    return Words("helper.back");
}

}  // namespace roomkey::app
