// bff_session.cpp: the BFF session's value, its sealed JSON text, the
// /bff/session body and the masked token request records (bff_session.hpp).
#include "roomkey/bff_session.hpp"

#include <nlohmann/json.hpp>

#include "roomkey/json_text.hpp"
#include "roomkey/session.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

void append_token_request(BffSession& session, BffTokenRequest record) {
    auto& log = session.token_requests;
    log.push_back(std::move(record));
    // The first record (the code exchange that created the session) stays;
    // the oldest refreshes go.
    while (log.size() > kBffKeptTokenRequests) log.erase(log.begin() + (log.size() > 1 ? 1 : 0));
}

void adopt_token_set(BffSession& session, const TokenSet& tokens, BffTokenRequest record) {
    session.access_token = tokens.access_token;
    // Spec 4.3: every refresh issues a new refresh token (rotation).
    session.refresh_token = tokens.refresh_token;
    session.scope = tokens.scope;
    session.access_expires_at = tokens.access_expires_at;
    // The first set starts the grant; a refresh keeps its end (spec 5.4.2).
    session.refresh_expires_at = session.generation == 0
                                     ? tokens.refresh_expires_at
                                     : keep_grant_end(session.refresh_expires_at, tokens.refresh_expires_at);
    ++session.generation;
    append_token_request(session, std::move(record));
}

namespace {

using Json = nlohmann::ordered_json;

Json record_json(const BffTokenRequest& r) {
    return {{"g", std::string(to_string(r.grant_type))},
            {"st", r.status},
            {"ms", r.ms},
            {"at", r.at},
            {"sc", r.scope},
            {"ss", r.scope_sent},
            {"x", r.expires_in},
            {"e", r.error}};
}

std::optional<BffTokenRequest> parse_record(const nlohmann::json& j) {
    if (!j.is_object()) return std::nullopt;
    BffTokenRequest r;
    std::string grant;
    std::int64_t status = 0;
    if (!read_required(j, "g", grant) || !read_required(j, "st", status) || !read_required(j, "ms", r.ms) ||
        !read_required(j, "at", r.at) || !read_required(j, "sc", r.scope) || !read_required(j, "ss", r.scope_sent) ||
        !read_required(j, "x", r.expires_in) || !read_required(j, "e", r.error)) {
        return std::nullopt;
    }
    const auto type = grant_type_from(grant);
    if (!type) return std::nullopt;
    r.grant_type = *type;
    if (status < 0 || status > 999) return std::nullopt;
    r.status = static_cast<int>(status);
    return r;
}

}  // namespace

std::string serialize(const BffSession& s) {
    Json log = Json::array();
    for (const auto& r : s.token_requests) log.push_back(record_json(r));
    Json j = {{"v", 1},
              {"id", s.id},
              {"at", s.access_token},
              {"rt", s.refresh_token},
              {"scope", format_scope_list(s.scope)},
              {"aexp", unix_ms(s.access_expires_at)},
              {"rexp", s.refresh_expires_at ? Json(unix_ms(*s.refresh_expires_at)) : Json(nullptr)},
              {"gen", s.generation},
              {"until", unix_ms(s.valid_until)},
              {"log", std::move(log)}};
    // `replace`: a scope the service sent may hold bytes that are not UTF-8.
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<BffSession, std::string> parse_bff_session(std::string_view text) {
    const auto j = parse_json_text(text);
    if (j.is_discarded() || !j.is_object()) return Err{std::string("not a JSON object")};
    std::int64_t version = 0;
    if (!read_required(j, "v", version) || version != 1) return Err{std::string("unsupported version")};
    BffSession s;
    std::string scope;
    std::int64_t access_expires = 0;
    std::int64_t generation = 0;
    std::int64_t until = 0;
    if (!read_required(j, "until", until) || !read_required(j, "id", s.id) || !read_required(j, "at", s.access_token) ||
        !read_required(j, "rt", s.refresh_token) || !read_required(j, "scope", scope) ||
        !read_required(j, "aexp", access_expires) || !read_required(j, "gen", generation) || generation < 0) {
        return Err{std::string("a field is missing or has the wrong type")};
    }
    s.scope = split_scope_list(scope);
    s.access_expires_at = instant_from_unix_ms(access_expires);
    s.generation = static_cast<std::uint64_t>(generation);
    s.valid_until = instant_from_unix_ms(until);
    // No refresh expiry (offline_access) is written as null.
    std::optional<std::int64_t> rexp;
    if (!read_optional(j, "rexp", rexp)) return Err{std::string("rexp has the wrong type")};
    if (rexp) s.refresh_expires_at = instant_from_unix_ms(*rexp);
    const nlohmann::json* log = json_member(j, "log");
    if (!log || !log->is_array()) return Err{std::string("log is missing")};
    for (const auto& item : *log) {
        auto record = parse_record(item);
        if (!record) return Err{std::string("a token request record is malformed")};
        s.token_requests.push_back(std::move(*record));
    }
    return s;
}

std::string bff_token_request_json(const BffTokenRequest& r, std::string_view token_url,
                                   std::string_view redirect_uri) {
    return to_json(report_of(r, token_url, redirect_uri));
}

std::string bff_session_body(const BffSession& s, Instant now, std::string_view token_url,
                             std::string_view redirect_uri) {
    return to_json(session_info(s, now, token_url, redirect_uri));
}

std::string bff_signed_out_body() { return to_json(BffSessionInfo{}); }

}  // namespace roomkey
