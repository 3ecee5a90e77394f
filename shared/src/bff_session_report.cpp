// bff_session_report.cpp: what the helper tells the page about its BFF
// session (bff_session.hpp): the masked token-request report and the
// /bff/session answer, written by the helper and read by the page.
#include <nlohmann/json.hpp>

#include "roomkey/bff_session.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kMask = "\u2022\u2022\u2022\u2022";  // ••••

std::string dump_report_json(const Json& j) {
    // `replace`: a scope the service sent may hold bytes that are not UTF-8.
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json report_json(const BffTokenRequestReport& r) {
    return {{"grant_type", to_string(r.grant_type)}, {"status", r.status},     {"ms", r.ms},      {"at", r.at}, {"scope", r.scope},
            {"request", r.request},       {"response", r.response}, {"error", r.error}};
}

using json = nlohmann::json;

Result<BffTokenRequestReport, std::string> report_from(const json& value) {
    if (!value.is_object()) return Err{std::string("a token request is not a JSON object")};
    BffTokenRequestReport out;
    std::string grant;
    std::int64_t status = 0;
    // Every member may be absent (its default); a grant_type absent is refused below by name.
    if (!read_optional(value, "grant_type", grant) || !read_optional(value, "status", status) ||
        !read_optional(value, "ms", out.ms) || !read_optional(value, "at", out.at) ||
        !read_optional(value, "scope", out.scope) || !read_optional(value, "request", out.request) ||
        !read_optional(value, "response", out.response) || !read_optional(value, "error", out.error)) {
        return Err{std::string("a token request has a member of the wrong type")};
    }
    const auto type = grant_type_from(grant);
    if (!type) return Err{"a token request names no grant_type the helper makes: " + grant};
    out.grant_type = *type;
    if (status < 0 || status > 999) return Err{"a token request has the status " + std::to_string(status)};
    out.status = static_cast<int>(status);
    return out;
}

}  // namespace

bool same_request(const BffTokenRequest& a, const BffTokenRequest& b) {
    return a.grant_type == b.grant_type && a.status == b.status && a.ms == b.ms && a.at == b.at && a.scope == b.scope &&
           a.error == b.error;
}

BffTokenRequestReport report_of(const BffTokenRequest& r, std::string_view token_url, std::string_view redirect_uri) {
    // The request line names every parameter that was sent; secrets as ••••.
    std::string request = "POST " + std::string(token_url) + " grant_type=" + std::string(to_string(r.grant_type));
    if (r.grant_type == GrantType::authorization_code) {
        request +=
            "&code=" + std::string(kMask) + "&redirect_uri=" + percent_encode(redirect_uri) + "&code_verifier=" + kMask;
    } else {
        request += "&refresh_token=" + std::string(kMask);
        if (r.scope_sent) request += "&scope=" + percent_encode(r.scope);
    }
    request += " (Basic client authentication)";

    std::string response;
    if (r.status == 0) {
        response = "no answer";
    } else if (r.status == 200) {
        response = "200 {access_token: " + std::string(kMask) + ", refresh_token: " + kMask +
                   ", token_type: Bearer, expires_in: " + std::to_string(r.expires_in) + ", scope: " + r.scope + "}";
    } else {
        response = std::to_string(r.status) + " {error: " + (r.error.empty() ? "(none)" : r.error) + "}";
    }
    return BffTokenRequestReport{r, std::move(request), std::move(response)};
}

BffSessionInfo session_info(const BffSession& s, Instant now, std::string_view token_url,
                            std::string_view redirect_uri) {
    const auto seconds_left = [now](Instant at) -> std::int64_t {
        const auto left = std::chrono::duration_cast<Seconds>(at - now).count();
        return left > 0 ? left : 0;
    };
    BffSessionInfo info;
    info.signed_in = true;
    info.scope = s.scope;
    info.expires_in = seconds_left(s.access_expires_at);
    if (s.refresh_expires_at) info.refresh_expires_in = seconds_left(*s.refresh_expires_at);
    for (const auto& r : s.token_requests) info.token_requests.push_back(report_of(r, token_url, redirect_uri));
    return info;
}

std::string to_json(const BffTokenRequestReport& report) {
    return dump_report_json(report_json(report));
}

std::string to_json(const BffSessionInfo& info) {
    if (!info.signed_in) return dump_report_json(Json{{"signed_in", false}});
    Json requests = Json::array();
    for (const auto& r : info.token_requests) requests.push_back(report_json(r));
    const Json j = {{"signed_in", true},
                    {"scope", format_scope_list(info.scope)},
                    {"expires_in", info.expires_in},
                    {"refresh_expires_in", info.refresh_expires_in ? Json(*info.refresh_expires_in) : Json(nullptr)},
                    {"token_requests", std::move(requests)}};
    return dump_report_json(j);
}

Result<BffTokenRequestReport, std::string> read_helper_token_request(std::string_view json_text) {
    const json root = parse_json_text(json_text);
    if (root.is_discarded()) return Err{std::string("the token request report is not JSON")};
    return report_from(root);
}

Result<BffSessionInfo, std::string> read_bff_session(std::string_view json_text) {
    const json root = parse_json_text(json_text);
    if (root.is_discarded() || !root.is_object()) return Err{std::string("the session answer is not a JSON object")};
    BffSessionInfo info;
    if (!read_required(root, "signed_in", info.signed_in)) {
        return Err{std::string("the session answer has no signed_in true/false")};
    }
    if (!info.signed_in) return info;
    std::string scope;
    if (!read_optional(root, "scope", scope)) return Err{std::string("the session answer's scope is not text")};
    auto scopes = parse_scope_list(scope);
    if (!scopes) return Err{"the session answer's scope names unknown scopes: " + scope};
    info.scope = std::move(*scopes);
    if (!read_required(root, "expires_in", info.expires_in)) {
        return Err{std::string("the session answer has no expires_in in seconds")};
    }
    if (!read_optional(root, "refresh_expires_in", info.refresh_expires_in)) {
        return Err{std::string("the session answer's refresh_expires_in is not a whole number of seconds")};
    }
    if (const json* requests = json_member(root, "token_requests")) {
        if (!requests->is_array()) return Err{std::string("the session answer's token_requests is not a list")};
        for (const json& item : *requests) {
            auto request = report_from(item);
            if (!request) return Err{"the session answer: " + request.error()};
            info.token_requests.push_back(std::move(*request));
        }
    }
    return info;
}

}  // namespace roomkey
