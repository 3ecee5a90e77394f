// app_helper.cpp: roomkey-helper unreachable: REST calls wait while
// GET /config.json probes it with backoff (1 s, 2 s, 4 s, ... 30 s).
#include <algorithm>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/format.hpp"

namespace roomkey::app {

using namespace detail;

// Every request that got no connection lands here; only a failed probe
// lengthens the wait (1 s, 2 s, 4 s, ... 30 s between probes).
void App::on_helper_unreachable(Instant now, bool probe_failed) {
    if (helper_down_ && !probe_failed) return;
    if (!helper_down_) {
        helper_down_ = true;
        helper_probes_ = 0;
    }
    helper_probe_in_flight_ = false;
    if (probe_failed) ++helper_probes_;
    const Millis wait = retry_backoff(helper_probes_ + 1);
    helper_probe_at_ = now + wait;
    notice_ = "roomkey-helper does not answer; requests wait, and roomkey asks it again in " + format_countdown(std::max(wait, Millis(0))) + ".";
}

void App::on_helper_answer(Instant now) {
    (void)now;
    if (!helper_down_) return;
    helper_down_ = false;
    helper_probes_ = 0;
    helper_probe_in_flight_ = false;
    helper_probe_at_.reset();
    notice_ = "roomkey-helper answers again; waiting requests go on.";
}

void App::probe_helper(Instant now) {
    helper_probe_in_flight_ = true;
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::string(kConfigPath);
    send(HelperProbe{}, "helper check (is roomkey-helper back?)", std::move(request), now);
}

}  // namespace roomkey::app
