// proxy.cpp: what the token and API proxies forward, add and relay.
#include "helper/proxy.hpp"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <iterator>

#include "helper/policy.hpp"
#include "helper/request_body_rules.hpp"
#include "helper/route_policy.hpp"
#include "helper/static_site.hpp"
#include "roomkey/encoding.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/launch_url.hpp"
#include "roomkey/proxy_outcome.hpp"
#include "roomkey/public_config.hpp"
#include "roomkey/token.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper {
namespace {

// The caching headers of `route` (route_policy.hpp, which nginx's
// configuration reads too).
void set_route_headers(HttpResponse& out, RouteClass route) {
    out.headers.set("Cache-Control", std::string(cache_control(route)));
    if (!pragma(route).empty()) out.headers.set("Pragma", std::string(pragma(route)));
}

// A body shared/ wrote (errors.hpp, proxy_outcome.hpp) as a route's JSON
// answer. Error texts may quote the request (its path), whose bytes need not
// be UTF-8: those writers turn such bytes into U+FFFD rather than abort.
HttpResponse json_text_response(int status, std::string body, RouteClass route) {
    HttpResponse out;
    out.status = status;
    out.headers.set("Content-Type", "application/json");
    set_route_headers(out, route);
    out.body = std::move(body);
    return out;
}

// Token endpoint errors have the shape of spec 2.4 (shared/'s TokenError).
HttpResponse token_error(int status, const char* error, const std::string& description) {
    return json_text_response(status, to_json(TokenError{error, description}), RouteClass::token);
}

// API errors have the shape of spec 2.7 (shared/'s ApiErrorBody).
HttpResponse api_error(int status, const std::string& message) {
    return json_text_response(status, to_json(ApiErrorBody{{message}}), RouteClass::api);
}

// What the app is told when the upstream could not be used: 502 (or 504 on a
// timeout), with X-Roomkey-Upstream and "roomkey_upstream" saying whether the
// request was sent (shared/'s proxy_outcome.hpp), and words for the user.
struct UpstreamFailure {
    int status;
    UpstreamOutcome outcome;
    std::string words;
};

UpstreamFailure upstream_failure(UpstreamError error, const std::string& what, const UpstreamTimeouts& timeouts) {
    const UpstreamOutcome outcome = outcome_of(error);
    const bool timed_out = error == UpstreamError::timed_out;
    std::string words;
    if (outcome == UpstreamOutcome::not_sent) {
        words = what + " could not be reached (" + std::string(to_string(error)) +
                "); the request was not sent, so it is safe to send again";
    } else if (timed_out) {
        const auto ms = timeouts.read.count();
        words = what + " did not answer within " +
                (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms") +
                "; the request was sent and may have been carried out";
    } else {
        words = what + " did not answer (" + std::string(to_string(error)) +
                "); the request was sent and may have been carried out";
    }
    return {upstream_failure_status(outcome, timed_out), outcome, std::move(words)};
}

void mark(HttpResponse& out, UpstreamOutcome outcome) {
    out.headers.set(std::string(kUpstreamOutcomeHeader), std::string(to_string(outcome)));
}

void split_target(const std::string& target, std::string& path, std::optional<std::string>& query) {
    const auto q = target.find('?');
    path = target.substr(0, q);
    if (q != std::string::npos) query = target.substr(q + 1);
}

FormFields without_field(const FormFields& fields, std::string_view name) {
    FormFields out;
    for (const auto& field : fields) {
        if (field.first != name) out.push_back(field);
    }
    return out;
}

// gzip (RFC 1952) of `body`, or nothing if zlib failed.
std::optional<std::string> gzip(const std::string& body) {
    z_stream z{};
    if (deflateInit2(&z, kCompressLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
    std::string out(deflateBound(&z, static_cast<uLong>(body.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    z.avail_in = static_cast<uInt>(body.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const bool done = deflate(&z, Z_FINISH) == Z_STREAM_END;
    out.resize(z.total_out);
    deflateEnd(&z);
    if (!done) return {};
    return out;
}

}  // namespace

void compress_api_answer(const HttpRequest& from_app, HttpResponse& out) {
    if (out.body.size() < kCompressFromBytes || out.headers.get("content-encoding")) return;
    out.headers.set("Vary", "Accept-Encoding");
    if (!accepts_encoding(from_app.headers.get("accept-encoding").value_or(""), "gzip")) return;
    auto packed = gzip(out.body);
    if (!packed || packed->size() >= out.body.size()) return;
    out.body = std::move(*packed);
    out.headers.set("Content-Encoding", "gzip");
}

// The client_id the page sent (body or query), if any, must be the one the
// helper authenticates as: a page configured for another client is a mistake
// worth a clear error, not a silent switch of identity.
Result<Unit, std::string> Proxy::bff_client_id(const FormFields& body, const std::optional<std::string>& query) const {
    std::vector<std::string> named;
    for (const auto& [name, value] : body) {
        if (name == "client_id") named.push_back(value);
    }
    if (query) {
        if (auto q = form_decode(*query)) {
            for (const auto& [name, value] : *q) {
                if (name == "client_id") named.push_back(value);
            }
        }
    }
    for (const auto& id : named) {
        if (id != config_.client_id) {
            return Err{"client_id '" + id + "' is not the client this helper authenticates as ('" + config_.client_id +
                       "'); check the page's /config.json"};
        }
    }
    return Unit{};
}

Proxy::Proxy(UpstreamConfig config, UpstreamTransport transport, UpstreamPreconnect preconnect)
    : config_(std::move(config)), transport_(std::move(transport)), preconnect_(std::move(preconnect)) {}

void Proxy::callback_arrived(const std::string& query) const {
    if (!preconnect_ || !config_.configured()) return;
    if (!read_launch_url("?" + query).has_code) return;
    // The token request first (its origin may be the API's: then it takes
    // one of these and gives it back before the reads go out).
    preconnect_(config_.auth_url, 1);
    preconnect_(config_.base_url, std::size(kDashboardReads));
}

HttpResponse Proxy::token(const HttpRequest& from_app) const {
    if (!config_.configured()) {
        return token_error(503, "upstream_not_configured",
                           "roomkey-helper has no upstream: start it with --auth-url and --base-url");
    }
    if (from_app.method != Method::Post) return token_error(405, "invalid_request", "use POST");
    if (!has_form_content_type(from_app.headers)) {
        return token_error(415, "invalid_request", "the body must be application/x-www-form-urlencoded (spec 4.3)");
    }
    auto fields = form_decode(from_app.body);
    if (!fields) return token_error(400, "invalid_request", "the body is not a valid form");
    std::string path;
    std::optional<std::string> query;
    split_target(from_app.url, path, query);
    // Only client_id may travel in the query (spec 4.3, public clients):
    // codes, verifiers and tokens never go into a URL.
    if (query) {
        auto q = form_decode(*query);
        if (!q) return token_error(400, "invalid_request", "malformed query");
        for (const auto& [name, value] : *q) {
            if (name != "client_id") return token_error(400, "invalid_request", "only client_id may be in the query");
        }
    }

    HttpRequest up;
    up.method = Method::Post;
    up.headers.set("Content-Type", std::string(kFormContentType));
    up.headers.set("Accept", "application/json");
    if (config_.client_type == ClientType::confidential) {
        // BFF mode: the page speaks as a public client (client_id, no secret);
        // the helper turns that into Basic authentication with the secret that
        // lives only here (spec 4.3, 5.3). The service refuses client_id and
        // Basic together, so client_id is taken out, after checking it names
        // the configured client.
        auto client_id = bff_client_id(*fields, query);
        if (!client_id) return token_error(400, "invalid_request", client_id.error());
        up.url = config_.auth_url + "/token";
        up.headers.set("Authorization",
                       basic_authorization(ConfidentialClient{config_.client_id, config_.client_secret}));
        up.body = form_encode(without_field(*fields, "client_id"));
    } else {
        up.url = config_.auth_url + "/token" + (query ? "?" + *query : std::string());
        up.body = from_app.body;
    }

    auto answer = transport_(up);
    if (!answer) {
        const auto failure = upstream_failure(answer.error(), "the token endpoint", config_.timeouts);
        HttpResponse out = json_text_response(
            failure.status, upstream_failure_body(TokenError{"upstream_unavailable", failure.words}, failure.outcome),
            RouteClass::token);
        mark(out, failure.outcome);
        return out;
    }
    HttpResponse out;
    out.status = answer->status;
    if (auto ct = answer->headers.get("content-type")) out.headers.set("Content-Type", *ct);
    if (auto wa = answer->headers.get("www-authenticate")) out.headers.set("WWW-Authenticate", *wa);
    set_route_headers(out, RouteClass::token);
    out.body = std::move(answer->body);
    return out;
}

HttpResponse Proxy::api(const HttpRequest& from_app, Instant now) const {
    if (!config_.configured()) {
        return api_error(503, "roomkey-helper has no upstream: start it with --base-url and --auth-url");
    }
    std::string path;
    std::optional<std::string> query;
    split_target(from_app.url, path, query);
    if (path.rfind(kApiPrefix, 0) != 0) return api_error(404, "not an API path");
    const std::string api_path = path.substr(kApiPrefix.size());
    const auto endpoint = match_endpoint(from_app.method, api_path);
    if (!endpoint) {
        return api_error(404,
                         "not an allowed API endpoint: " + std::string(to_string(from_app.method)) + " " + api_path);
    }
    if (query) {
        auto q = form_decode(*query);
        if (!q) return api_error(400, "malformed query");
        // Spec 5.1: the API token must never be sent in the URL.
        const std::vector<std::string> refused = credential_query_names(config_);
        for (const auto& [name, value] : *q) {
            for (const std::string& credential : refused) {
                if (iequals(name, credential)) return api_error(400, "credentials do not belong in the URL (spec 5.1)");
            }
        }
    }

    // The upload takes multipart/form-data, forwarded as it came (its
    // boundary names the parts); no other endpoint does (request_body_rules.hpp).
    if (from_app.method == Method::Post || from_app.method == Method::Put) {
        const std::string content_type = from_app.headers.get("content-type").value_or("");
        const EndpointInfo& info = endpoint_info(endpoint->endpoint);
        if (takes_file_part(info) && !has_multipart_boundary(content_type)) {
            // (The value itself is not echoed: it may not be UTF-8, which JSON cannot carry.)
            return api_error(415, std::string(to_string(info.method)) + " " + std::string(info.path) +
                                      " takes a multipart/form-data body with a boundary parameter (the file "
                                      "and an optional message)");
        }
        if (!takes_file_part(info) && is_multipart_form_data(content_type)) {
            return api_error(415, "multipart/form-data is for the file upload only; " +
                                      std::string(to_string(info.method)) + " " + std::string(info.path) +
                                      " takes application/x-www-form-urlencoded (spec 4.1.3)");
        }
    }

    HttpRequest up;
    up.method = from_app.method;
    up.url = config_.base_url + api_path + (query ? "?" + *query : std::string());
    if (auto auth = from_app.headers.get("authorization"); auth && auth->rfind("Bearer ", 0) == 0) {
        up.headers.set("Authorization", *auth);
    }
    if (auto token = from_app.headers.get(config_.token_header)) up.headers.set(config_.token_header, *token);
    if (auto accept = from_app.headers.get("accept")) up.headers.set("Accept", *accept);
    if (from_app.method == Method::Post || from_app.method == Method::Put) {
        if (auto ct = from_app.headers.get("content-type")) up.headers.set("Content-Type", *ct);
        up.body = from_app.body;
    }

    auto answer = transport_(up);
    if (!answer) {
        const auto failure = upstream_failure(answer.error(), "the API", config_.timeouts);
        HttpResponse out = json_text_response(
            failure.status, upstream_failure_body(ApiErrorBody{{failure.words}}, failure.outcome), RouteClass::api);
        mark(out, failure.outcome);
        return out;
    }
    HttpResponse out;
    out.status = answer->status;
    for (const auto& [name, value] : answer->headers.fields()) {
        const bool relay = iequals(name, "content-type") || iequals(name, "www-authenticate") ||
                           iequals(name, "retry-after") ||
                           (name.size() > 12 && iequals(std::string_view(name).substr(0, 12), "x-ratelimit-"));
        if (relay) out.headers.add(name, value);
    }
    set_route_headers(out, RouteClass::api);
    if (endpoint->endpoint == Endpoint::room_file_get && out.status == 200) links_->remember_from(answer->body, now);
    out.body = std::move(answer->body);
    compress_api_answer(from_app, out);
    return out;
}

std::string Proxy::public_config_json(const std::string& app_origin, SessionMode session, bool file_previews) const {
    const bool bff = session == SessionMode::bff;
    PublicConfig out;
    out.configured = config_.configured();
    out.session = session;
    out.client_id = config_.client_id;
    out.client_type = config_.client_type;
    out.consent_url = config_.consent_url;
    out.redirect_uri = app_origin + std::string(kCallbackPath);
    out.token_endpoint = bff ? std::string() : std::string(kTokenPath);
    out.api_base = std::string(kApiPrefix);
    out.token_header = config_.token_header;
    out.request_header = std::string(kAppRequestHeader);
    out.scope = config_.scope;
    out.upstream_base_url = config_.base_url;
    out.upstream_auth_url = config_.auth_url;
    out.file_previews = file_previews;
    if (bff) {
        out.bff_login = std::string(kBffLoginPath);
        out.bff_session = std::string(kBffSessionPath);
        out.bff_logout = std::string(kBffLogoutPath);
        out.bff_refresh = std::string(kBffRefreshPath);
    }
    return to_json(out);
}

HttpResponse Proxy::file_preview(const HttpRequest& from_app, Instant now) const {
    if (!config_.configured()) {
        return api_error(503, "roomkey-helper has no upstream: start it with --base-url and --auth-url");
    }
    auto form = form_decode(from_app.body);
    std::string url;
    if (form) {
        for (const auto& [name, value] : *form) {
            if (name == "url") url = value;
        }
    }
    const auto target = parse_url(url);
    const auto service = parse_url(config_.base_url);
    // The configured service's own origin, or a link the service itself
    // issued through api() (its file host): never an open proxy.
    const bool services = target && service && origin_of(*target) == origin_of(*service);
    if (!target || target->scheme != "https" || !(services || links_->issued(url, now))) {
        return api_error(403, "a preview is fetched only from the configured service's origin (" +
                                  (service ? origin_of(*service) : std::string("none")) +
                                  ") or from a download link the service issued through this helper in the last 30 s");
    }
    HttpRequest up;
    up.method = Method::Get;
    up.url = url;  // no credentials: a download_url is a signed link
    auto answer = transport_(up);
    if (!answer) return api_error(502, "the file's host could not be reached");
    // The type by the bytes (the service's answer says application/octet-stream):
    // a raster image the browser decodes, never a document that could run.
    const std::string& b = answer->body;
    const auto starts = [&b](std::string_view magic, std::size_t at = 0) {
        return b.size() >= at + magic.size() && b.compare(at, magic.size(), magic) == 0;
    };
    const char* type = starts("\x89PNG")                                   ? "image/png"
                       : starts("\xFF\xD8\xFF")                           ? "image/jpeg"
                       : starts("GIF8")                                    ? "image/gif"
                       : starts("RIFF") && starts("WEBP", 8)               ? "image/webp"
                       : starts("BM")                                      ? "image/bmp"
                                                                           : nullptr;
    if (answer->status != 200 || !type || b.size() > static_cast<std::size_t>(kMaxPreviewBytes)) {
        return api_error(502, "the file's host gave no PNG, JPEG, GIF, WebP or BMP image of at most " +
                                  std::to_string(kMaxPreviewBytes) + " bytes (status " +
                                  std::to_string(answer->status) + ")");
    }
    HttpResponse out;
    out.status = 200;
    out.headers.set("Content-Type", type);
    set_route_headers(out, RouteClass::api);
    out.body = std::move(answer->body);
    return out;
}

}  // namespace roomkey::helper
