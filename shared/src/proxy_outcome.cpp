// proxy_outcome.cpp: the helper's "not sent" / "no answer" signal (see the header).
#include "roomkey/proxy_outcome.hpp"

#include <nlohmann/json.hpp>

#include "roomkey/json_text.hpp"

namespace roomkey {

namespace {

// `error_body` is one of errors.hpp's to_json texts (valid UTF-8: they
// replace what is not); members stay in name order.
std::string with_outcome(const std::string& error_body, UpstreamOutcome outcome) {
    nlohmann::json body = parse_json_text(error_body);
    body[std::string(kUpstreamOutcomeField)] = std::string(to_string(outcome));
    return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string_view to_string(UpstreamOutcome outcome) {
    switch (outcome) {
        case UpstreamOutcome::not_sent:
            return "not_sent";
        case UpstreamOutcome::no_answer:
            return "no_answer";
    }
    return "upstream_outcome.unknown";
}

std::optional<UpstreamOutcome> parse_upstream_outcome(std::string_view token) {
    for (auto outcome : {UpstreamOutcome::not_sent, UpstreamOutcome::no_answer}) {
        if (token == to_string(outcome)) return outcome;
    }
    return std::nullopt;
}

std::string upstream_failure_body(const ApiErrorBody& body, UpstreamOutcome outcome) {
    return with_outcome(to_json(body), outcome);
}

std::string upstream_failure_body(const TokenError& error, UpstreamOutcome outcome) {
    return with_outcome(to_json(error), outcome);
}

int upstream_failure_status(UpstreamOutcome outcome, bool timed_out) {
    return outcome == UpstreamOutcome::no_answer && timed_out ? 504 : 502;
}

std::optional<UpstreamOutcome> read_upstream_outcome(const HttpResponse& response) {
    if (response.status != 502 && response.status != 504) return std::nullopt;
    const auto value = response.headers.get(kUpstreamOutcomeHeader);
    if (!value) return std::nullopt;
    auto outcome = parse_upstream_outcome(*value);
    // A 504 is a timeout: the request went out, so it can only be no_answer.
    if (outcome && response.status == 504 && *outcome != UpstreamOutcome::no_answer) return std::nullopt;
    return outcome;
}

}  // namespace roomkey
