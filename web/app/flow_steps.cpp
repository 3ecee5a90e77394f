// flow_steps.cpp: the flow's steps that are not fetches (see flow_steps.hpp).
#include "app/flow_steps.hpp"

#include "roomkey/pkce.hpp"

namespace roomkey::app {

namespace {

HttpRequest navigation(std::string url) {
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::move(url);
    return request;
}

}  // namespace

FlowStep authorization_step(std::string url) {
    return FlowStep{"authorization request (spec 4.2)", navigation(std::move(url)),
                    "the browser went to the consent screen with these parameters; only the S256 code_challenge "
                    "left, its code_verifier stays in sessionStorage until the callback (spec 5.4)"};
}

std::optional<FlowStep> authorization_step(std::string_view consent_url, const ClientConfig& client,
                                           const PendingAuthorization& pending) {
    AuthorizationRequest request;
    request.redirect_uri = pending.redirect_uri_sent;
    request.scopes = pending.scopes;
    request.state = pending.state;
    if (!pending.code_verifier.empty()) {
        request.pkce = PkcePair{pending.code_verifier, s256_challenge(pending.code_verifier)};
    }
    auto url = build_authorization_url(consent_url, client, request);
    if (!url) return std::nullopt;
    return authorization_step(std::move(*url));
}

FlowStep callback_step(std::string url, const std::optional<CallbackError>& refused) {
    std::string note;
    if (!refused) {
        note = "the consent screen sent the browser back: state matched the one kept for this sign-in (single use, "
               "now spent); the code goes to the token endpoint next (valid 1 minute, spec 2.2)";
    } else if (refused->kind == CallbackErrorKind::state_mismatch) {
        note = "refused: state is not the one kept for this sign-in (spec 4.2); nothing is exchanged";
    } else {
        note = "refused: " + std::string(to_string(refused->kind));
        if (!refused->error.empty()) note += " (" + refused->error + ")";
        note += "; nothing is exchanged";
    }
    return FlowStep{"callback (spec 4.2)", navigation(std::move(url)), std::move(note)};
}

}  // namespace roomkey::app
