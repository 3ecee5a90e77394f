// bff_state.cpp: the BFF mode in the published page state (see bff_state.hpp).
#include "app/bff_state.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>
#include "app/views_state.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

json seconds_left(const std::optional<Instant>& at, Instant now) {
    if (!at) return nullptr;
    return std::max<std::int64_t>(0, std::chrono::duration_cast<Seconds>(*at - now).count());
}

}  // namespace

void add_bff_state(const App& app, Instant now, json& state) {
    const CredentialHolder holder = app.holder();
    if (holder == CredentialHolder::helper) {
        state["tokens_held_by"] = "helper";
    } else if (holder == CredentialHolder::page_session || holder == CredentialHolder::api_token) {
        state["tokens_held_by"] = "page";
    } else {
        state["tokens_held_by"] = nullptr;
    }
    state["tokens_where"] = app.session_shown().tokens_held_by();
    if (!app.config() || !app.config()->bff()) {
        state["bff"] = nullptr;
        return;
    }
    const BffSessionView& session = app.bff().view();
    json requests = json::array();
    for (const BffTokenRequestReport& request : session.token_requests()) {
        requests.push_back(object_of({{"grant_type", to_string(request.grant_type)},
                                      {"status", request.status},
                                      {"ms", request.ms},
                                      {"at", request.at},
                                      {"scope", request.scope},
                                      {"error", request.error}}));
    }
    state["bff"] = object_of({{"signed_in", session.signed_in()},
                              {"expires_in", seconds_left(session.access_expires_at(), now)},
                              {"refresh_expires_in", seconds_left(session.refresh_expires_at(), now)}});
    state["bff"]["token_requests"] = std::move(requests);
}

}  // namespace roomkey::app
