// helper_watch.cpp: whether roomkey-helper answers (see helper_watch.hpp).
#include "app/helper_watch.hpp"

#include <algorithm>

#include "app/config_load.hpp"
#include "app/feedback.hpp"
#include "app/format.hpp"
#include "app/i18n.hpp"
#include "app/wire.hpp"

namespace roomkey::app {

void HelperWatch::on_no_answer(TransportFailure failure, bool probe, Instant now) {
    if (failure != TransportFailure::network_error && !probe) return;
    if (down_ && !probe) return;
    if (!down_) {
        down_ = true;
        probes_ = 0;
    }
    probe_in_flight_ = false;
    if (probe) ++probes_;
    const Millis wait = retry_backoff(probes_ + 1);
    probe_at_ = now + wait;
    feedback_.set_notice(Words("helper.unreachable", "time", format_countdown(std::max(wait, Millis(0)))));
}

void HelperWatch::on_answer() {
    if (!down_) return;
    down_ = false;
    probes_ = 0;
    probe_in_flight_ = false;
    probe_at_.reset();
    feedback_.set_notice(Words("helper.back"));
}

void HelperWatch::run_probe(Instant now) {
    if (!down_ || probe_in_flight_ || !probe_at_ || *probe_at_ > now) return;
    probe_in_flight_ = true;
    HttpRequest probe;
    probe.url = std::string(kConfigPath);
    wire_.send(purpose::HelperProbe{}, tr("log.purpose.helper_check"), std::move(probe), config_.request_header(), now);
}

}  // namespace roomkey::app
