// bff_session.cpp: reading roomkey-helper's BFF answers (see bff_session.hpp).
#include "app/bff_session.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "roomkey/json_text.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

// How many of the helper's token requests the page remembers (the helper
// reports "the last few"; the log keeps its own entries).
constexpr std::size_t kRememberedTokenRequests = 16;

bool read_text(const json& object, const char* name, std::string& out) {
    if (!object.contains(name) || object[name].is_null()) return true;
    if (!object[name].is_string()) return false;
    out = object[name].get<std::string>();
    return true;
}

bool read_integer(const json& object, const char* name, std::int64_t& out) {
    if (!object.contains(name) || object[name].is_null()) return true;
    if (!object[name].is_number()) return false;
    out = object[name].is_number_integer() ? object[name].get<std::int64_t>()
                                           : static_cast<std::int64_t>(object[name].get<double>());
    return true;
}

Result<HelperTokenRequest, std::string> token_request_from(const json& value) {
    if (!value.is_object()) return Err{std::string("a token request is not a JSON object")};
    HelperTokenRequest out;
    std::int64_t status = 0;
    if (!read_text(value, "grant_type", out.grant_type) || !read_integer(value, "status", status) ||
        !read_integer(value, "ms", out.ms) || !read_integer(value, "at", out.at) ||
        !read_text(value, "scope", out.scope) || !read_text(value, "request", out.request) ||
        !read_text(value, "response", out.response) || !read_text(value, "error", out.error)) {
        return Err{std::string("a token request has a member of the wrong type")};
    }
    if (out.grant_type.empty()) return Err{std::string("a token request names no grant_type")};
    if (status < 0 || status > 999) return Err{"a token request has the status " + std::to_string(status)};
    out.status = static_cast<int>(status);
    return out;
}

// The first text of an {"errors": [...]} body (spec 7.2's shape, which the
// helper's own answers use too).
std::optional<std::string> first_error(std::string_view body) {
    const json root = parse_json_text(body);
    if (!root.is_object() || !root.contains("errors") || !root["errors"].is_array()) return std::nullopt;
    for (const json& item : root["errors"]) {
        if (item.is_string() && !item.get<std::string>().empty()) return item.get<std::string>();
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

bool same_request(const HelperTokenRequest& a, const HelperTokenRequest& b) {
    return a.grant_type == b.grant_type && a.status == b.status && a.ms == b.ms && a.at == b.at &&
           a.scope == b.scope && a.error == b.error;
}

Result<HelperTokenRequest, std::string> read_helper_token_request(std::string_view json_text) {
    const json root = parse_json_text(json_text);
    if (root.is_discarded()) return Err{std::string("the token request report is not JSON")};
    return token_request_from(root);
}

Result<BffSessionInfo, std::string> read_bff_session(std::string_view json_text) {
    const json root = parse_json_text(json_text);
    if (root.is_discarded() || !root.is_object()) return Err{std::string("the session answer is not a JSON object")};
    if (!root.contains("signed_in") || !root["signed_in"].is_boolean()) {
        return Err{std::string("the session answer has no signed_in true/false")};
    }
    BffSessionInfo info;
    info.signed_in = root["signed_in"].get<bool>();
    if (!info.signed_in) return info;
    std::string scope;
    if (!read_text(root, "scope", scope)) return Err{std::string("the session answer's scope is not text")};
    auto scopes = parse_scope_list(scope);
    if (!scopes) return Err{"the session answer's scope names unknown scopes: " + scope};
    info.scope = std::move(*scopes);
    if (!root.contains("expires_in") || !read_integer(root, "expires_in", info.expires_in) ||
        root["expires_in"].is_null()) {
        return Err{std::string("the session answer has no expires_in in seconds")};
    }
    if (root.contains("refresh_expires_in") && !root["refresh_expires_in"].is_null()) {
        std::int64_t left = 0;
        if (!read_integer(root, "refresh_expires_in", left)) {
            return Err{std::string("the session answer's refresh_expires_in is not a number")};
        }
        info.refresh_expires_in = left;
    }
    if (root.contains("token_requests") && !root["token_requests"].is_null()) {
        if (!root["token_requests"].is_array()) return Err{std::string("the session answer's token_requests is not a list")};
        for (const json& item : root["token_requests"]) {
            auto request = token_request_from(item);
            if (!request) return Err{"the session answer: " + request.error()};
            info.token_requests.push_back(std::move(*request));
        }
    }
    return info;
}

std::optional<std::string> bff_session_ended(const HttpResponse& response) {
    if (response.status != 401) return std::nullopt;
    const auto session = response.headers.get(kSessionHeader);
    if (!session || *session != "none") return std::nullopt;
    if (auto why = first_error(response.body)) return why;
    return std::string("roomkey session: roomkey-helper holds no session for this browser; sign in again");
}

std::optional<HelperTokenRequest> token_request_header(const HttpResponse& response) {
    const auto header = response.headers.get(kTokenRequestHeader);
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
    return "roomkey-helper forgot the tokens; the authorization itself stays granted at the service until you revoke "
           "it there.";
}

std::string bff_refusal(const HttpResponse& response) {
    if (auto why = first_error(response.body)) return *why;
    return "roomkey-helper answered HTTP " + std::to_string(response.status);
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

bool BffSessionView::first_report(const HelperTokenRequest& request) {
    for (const HelperTokenRequest& seen : logged_) {
        if (same_request(seen, request)) return false;
    }
    logged_.push_back(request);
    if (logged_.size() > kRememberedTokenRequests) logged_.erase(logged_.begin());
    return true;
}

}  // namespace roomkey::app
