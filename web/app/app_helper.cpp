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
    if (helper_.down && !probe_failed) return;
    if (!helper_.down) {
        helper_.down = true;
        helper_.probes = 0;
    }
    helper_.probe_in_flight = false;
    if (probe_failed) ++helper_.probes;
    const Millis wait = retry_backoff(helper_.probes + 1);
    helper_.probe_at = now + wait;
    feedback_.notice = "roomkey-helper does not answer; requests wait, and roomkey asks it again in " +
                       format_countdown(std::max(wait, Millis(0))) + ".";
}

void App::on_helper_answer(Instant now) {
    (void)now;
    if (!helper_.down) return;
    helper_.down = false;
    helper_.probes = 0;
    helper_.probe_in_flight = false;
    helper_.probe_at.reset();
    feedback_.notice = "roomkey-helper answers again; waiting requests go on.";
}

void App::probe_helper(Instant now) {
    helper_.probe_in_flight = true;
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::string(kConfigPath);
    send(HelperProbe{}, "helper check (is roomkey-helper back?)", std::move(request), now);
}

}  // namespace roomkey::app
