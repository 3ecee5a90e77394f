// flow_steps.cpp: the flow's steps that are not fetches (see flow_steps.hpp).
#include "app/flow_steps.hpp"

#include "app/i18n.hpp"
#include "app/user_errors.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace {

// What each authorization request and callback parameter is for (spec 4.2, 5.4).
std::string parameter_note(std::string_view name) {
    static constexpr std::string_view kNoted[] = {"response_type", "client_id",      "redirect_uri",
                                                  "scope",         "state",          "code_challenge",
                                                  "code_challenge_method", "code"};
    for (std::string_view noted : kNoted) {
        if (name == noted) return tr("flow.param." + std::string(name));
    }
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
    FlowStep step{tr("flow.authorization.title"), navigation(url), tr("flow.authorization.note"), decoded_query(url)};
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
            parameter.note = tr("flow.callback.state_unexpected");
        } else if (*kept_state == parameter.value) {
            parameter.note = tr("flow.callback.state_equal");
        } else {
            parameter.note = tr("flow.callback.state_differs", {{"state", *kept_state}});
        }
    }
    std::string note;
    if (!refused) {
        note = tr("flow.callback.accepted");
    } else if (refused->kind == CallbackErrorKind::state_mismatch) {
        note = tr("flow.callback.state_refused");
    } else {
        const std::string kind(to_string(refused->kind));
        note = refused->error.empty() ? tr("flow.callback.refused", {{"kind", kind}})
                                      : tr("flow.callback.refused_error", {{"kind", kind}, {"error", refused->error}});
        // The spec 7.1 code's remedy (docs/errors.md), beside the identifier.
        if (const std::string remedy = callback_error(*refused).remedy; !remedy.empty()) {
            note += " " + tr("flow.callback.remedy", {{"remedy", remedy}});
        }
    }
    return FlowStep{tr("flow.callback.title"), navigation(std::move(url)), std::move(note), std::move(parameters)};
}

}  // namespace roomkey::app
