// bff_session.cpp: reading roomkey-helper's BFF answers (see bff_session.hpp).
#include "app/bff_session.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "app/i18n.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

// How many of the helper's token requests the page remembers (the helper
// reports "the last few"; the log keeps its own entries).
constexpr std::size_t kRememberedTokenRequests = 16;

// The first text of an {"errors": [...]} body (spec 2.7's shape, which the
// helper's own answers write with the same ApiErrorBody).
std::optional<std::string> first_error(std::string_view body) {
    const auto read = read_api_error_body(body);
    if (!read) return std::nullopt;
    for (const std::string& text : read->errors) {
        if (!text.empty()) return text;
    }
    return std::nullopt;
}

HttpRequest helper_request(Method method, std::string_view path) {
    HttpRequest request;
    request.method = method;
    request.url = std::string(path);
    request.headers.set("accept", "application/json");
    return request;
}

}  // namespace

std::optional<std::string> bff_session_ended(const HttpResponse& response) {
    if (response.status != 401) return std::nullopt;
    const auto session = response.headers.get(kBffSessionHeader);
    if (!session || *session != kBffNoSession) return std::nullopt;
    if (auto why = first_error(response.body)) return why;
    return std::string(tr("bff.session_gone"));
}

std::optional<BffTokenRequestReport> token_request_header(const HttpResponse& response) {
    const auto header = response.headers.get(kBffTokenRequestHeader);
    if (!header) return std::nullopt;
    auto request = read_helper_token_request(*header);
    if (!request) return std::nullopt;
    return std::move(*request);
}

std::string bff_login_url(std::string_view login_path, const ScopeSet& scopes) {
    return std::string(login_path) + "?" + form_encode({{"scope", format_scope_list(scopes)}});
}

HttpRequest bff_session_request(std::string_view path) {
    return helper_request(Method::Get, path);
}

HttpRequest bff_refresh_request(std::string_view path, const std::optional<ScopeSet>& scopes) {
    HttpRequest request = helper_request(Method::Post, path);
    if (scopes) {
        request.headers.set("content-type", "application/json");
        request.body = json{{"scope", format_scope_list(*scopes)}}.dump();
    }
    return request;
}

HttpRequest bff_logout_request(std::string_view path) {
    return helper_request(Method::Post, path);
}

std::string bff_logout_note(const HttpResponse& response) {
    const json root = parse_json_text(response.body);
    if (root.is_object() && root.contains("note") && root["note"].is_string() &&
        !root["note"].get<std::string>().empty()) {
        return root["note"].get<std::string>();
    }
    return tr("bff.logout_note");
}

std::string bff_refusal(const HttpResponse& response) {
    if (auto why = first_error(response.body)) return *why;
    return tr("bff.answered_http", {{"status", std::to_string(response.status)}});
}

void BffSessionView::on_session(const BffSessionInfo& info, Instant now) {
    if (!info.signed_in) {
        signed_out();
        return;
    }
    signed_in_ = true;
    scope_ = info.scope;
    access_lifetime_ = Seconds(std::max<std::int64_t>(0, info.expires_in));
    access_expires_at_ = now + access_lifetime_;
    refresh_expires_at_.reset();
    if (info.refresh_expires_in) refresh_expires_at_ = now + Seconds(std::max<std::int64_t>(0, *info.refresh_expires_in));
    token_requests_ = info.token_requests;
}

bool BffSessionView::first_report(const BffTokenRequestReport& request) {
    for (const BffTokenRequestReport& seen : logged_) {
        if (same_request(seen, request)) return false;
    }
    logged_.push_back(request);
    if (logged_.size() > kRememberedTokenRequests) logged_.erase(logged_.begin());
    return true;
}

}  // namespace roomkey::app
