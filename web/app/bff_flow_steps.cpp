// bff_flow_steps.cpp: the BFF sign-in's steps for the log (see bff_flow_steps.hpp).
#include "app/bff_flow_steps.hpp"

#include "app/i18n.hpp"
#include "app/user_errors.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace {

// "POST https://host/token grant_type=...&... (Basic client authentication)"
// -> the request, and the rest of the line (what was sent, already masked).
std::pair<HttpRequest, std::string> split_request_line(std::string_view line) {
    HttpRequest request;
    request.method = Method::Post;  // a token request is always a POST (spec 4.3)
    const auto first = line.find(' ');
    if (first == std::string_view::npos) {
        request.url = "/token";
        return {request, std::string(line)};
    }
    if (line.substr(0, first) == "GET") request.method = Method::Get;
    std::string_view rest = line.substr(first + 1);
    const auto second = rest.find(' ');
    request.url = std::string(rest.substr(0, second));
    return {request, second == std::string_view::npos ? std::string() : std::string(rest.substr(second + 1))};
}

}  // namespace

FlowStep bff_login_step(std::string login_url) {
    FlowStep step{tr("flow.bff_login.title"), navigation(login_url), tr("flow.bff_login.note"), {}};
    const auto question = login_url.find('?');
    if (question != std::string::npos) {
        if (auto fields = form_decode(std::string_view(login_url).substr(question + 1))) {
            for (auto& [name, value] : *fields) {
                step.parameters.push_back(StepParameter{
                    name, std::move(value), name == "scope" ? tr("flow.param.scope") : ""});
            }
        }
    }
    step.parameters.push_back(
        StepParameter{"state, code_challenge", tr("flow.bff_login.made_by_helper"), tr("flow.bff_login.verifier_note")});
    return step;
}

FlowStep bff_callback_step(std::string redirect_uri, const std::optional<BffCallbackError>& refused) {
    FlowStep step{tr("flow.bff_callback.title"), navigation(std::move(redirect_uri)), {}, {}};
    step.parameters.push_back(StepParameter{"code", "", tr("flow.bff_callback.code_note")});
    if (!refused) {
        step.parameters.push_back(
            StepParameter{"state", tr("flow.bff_callback.compared"), tr("flow.bff_callback.state_equal")});
        step.note = tr("flow.bff_callback.accepted");
    } else {
        step.parameters.push_back(StepParameter{"bff_error", refused->code, refused->description});
        step.note = refused->description.empty()
                        ? tr("flow.bff_callback.refused", {{"code", refused->code}})
                        : tr("flow.bff_callback.refused_why", {{"code", refused->code}, {"why", refused->description}});
    }
    return step;
}

FlowStep helper_token_step(const BffTokenRequestReport& report) {
    auto [request, sent] = split_request_line(report.request);
    const std::string grant_type(to_string(report.grant_type));
    FlowStep step{tr("flow.helper_token.title", {{"grant_type", grant_type}}), std::move(request), {}, {}};
    step.parameters.push_back(StepParameter{"grant_type", grant_type, ""});
    if (!report.scope.empty()) step.parameters.push_back(StepParameter{"scope", report.scope, ""});
    if (!sent.empty()) step.parameters.push_back(StepParameter{"sent", sent, tr("flow.helper_token.sent_note")});
    if (!report.response.empty()) step.parameters.push_back(StepParameter{"answer", report.response, ""});
    if (!report.error.empty()) {
        // The identifier as the service sent it, its remedy beside it.
        step.parameters.push_back(StepParameter{
            "error", report.error, tr("flow.callback.remedy", {{"remedy", token_error_remedy(report.error)}})});
    }
    const std::string ms = std::to_string(report.ms);
    step.note = report.status == 0
                    ? tr("flow.helper_token.no_answer", {{"ms", ms}})
                    : tr("flow.helper_token.answered", {{"status", std::to_string(report.status)}, {"ms", ms}});
    return step;
}

}  // namespace roomkey::app
