// flow_steps.cpp: the flow's steps that are not fetches (see flow_steps.hpp).
#include "app/flow_steps.hpp"

#include "roomkey/pkce.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace {

// What each authorization request and callback parameter is for (spec 4.2, 5.4).
std::string parameter_note(std::string_view name) {
    if (name == "response_type") return "authorization code flow";
    if (name == "client_id") return "the registered client (5003 when unknown)";
    if (name == "redirect_uri") return "must equal a registered redirect URI exactly";
    if (name == "scope") return "what the consent screen asks the user to grant";
    if (name == "state") return "random, single use: the callback must bring it back unchanged";
    if (name == "code_challenge") return "S256 of the code_verifier, which is kept until the callback and never sent here";
    if (name == "code_challenge_method") return "S256 (plain is refused)";
    if (name == "code") return "single use, valid 1 minute; masked";
    return {};
}

// The query of `url`, decoded, each parameter with its note.
std::vector<StepParameter> decoded_query(std::string_view url) {
    std::vector<StepParameter> out;
    const auto question = url.find('?');
    if (question == std::string_view::npos) return out;
    std::string_view query = url.substr(question + 1);
    query = query.substr(0, query.find('#'));
    auto fields = form_decode(query);
    if (!fields) return out;
    for (auto& [name, value] : *fields) out.push_back(StepParameter{name, std::move(value), parameter_note(name)});
    return out;
}

}  // namespace

HttpRequest navigation(std::string url) {
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::move(url);
    return request;
}

FlowStep authorization_step(std::string url) {
    FlowStep step{"authorization request (spec 4.2)", navigation(url),
                  "the browser went to the consent screen with these parameters; only the S256 code_challenge "
                  "left, its code_verifier stays in sessionStorage until the callback (spec 5.4)",
                  decoded_query(url)};
    return step;
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

FlowStep callback_step(std::string url, const std::optional<CallbackError>& refused,
                       const std::optional<std::string>& kept_state) {
    std::vector<StepParameter> parameters = decoded_query(url);
    for (StepParameter& parameter : parameters) {
        if (parameter.name != "state") continue;
        if (!kept_state) {
            parameter.note = "no sign-in of this page was waiting for it";
        } else if (*kept_state == parameter.value) {
            parameter.note = "equals the state kept for this sign-in";
        } else {
            parameter.note = "differs from the state kept for this sign-in: " + *kept_state;
        }
    }
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
    return FlowStep{"callback (spec 4.2)", navigation(std::move(url)), std::move(note), std::move(parameters)};
}

}  // namespace roomkey::app
