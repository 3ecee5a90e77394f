// proxy.hpp: the token proxy (POST /oauth/token -> {auth_url}/token) and the
// API proxy (/api/... -> {base_url}/..., only endpoints shared/ knows), on
// shared/'s HTTP values so they run in memory in tests. Also /config.json.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "helper/issued_links.hpp"
#include "helper/options.hpp"
#include "helper/upstream_client.hpp"
#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper {

// Sends one request (absolute https URL) upstream.
using UpstreamTransport = std::function<Result<HttpResponse, UpstreamError>(const HttpRequest&)>;
// Opens `connections` connections to the origin of an absolute https URL
// ahead of the requests that will use them (UpstreamClient::preconnect).
using UpstreamPreconnect = std::function<void(const std::string& url, std::size_t connections)>;

// API answers from this size on go gzip-compressed to a page that accepts
// it (Accept-Encoding); smaller ones gain nothing worth the work.
inline constexpr std::size_t kCompressFromBytes = 512;
// zlib's level for them, the helper's and the nginx front's alike (nginx's
// own default is 1): 6, zlib's default. Level 1 sent the large account's
// first 10 s as 12.8 KB instead of 9.9 KB with no opening measurably faster
// (bench/scale.mjs, stop 52).
inline constexpr int kCompressLevel = 6;

// Compresses `out`, an API answer for `from_app`, as above (and says Vary:
// Accept-Encoding). Only API answers: a token endpoint's or /bff/* answer
// holds secrets, and a compressed secret beside text the page chose can leak
// through its length (BREACH), so those always go as they are
// (httplib_adapter.hpp never compresses on its own).
void compress_api_answer(const HttpRequest& from_app, HttpResponse& out);

class Proxy {
public:
    Proxy(UpstreamConfig config, UpstreamTransport transport, UpstreamPreconnect preconnect = {});

    // The service sent the browser back to the redirect URI (GET /callback,
    // `query` its query string). With a code in it, the page is about to
    // exchange it at the token endpoint and then send its dashboard reads all
    // at once (shared/'s kDashboardReads): the connections those requests
    // will need are opened now, while the page loads, so that none of them
    // waits for a TLS handshake with the service. A denial (error=...) opens
    // nothing.
    void callback_arrived(const std::string& query) const;

    // POST /oauth/token[?client_id=...] from the app. Public client: the form
    // goes on unchanged. Confidential client (BFF mode): Basic authentication
    // with the secret is added and the page's client_id is taken out (it must
    // name the configured client; spec 4.3 allows one method, not both). The answer keeps its status and body and gets
    // cache-control: no-store + pragma: no-cache (spec 2.3). Never retried:
    // an authorization code is single use.
    HttpResponse token(const HttpRequest& from_app) const;

    // /api/<path> from the app, for paths and methods match_endpoint() knows;
    // anything else is refused with 404 (no open proxy, no SSRF). Copies the
    // credentials (Authorization: Bearer or the API-token header), Accept,
    // Content-Type and body; relays status, body, Content-Type,
    // x-ratelimit-* and WWW-Authenticate; compresses the answer
    // (compress_api_answer).
    HttpResponse api(const HttpRequest& from_app, Instant now = wall_now()) const;

    // POST /file-preview (form `url`) from the app: an image preview's bytes.
    // The page's CSP lets it fetch only its own origin, and a download_url is
    // on the service's file host. Only an https URL on the configured
    // {base_url}'s origin, or a download link the service issued through
    // api() within its 30 s (issued_links.hpp), is fetched (never an open
    // proxy), without credentials; only a raster image of at most
    // kMaxPreviewBytes goes back, no-store. `now` is when it is asked.
    HttpResponse file_preview(const HttpRequest& from_app, Instant now = wall_now()) const;

    // The public part of the configuration for the page (never the secret).
    // `app_origin` is e.g. "https://127.0.0.1:8443". In the BFF mode the page
    // gets the /bff/ routes and no token endpoint (docs/bff.md).
    // `file_previews`: whether the front serves the preview route (nginx alone does not).
    std::string public_config_json(const std::string& app_origin, SessionMode session = SessionMode::browser,
                                   bool file_previews = true) const;

    const UpstreamConfig& config() const { return config_; }

private:
    Result<Unit, std::string> bff_client_id(const FormFields& body, const std::optional<std::string>& query) const;

    UpstreamConfig config_;
    UpstreamTransport transport_;
    UpstreamPreconnect preconnect_;
    // Shared by copies of this proxy (the BFF gateway's and the server's).
    std::shared_ptr<IssuedLinks> links_ = std::make_shared<IssuedLinks>();
};

}  // namespace roomkey::helper
