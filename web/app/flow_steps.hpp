// flow_steps.hpp: the steps of the authorization-code flow that are not
// fetches, as HTTP log entries, so that the log shows every step as the
// Google OAuth 2.0 Playground and oauthdebugger.com do:
//   - the authorization request: the browser's navigation to {consent_url}
//     with its parameters (client_id, redirect_uri, scope, state, the S256
//     code_challenge and its method); the code_verifier never leaves: it
//     waits in sessionStorage until the callback (spec 4.2, 5.4);
//   - the callback: the consent screen's redirect back to /callback, its code
//     masked by the log like every secret, its state compared with the one
//     kept for this sign-in.
// Errors 5003, 13000, 15000 and 19000 come from exactly these parameters.
// Pure: App adds the entries (sign_in, start, on_config).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/http_log.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/http.hpp"

namespace roomkey::app {

struct FlowStep {
    std::string purpose;  // the log entry's title after the path
    HttpRequest request;  // GET and the URL the browser went to
    std::string note;     // what happened, shown where a status would be
    // The URL's parameters decoded, each with what it means in this step.
    std::vector<StepParameter> parameters;
};

// A step that is a top-level navigation, not a fetch: the GET of `url` the
// browser made, as the log shows it (bff_flow_steps.cpp uses it too).
HttpRequest navigation(std::string url);

// The navigation to the consent screen, from the URL the app built.
FlowStep authorization_step(std::string url);

// The same navigation told again from the pending record the callback
// consumed (the page that sent it is gone; its log with it): the URL is
// built again from the record, with the S256 challenge of its verifier.
// nullopt when the URL cannot be built (the configuration changed).
std::optional<FlowStep> authorization_step(std::string_view consent_url, const ClientConfig& client,
                                           const PendingAuthorization& pending);

// The redirect back: the URL as it arrived, and whether its state matched
// (`refused` is the callback's error when it did not pass); `kept_state` is
// the state this page kept for the sign-in, shown beside the one that came.
FlowStep callback_step(std::string url, const std::optional<CallbackError>& refused,
                       const std::optional<std::string>& kept_state = std::nullopt);

}  // namespace roomkey::app
