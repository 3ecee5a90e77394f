// wire.hpp: every request the App hands the transport and where its answer
// goes. An HTTP id names one send and its purpose (the configuration, a
// token request, a REST request, the helper's probe, a BFF route); a request
// tag names a feature's REST request for its whole life (retries included)
// and routes its end back to the feature that asked, never through a switch
// on what it was. Its own object so the App routes without keeping the maps.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/bff_panel.hpp"
#include "app/effects.hpp"
#include "app/feature.hpp"
#include "app/trace.hpp"

namespace roomkey::app {

namespace purpose {
struct ConfigFetch {};
struct TokenCall {
    TokenRequestId id = 0;
};
struct RestCall {
    RequestTag tag = 0;
};
struct HelperProbe {};
struct BffCall {
    BffRoute route = BffRoute::session;
};
}  // namespace purpose
using HttpPurpose = std::variant<purpose::ConfigFetch, purpose::TokenCall, purpose::RestCall, purpose::HelperProbe,
                                 purpose::BffCall>;

class Wire {
public:
    Wire(Trace& trace, std::vector<Effect>& effects) : trace_(trace), effects_(effects) {}

    // Hands `request` to the transport (effect::Send) under a new id, logged
    // as `label`, with the helper's anti-CSRF header `request_header` (a
    // cross-site page cannot add it).
    std::uint64_t send(HttpPurpose purpose, std::string label, HttpRequest request, std::string_view request_header,
                       Instant now, bool upload_progress = false);
    // The purpose of the send `id`, taken (its answer came): nullopt when unknown.
    std::optional<HttpPurpose> take(std::uint64_t id);
    // The REST request send `id` carries, while it is on its way.
    std::optional<RequestTag> rest_tag(std::uint64_t id) const;
    // An id for a log entry that was not sent (a flow step).
    std::uint64_t log_id() { return next_http_id_++; }

    // ---- request tags: a feature's request and its owner ----
    RequestTag new_tag() { return next_tag_++; }
    // Where an answer goes, and what the HTTP log calls its request.
    struct Route {
        Feature* owner = nullptr;
        std::string label;
        bool upload_progress = false;
        std::optional<TransportFailure> failure;  // why no answer came, when none did
    };
    void add(RequestTag tag, Route route) { routes_[tag] = std::move(route); }
    Route* route(RequestTag tag);
    void drop(RequestTag tag) { routes_.erase(tag); }
    void drop_all() { routes_.clear(); }
    // The owner of `tag`'s end, with how it failed when no answer came;
    // the route stays while `keep` (the request keeps its room's turn).
    Feature* owner_of_end(RequestTag tag, Answer& answer, bool keep);

private:
    Trace& trace_;
    std::vector<Effect>& effects_;
    std::map<std::uint64_t, HttpPurpose> http_;
    std::uint64_t next_http_id_ = 1;
    RequestTag next_tag_ = 1;
    std::map<RequestTag, Route> routes_;
};

}  // namespace roomkey::app
