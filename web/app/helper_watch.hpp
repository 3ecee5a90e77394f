// helper_watch.hpp: whether roomkey-helper answers. A request that got no
// connection at all marks it unreachable: REST calls wait, and the helper is
// probed (GET /config.json) with backoff, 1 s, 2 s, 4 s, ... 30 s between
// probes (only a failed probe lengthens the wait); any answer ends it.
#pragma once

#include <optional>
#include <string>

#include "app/feature.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

class HelperWatch {
public:
    // A request got no connection (`probe_failed`: the probe itself). Returns
    // what to tell the user (as words, to follow the language), nullopt
    // when nothing changed.
    std::optional<Words> on_unreachable(Instant now, bool probe_failed);
    // Any HTTP answer: the helper is there. Returns what to tell the user when it was away.
    std::optional<Words> on_answer();
    // The probe is due now (and none is under way).
    bool probe_due(Instant now) const { return down_ && !probe_in_flight_ && probe_at_ && *probe_at_ <= now; }
    void probe_sent() { probe_in_flight_ = true; }

    bool down() const { return down_; }
    std::optional<Instant> probe_at() const { return probe_at_; }
    // When the next probe goes, for the platform's timer (nullopt: none waits).
    std::optional<Instant> next_probe() const { return down_ && !probe_in_flight_ ? probe_at_ : std::nullopt; }

private:
    bool down_ = false;
    int probes_ = 0;
    bool probe_in_flight_ = false;
    std::optional<Instant> probe_at_;
};

}  // namespace roomkey::app
