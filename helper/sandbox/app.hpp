// app.hpp: the sandbox as a function from HttpRequest to HttpResponse: one
// route table (register_routes in app.cpp), one place that applies policy
// (Host check, security headers, no CORS), and the handlers for the consent
// screen, the token endpoint, the REST API, the client screens and the test
// controls. No sockets here: server.cpp puts it behind cpp-httplib.
// Thread-safe: handlers may run concurrently; the state sits behind one mutex.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roomkey/api_records.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/http.hpp"
#include "roomkey/random.hpp"
#include "roomkey/result.hpp"
#include "roomkey/token.hpp"
#include "roomkey/url.hpp"
#include "sandbox/chat_model.hpp"
#include "sandbox/clock.hpp"
#include "sandbox/faults.hpp"
#include "sandbox/file_store.hpp"
#include "sandbox/oauth_state.hpp"
#include "sandbox/options.hpp"
#include "sandbox/rate_limiter.hpp"
#include "sandbox/store.hpp"

namespace roomkey::sandbox {

// The session cookie of the login screen. The __Host- prefix makes browsers
// insist on Secure, Path=/ and no Domain.
inline constexpr std::string_view kSessionCookie = "__Host-roomkey-sandbox";
inline constexpr std::string_view kControlHeader = "X-Roomkey-Sandbox-Control";

// [choices] How the service answers where its documents say nothing: the
// sandbox chooses, docs/sandbox.md says so, and each choice is one constant.
// (Cursor choices of GET /messages: chat_model.hpp.)
// PUT or DELETE of a message someone else sent.
inline constexpr int kOthersMessageStatus = 403;
// PUT /messages/read when nothing is unread (the status, 400, is the RAML's;
// its words are not published).
inline constexpr std::string_view kAlreadyReadMessage = "The messages of this room are already read.";
// Published (hubot-chatwork issue #6): an endpoint or method the API does not
// have is a 400 with these words, not a 404 or 405.
inline constexpr std::string_view kInvalidEndpointMessage = "Invalid Endpoint or HTTP method";
// An invitation link's URL is this sandbox's /g/<code>; its code, when none
// is given, is this many characters of [a-z0-9] (the service's look alike).
inline constexpr std::size_t kLinkCodeLength = 14;

// What a handler sees of a request, parsed once.
struct RequestContext {
    const HttpRequest& request;
    std::string path;       // without query
    std::string raw_query;  // without '?'
    FormFields query;       // decoded query
    Instant now;
    // Set by the API policy when the request was counted against a
    // credential (spec 8.1); the x-ratelimit-* headers are written from it in
    // one place (SandboxApp::finish), which peeks for requests not counted.
    mutable std::optional<RateDecision> counted;
};

// download: the signed file links (api_files.cpp), outside /v2 and its policy.
enum class RouteKind { page, token, api, control, download };

class SandboxApp {
public:
    // `chat`: the data set to serve (ChatModel::demo or a fixture's).
    SandboxApp(SandboxOptions options, SandboxClock& clock, FaultInjector& faults, RandomSource random,
               ChatModel chat);

    // Registers the web app's client and the clients of the options; the
    // message names the first client that breaks the spec 2.1 rules. On
    // success: lines for the operator, one per confidential client whose
    // secret was generated (the screens show start-up clients' secrets to no
    // one, so this is the only place to learn it).
    Result<std::vector<std::string>, std::string> register_start_up_clients();

    // From now on every change is written to `store` (store.hpp): when it
    // holds the state started from `source`, that state is loaded first (the
    // app was made with an empty ChatModel); otherwise it is replaced by this
    // app's. Before register_start_up_clients.
    Result<Unit, std::string> attach_store(std::unique_ptr<StateStore> store, const std::string& source, bool restore);
    // Writes what changed (after each request; auth: the request may have
    // changed clients, sessions or tokens). A failed write is said once on
    // stderr; the sandbox goes on in memory.
    // final: the rate windows too, however recently they were written.
    void persist(bool auth, bool final = false);

    // The port the server is bound to; requests must name it in Host.
    void set_port(int port) { port_ = port; }
    // [::1] in Host is accepted only when the sandbox listens there (--host ::1).
    void set_listening_on_ipv6(bool yes) { listening_on_ipv6_ = yes; }

    HttpResponse handle(const HttpRequest& request);
    // True once after handle() took a drop_answer fault on this thread: the
    // server then cuts the connection after the status line and headers,
    // before the body (the request was acted on; the caller never learns it).
    static bool take_dropped_answer();
    // For methods shared/'s HttpRequest cannot carry (PATCH, OPTIONS, HEAD,
    // ...): 405 with the same policy. No CORS preflight is ever granted.
    HttpResponse unsupported_method(std::string_view target, const Headers& request_headers);
    // The same policy for responses that never passed through handle():
    // those cpp-httplib makes itself (400, 413, 414, ...) and the exception
    // handler's 500. `target` is the raw request-target (may be empty).
    void apply_transport_policy(std::string_view target, const Headers& request_headers, HttpResponse& response);

private:
    using Handler = std::function<HttpResponse(SandboxApp&, const RequestContext&)>;
    struct Route {
        Method method;
        std::string path;  // exact, or a prefix when it ends in '/'
        RouteKind kind;
        Handler handler;
    };
    void register_routes();
    void add(Method method, std::string path, RouteKind kind, Handler handler);
    bool host_allowed(const Headers& headers) const;
    // The largest body a route takes: kMaxUploadRequestBytes for the upload, else max_body_bytes.
    std::size_t body_limit(Method method, std::string_view path) const;
    // Every response leaves through here: the x-ratelimit-* headers for API
    // responses (spec 8.1: every one), then the security headers.
    void finish(RouteKind kind, const Headers& request_headers, const std::optional<RateDecision>& counted,
                HttpResponse& response);
    static void apply_policy(RouteKind kind, HttpResponse& response);

    // --- screens (pages_auth.cpp) ---
    HttpResponse index_page(const RequestContext& ctx);
    HttpResponse consent_get(const RequestContext& ctx);
    HttpResponse consent_post(const RequestContext& ctx);
    HttpResponse login_get(const RequestContext& ctx);
    HttpResponse login_post(const RequestContext& ctx);
    HttpResponse logout_post(const RequestContext& ctx);
    HttpResponse consent_page(const ReservedAuthorization& reserved, std::string_view reservation_id,
                              const LoginSession& session);
    // Before a decision (Allow, Deny, Cancel) redirects: the 7.1 error page
    // when the client or its redirect URI is gone since the request was
    // validated (the browser never goes to an unregistered URI), else
    // nullopt. Caller holds mutex_.
    std::optional<HttpResponse> redirect_refusal(const ValidatedAuthorization& request);
    HttpResponse login_page(int status, std::string_view request_id, std::string_view next, std::string_view error);
    // The spec 7.1 error page: code, description, and (when the redirect URI
    // is verified) a link back to the client; never a redirect.
    HttpResponse authorization_error_page(int status, AuthorizationErrorCode code, std::string_view description,
                                          const std::optional<std::string>& back_to);
    const LoginSession* current_session(const RequestContext& ctx) const;  // caller holds mutex_

    // --- client screens (pages_clients.cpp) ---
    HttpResponse clients_list(const RequestContext& ctx);
    HttpResponse clients_new(const RequestContext& ctx);
    HttpResponse clients_create(const RequestContext& ctx);
    HttpResponse clients_item(const RequestContext& ctx);
    HttpResponse clients_item_post(const RequestContext& ctx);
    HttpResponse client_form(int status, const LoginSession& session, const ClientRegistration& values,
                             const std::vector<std::string>& problems);

    // --- token endpoint (token_endpoint.cpp) ---
    HttpResponse token(const RequestContext& ctx);
    // Client authentication (spec 4.3, 5.3): the 401 invalid_client answer,
    // or nullopt when the client is known and authenticated. Caller holds mutex_.
    std::optional<HttpResponse> authenticate_token_client(const TokenRequest& request, bool basic_used);

    // --- REST API (api.cpp: policy; api_handlers.cpp: endpoints) ---
    HttpResponse api(const RequestContext& ctx);
    struct Caller {
        AccountId account = 0;
        bool oauth = false;  // Bearer token (scopes apply) vs API token (full access)
        ScopeSet scopes;
        std::string rate_key;
    };
    HttpResponse api_endpoint(const RequestContext& ctx, const Caller& caller, const EndpointMatch& match,
                              const FormFields& form);
    // A new invitation link: the given code (400 if another room uses it)
    // or a random unused one. Caller holds mutex_.
    Result<InviteLink, HttpResponse> new_link(const std::optional<std::string>& code, std::string description,
                                              bool need_acceptance);
    std::string link_url_prefix() const;  // "https://127.0.0.1:PORT/g/"
    // GET /g/<code>: the page an invitation link opens.
    HttpResponse invitation_page(const RequestContext& ctx);
    // Spec 8.1 on a response: the counted decision, or else the state of the
    // presented credential's window without counting (see rate_key_of).
    void write_rate_limit_headers(const Headers& request_headers, const std::optional<RateDecision>& counted,
                                  HttpResponse& response);  // takes mutex_
    // The limiter key of a request's credential: its account or grant when
    // it is valid, else a digest of what was presented, else "anonymous".
    std::string rate_key_of(const Headers& request_headers, Instant now) const;  // caller holds mutex_

    // --- files (api_files.cpp); the first two run under mutex_ from api_endpoint ---
    HttpResponse upload_file(const RequestContext& ctx, AccountId account, Room& room, bool can_write);
    // GET /rooms/{room_id}/files/{file_id}: `record`, plus a download_url
    // when create_download_url=1.
    HttpResponse file_answer(const RequestContext& ctx, const FileRecord& file, ChatFile record);
    HttpResponse download(const RequestContext& ctx);  // GET /downloads/<file_id>; takes mutex_
    void seed_demo_files();                            // at construction

    // --- test controls (controls.cpp) ---
    HttpResponse control_clock_get(const RequestContext& ctx);
    HttpResponse control_clock_advance(const RequestContext& ctx);
    HttpResponse control_clock_scale(const RequestContext& ctx);
    HttpResponse control_faults_post(const RequestContext& ctx);
    HttpResponse control_faults_delete(const RequestContext& ctx);
    // GET /_sandbox/tokens: every token value issued so far, so tests can
    // look for them where they must never be (pages, logs, storage).
    HttpResponse control_tokens_get(const RequestContext& ctx);
    // Keeps the values of `tokens` for control_tokens_get (test controls
    // only; the oldest go first beyond kMaxRememberedTokens). Caller holds mutex_.
    void remember_issued(const IssuedTokens& tokens);
    // A queued fault for this kind of request, applied; nullopt = answer normally.
    std::optional<HttpResponse> injected_fault(FaultTarget target, const RequestContext& ctx);

    SandboxOptions options_;
    SandboxClock& clock_;
    FaultInjector& faults_;
    RandomSource random_;
    int port_ = 0;
    bool listening_on_ipv6_ = false;
    std::vector<Route> routes_;

    std::mutex mutex_;  // guards everything below
    ChatModel chat_;
    OAuthState oauth_;
    WindowLimiter rate_limiter_;
    SlidingLimiter room_limiter_;
    FileStore file_store_;
    DownloadSigner download_signer_;
    std::deque<std::string> issued_access_tokens_;   // test controls only
    std::deque<std::string> issued_refresh_tokens_;  // test controls only
    std::unique_ptr<StateStore> store_;              // nullptr: --ephemeral
    bool store_failed_ = false;
    bool restored_ = false;
};

}  // namespace roomkey::sandbox
