// app_helper.cpp: roomkey-helper unreachable (helper_watch.hpp): what the
// App tells the user, and the probe it sends.
#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/i18n.hpp"

namespace roomkey::app {

using namespace detail;

void App::on_helper_unreachable(Instant now, bool probe_failed) {
    if (auto told = helper_.on_unreachable(now, probe_failed)) feedback_.notice = std::move(*told);
}

void App::on_helper_answer(Instant now) {
    (void)now;
    if (auto told = helper_.on_answer()) feedback_.notice = std::move(*told);
}

void App::probe_helper(Instant now) {
    helper_.probe_sent();
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::string(kConfigPath);
    send(HelperProbe{}, tr("log.purpose.helper_check"), std::move(request), now);
}

}  // namespace roomkey::app
