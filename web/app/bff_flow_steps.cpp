// bff_flow_steps.cpp: the BFF sign-in's steps for the log (see bff_flow_steps.hpp).
#include "app/bff_flow_steps.hpp"

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
    FlowStep step{"sign-in through roomkey-helper (BFF)", navigation(login_url),
                  "the browser went to roomkey-helper, which made the state and the PKCE S256 pair, kept them in a "
                  "short-lived encrypted HttpOnly cookie this page cannot read, and sent the browser on to the "
                  "consent screen (spec 4.2, 5.4)",
                  {}};
    const auto question = login_url.find('?');
    if (question != std::string::npos) {
        if (auto fields = form_decode(std::string_view(login_url).substr(question + 1))) {
            for (auto& [name, value] : *fields) {
                step.parameters.push_back(StepParameter{
                    name, std::move(value), name == "scope" ? "what the consent screen asks the user to grant" : ""});
            }
        }
    }
    step.parameters.push_back(StepParameter{"state, code_challenge", "(made by roomkey-helper)",
                                            "the verifier stays in the helper's cookie until the callback"});
    return step;
}

FlowStep bff_callback_step(std::string redirect_uri, const std::optional<BffCallbackError>& refused) {
    FlowStep step{"callback to roomkey-helper (BFF)", navigation(std::move(redirect_uri)), {}, {}};
    step.parameters.push_back(StepParameter{"code", "", "taken by roomkey-helper, never given to this page"});
    if (!refused) {
        step.parameters.push_back(StepParameter{"state", "(compared by roomkey-helper)",
                                                "equal to the one in its login cookie"});
        step.note = "the consent screen sent the browser back to roomkey-helper, which compared state with its login "
                    "cookie, exchanged the code with the code_verifier and its client secret (HTTP Basic), kept the "
                    "tokens in its HttpOnly session cookie and sent this page to / without them";
    } else {
        step.parameters.push_back(StepParameter{"bff_error", refused->code, refused->description});
        step.note = "refused by roomkey-helper (" + refused->code + ")" +
                    (refused->description.empty() ? std::string() : ": " + refused->description) +
                    "; no session was made";
    }
    return step;
}

FlowStep helper_token_step(const BffTokenRequestReport& report) {
    auto [request, sent] = split_request_line(report.request);
    FlowStep step{"token request by roomkey-helper (" + report.grant_type + ")", std::move(request), {}, {}};
    step.parameters.push_back(StepParameter{"grant_type", report.grant_type, ""});
    if (!report.scope.empty()) step.parameters.push_back(StepParameter{"scope", report.scope, ""});
    if (!sent.empty()) step.parameters.push_back(StepParameter{"sent", sent, "as roomkey-helper reported it, masked"});
    if (!report.response.empty()) step.parameters.push_back(StepParameter{"answer", report.response, ""});
    if (!report.error.empty()) step.parameters.push_back(StepParameter{"error", report.error, ""});
    step.note = (report.status == 0 ? std::string("no answer from the token endpoint")
                                    : "the token endpoint answered " + std::to_string(report.status)) +
                " in " + std::to_string(report.ms) +
                " ms; the tokens stay with roomkey-helper (this page gets none)";
    return step;
}

}  // namespace roomkey::app
