// post_outcome.cpp: classifying a post's answer (see post_outcome.hpp).
#include "app/post_outcome.hpp"

#include <algorithm>

#include "app/i18n.hpp"

#include "roomkey/api_records.hpp"
#include "roomkey/proxy_outcome.hpp"

namespace roomkey::app {

std::string_view to_string(TransportFailure failure) {
    switch (failure) {
        case TransportFailure::network_error:
            return "network_error";
        case TransportFailure::timeout:
            return "timeout";
    }
    return "network_error";
}

std::string describe(TransportFailure failure) {
    switch (failure) {
        case TransportFailure::network_error:
            return tr("post.helper_failed");
        case TransportFailure::timeout:
            return tr("post.helper_timeout");
    }
    return tr("post.no_answer");
}

std::optional<GatewayFailure> read_gateway_failure(const HttpResponse& response) {
    // One definition with the helper (shared/'s proxy_outcome.hpp): only a
    // 502/504 carrying X-Roomkey-Upstream is the helper's own word.
    switch (read_upstream_outcome(response).value_or(UpstreamOutcome::no_answer)) {
        case UpstreamOutcome::not_sent:
            return GatewayFailure::not_sent;
        case UpstreamOutcome::no_answer:
            if (!read_upstream_outcome(response)) return std::nullopt;
            return GatewayFailure::sent_no_answer;
    }
    return std::nullopt;
}

std::string_view to_string(PostVerdict verdict) {
    switch (verdict) {
        case PostVerdict::delivered:
            return "delivered";
        case PostVerdict::retry_automatically:
            return "retry_automatically";
        case PostVerdict::rate_limited:
            return "rate_limited";
        case PostVerdict::unknown:
            return "unknown";
        case PostVerdict::refused:
            return "refused";
    }
    return "unknown";
}

PostOutcome classify_post(const HttpResponse& response) {
    const int status = response.status;
    if (status >= 200 && status < 300) return {PostVerdict::delivered, {}};
    if (status == 429) return {PostVerdict::rate_limited, tr("post.429")};
    if (status == 503) {
        return {PostVerdict::retry_automatically, tr("post.503")};
    }
    if (status == 502) {
        switch (read_gateway_failure(response).value_or(GatewayFailure::sent_no_answer)) {
            case GatewayFailure::not_sent:
                return {PostVerdict::retry_automatically, tr("post.not_sent")};
            case GatewayFailure::sent_no_answer:
                return {PostVerdict::unknown, tr("post.502")};
        }
    }
    if (status >= 500) {
        return {PostVerdict::unknown, tr("post.5xx", {{"status", std::to_string(status)}})};
    }
    if (status >= 400) return {PostVerdict::refused, tr("post.4xx", {{"status", std::to_string(status)}})};
    // 1xx/3xx never end a fetch normally: treat as unknown, never resend.
    return {PostVerdict::unknown, tr("post.unexpected", {{"status", std::to_string(status)}})};
}

PostOutcome classify_post_failure(TransportFailure failure) {
    switch (failure) {
        case TransportFailure::network_error:
            return {PostVerdict::unknown, tr("post.cannot_tell", {{"why", describe(failure)}})};
        case TransportFailure::timeout:
            return {PostVerdict::unknown, tr("post.may_be_delivered", {{"why", describe(failure)}})};
    }
    return {PostVerdict::unknown, tr("post.no_answer")};
}

Millis retry_backoff(int attempt) {
    if (attempt < 1) attempt = 1;
    // 1 s << 5 = 32 s already passes the cap: no overflow past attempt 6.
    const int shift = std::min(attempt - 1, 5);
    return std::min(Millis(1000LL << shift), kMaxRetryBackoff);
}

std::string_view to_string(Settlement settlement) {
    switch (settlement) {
        case Settlement::found:
            return "found";
        case Settlement::not_found:
            return "not_found";
        case Settlement::unreadable:
            return "unreadable";
    }
    return "unreadable";
}

Settlement find_posted_message(const HttpResponse& messages, std::string_view account_id, std::string_view body,
                               Instant not_before) {
    // The one reader of the room's messages (shared/api_records.hpp): an
    // empty room's 204 is the empty list, a non-2xx or a malformed list is
    // unreadable (the post's fate stays unknown).
    const auto read = read_messages(messages);
    if (!read) return Settlement::unreadable;
    // send_time is whole Unix seconds: a post queued at 12.7 s may carry 12.
    const std::int64_t earliest = unix_seconds(not_before) - 1;
    for (const ChatMessage& message : *read) {
        if (message.account.account_id == account_id && message.body == body && message.send_time >= earliest) {
            return Settlement::found;
        }
    }
    return Settlement::not_found;
}

}  // namespace roomkey::app
