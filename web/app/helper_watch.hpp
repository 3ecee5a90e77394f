// helper_watch.hpp: whether roomkey-helper answers, and the probe that asks.
// A send that got no connection at all marks it unreachable: REST calls
// wait (Requests asks down()), the user is told, and the helper is probed
// (GET /config.json) with backoff, 1 s, 2 s, 4 s, ... 30 s between probes
// (only a failed probe lengthens the wait); any answer ends it, and the user
// is told it is back. Its own owner: the App hands it every send's end and
// its tick, as it does a feature's.
#pragma once

#include <optional>

#include "app/post_outcome.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

class ConfigLoad;
class Feedback;
class Wire;

class HelperWatch {
public:
    HelperWatch(Wire& wire, const ConfigLoad& config, Feedback& feedback)
        : wire_(wire), config_(config), feedback_(feedback) {}

    // A send ended without an answer (`probe`: the probe itself). No
    // connection at all (or a probe that failed) marks the helper away; a
    // timeout says it is there but slow: nothing changes.
    void on_no_answer(TransportFailure failure, bool probe, Instant now);
    // Any HTTP answer, whatever its status: the helper is there.
    void on_answer();
    // Sends the probe when it is due (and none is under way).
    void run_probe(Instant now);

    bool down() const { return down_; }
    std::optional<Instant> probe_at() const { return probe_at_; }
    // When the next probe goes, for the platform's timer (nullopt: none waits).
    std::optional<Instant> next_probe() const { return down_ && !probe_in_flight_ ? probe_at_ : std::nullopt; }

private:
    Wire& wire_;
    const ConfigLoad& config_;
    Feedback& feedback_;
    bool down_ = false;
    int probes_ = 0;
    bool probe_in_flight_ = false;
    std::optional<Instant> probe_at_;
};

}  // namespace roomkey::app
