// soak_load.cpp: the load generator of bench/soak.sh (issue 11 item 7), on
// real TLS connections to a running roomkey-helper and roomkey-sandbox.
//
//   --phase hold:  --connections keep-alive clients loop GET /api/my/status
//                  through the helper (API token) for --seconds, while --idle
//                  more connections sit idle (half) or drip a request one byte
//                  a second (half), reconnecting whenever the helper drops them.
//   --phase churn: --threads users make --requests API calls in total with
//                  OAuth tokens: each signs in (consent screen, login, Allow,
//                  code for tokens through the helper), refreshes every
//                  --refresh-every calls, and every --revoke-every calls
//                  replays a rotated-out refresh token (the sandbox revokes
//                  the grant), checks the access token is now refused, and
//                  signs in again.
//
// Prints one line: requests, errors (any answer the protocol did not call
// for, or a transport failure), and p50/p99 of the first and last 10 s.
#include <httplib.h>
#include <netinet/in.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "roomkey/pkce.hpp"
#include "roomkey/url.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using namespace roomkey;

struct Options {
    std::string phase;
    int helper_port = 0;
    int sandbox_port = 0;
    std::string ca;
    std::string token = "sandbox-api-token-alice-1001";
    int seconds = 60;
    int connections = 64;
    int idle = 32;
    long requests = 200000;
    int threads = 16;
    int refresh_every = 250;
    int revoke_every = 2500;
};

// Latencies with the second of the run they ended in.
struct Samples {
    std::mutex mutex;
    std::vector<std::pair<double, double>> all;  // (seconds since start, ms)
    void add(const std::vector<std::pair<double, double>>& mine) {
        std::lock_guard<std::mutex> lock(mutex);
        all.insert(all.end(), mine.begin(), mine.end());
    }
};

std::atomic<long> g_errors{0};
std::atomic<long> g_requests{0};
std::atomic<bool> g_stop{false};
const Clock::time_point g_start = Clock::now();

double since_start() {
    return std::chrono::duration<double>(Clock::now() - g_start).count();
}

void error(const std::string& what) {
    if (g_errors.fetch_add(1) < 20) std::fprintf(stderr, "soak: error: %s\n", what.c_str());
}

std::unique_ptr<httplib::SSLClient> client(int port, const std::string& ca) {
    auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", port);
    c->enable_server_certificate_verification(true);
    c->set_ca_cert_path(ca.c_str());
    c->set_keep_alive(true);
    c->set_tcp_nodelay(true);
    c->set_url_encode(false);
    c->set_read_timeout(30, 0);
    return c;
}

void random_source(unsigned char* out, std::size_t size) {
    RAND_bytes(out, static_cast<int>(size));
}

// [SECTION] hold: keep-alive load + idle and slow-drip connections ---------------

void keep_alive_loop(const Options& o, Samples& samples) {
    auto c = client(o.helper_port, o.ca);
    const httplib::Headers headers{{"X-Roomkey-Request", "1"}, {"x-servicetoken", o.token}};
    std::vector<std::pair<double, double>> mine;
    while (!g_stop) {
        const auto t0 = Clock::now();
        auto res = c->Get("/api/my/status", headers);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        ++g_requests;
        if (!res) {
            error("GET /api/my/status: " + httplib::to_string(res.error()));
        } else if (res->status != 200) {
            error("GET /api/my/status: " + std::to_string(res->status) + " " + res->body);
        }
        mine.emplace_back(since_start(), ms);
    }
    samples.add(mine);
}

// One raw TLS connection that sends nothing (drip = false) or a request one
// byte a second (drip = true), reopened whenever the helper ends it.
void idle_loop(const Options& o, bool drip, std::atomic<long>& reopened) {
    SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
    const std::string request = "GET /api/my/status HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(o.helper_port) +
                                "\r\nX-Roomkey-Request: 1\r\nX-Slow: " + std::string(4096, 'a');
    while (!g_stop) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(o.helper_port));
        ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
        SSL* ssl = nullptr;
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
            ssl = SSL_new(ctx);
            SSL_set_fd(ssl, fd);
            if (SSL_connect(ssl) == 1) {
                std::size_t sent = 0;
                while (!g_stop) {
                    pollfd p{fd, POLLIN, 0};
                    if (::poll(&p, 1, 1000) > 0) {
                        char buf[256];
                        if (SSL_read(ssl, buf, sizeof buf) <= 0) break;  // the helper ended it
                    }
                    if (drip && sent < request.size() && SSL_write(ssl, request.data() + sent++, 1) <= 0) break;
                }
            }
        }
        if (ssl != nullptr) SSL_free(ssl);
        ::close(fd);
        if (!g_stop) {
            ++reopened;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    SSL_CTX_free(ctx);
}

// [SECTION] churn: sign-ins, refreshes, revocations ------------------------------

struct Tokens {
    std::string access;
    std::string refresh;
};

std::string hidden_value(const std::string& html, const std::string& name) {
    const std::string key = "name=\"" + name + "\" value=\"";
    const auto at = html.find(key);
    if (at == std::string::npos) return {};
    const auto start = at + key.size();
    return html.substr(start, html.find('"', start) - start);
}

std::optional<Tokens> read_tokens(const httplib::Result& res, const char* what) {
    if (!res || res->status != 200) {
        error(std::string(what) + ": " + (res ? std::to_string(res->status) + " " + res->body : "no answer"));
        return std::nullopt;
    }
    auto j = nlohmann::json::parse(res->body, nullptr, false);
    if (!j.is_object() || !j.contains("access_token") || !j.contains("refresh_token")) {
        error(std::string(what) + ": no tokens in " + res->body);
        return std::nullopt;
    }
    return Tokens{j["access_token"].get<std::string>(), j["refresh_token"].get<std::string>()};
}

// Consent screen -> login -> Allow -> the redirect to /callback -> tokens through the helper.
std::optional<Tokens> sign_in(const Options& o, httplib::SSLClient& app) {
    const PkcePair pkce = make_pkce(random_source);
    const std::string redirect = "https://127.0.0.1:" + std::to_string(o.helper_port) + "/callback";
    const std::string query = form_encode({{"response_type", "code"},
                                           {"client_id", "roomkey-web"},
                                           {"redirect_uri", redirect},
                                           {"scope", "users.all:read rooms.all:read_write"},
                                           {"state", "soak"},
                                           {"code_challenge", pkce.challenge},
                                           {"code_challenge_method", "S256"}});
    auto browser = client(o.sandbox_port, o.ca);
    auto res = browser->Get(("/consent?" + query).c_str());
    if (!res || res->status != 303)
        return error("consent: " + (res ? std::to_string(res->status) : "no answer")), std::nullopt;
    const std::string location = res->get_header_value("Location");
    const auto login_query = form_decode(location.substr(location.find('?') + 1));
    const std::string request = login_query ? form_get(*login_query, "request").value_or("") : "";
    auto login = browser->Post(
        "/login", form_encode({{"login", "alice@example.com"}, {"password", "alice-demo"}, {"request", request}}),
        "application/x-www-form-urlencoded");
    if (!login || login->status != 303)
        return error("login: " + (login ? std::to_string(login->status) : "no answer")), std::nullopt;
    const std::string set_cookie = login->get_header_value("Set-Cookie");
    const std::string cookie = set_cookie.substr(0, set_cookie.find(';'));
    res = browser->Get(login->get_header_value("Location").c_str(), {{"Cookie", cookie}});
    if (!res || res->status != 200)
        return error("consent page: " + (res ? std::to_string(res->status) : "no answer")), std::nullopt;
    auto allow = browser->Post("/consent", {{"Cookie", cookie}},
                               form_encode({{"request", hidden_value(res->body, "request")},
                                            {"csrf", hidden_value(res->body, "csrf")},
                                            {"decision", "allow"}}),
                               "application/x-www-form-urlencoded");
    if (!allow || allow->status != 303)
        return error("allow: " + (allow ? std::to_string(allow->status) : "no answer")), std::nullopt;
    const std::string back = allow->get_header_value("Location");
    const auto fields = form_decode(back.substr(back.find('?') + 1));
    const std::string code = fields ? form_get(*fields, "code").value_or("") : "";
    // The browser follows the redirect to the helper's /callback (where the
    // helper opens its upstream connections ahead), then the page exchanges.
    auto page = app.Get(back.substr(back.find("/callback")).c_str(), {{"Sec-Fetch-Dest", "document"}});
    if (!page || page->status != 200)
        return error("callback page: " + (page ? std::to_string(page->status) : "no answer")), std::nullopt;
    auto token = app.Post("/oauth/token", {{"X-Roomkey-Request", "1"}},
                          form_encode({{"grant_type", "authorization_code"},
                                       {"code", code},
                                       {"redirect_uri", redirect},
                                       {"code_verifier", pkce.verifier},
                                       {"client_id", "roomkey-web"}}),
                          "application/x-www-form-urlencoded");
    return read_tokens(token, "code for tokens");
}

httplib::Result refresh(httplib::SSLClient& app, const std::string& refresh_token) {
    return app.Post(
        "/oauth/token", {{"X-Roomkey-Request", "1"}},
        form_encode({{"grant_type", "refresh_token"}, {"refresh_token", refresh_token}, {"client_id", "roomkey-web"}}),
        "application/x-www-form-urlencoded");
}

struct ChurnCounts {
    std::atomic<long> sign_ins{0}, refreshes{0}, revocations{0};
};

void churn_loop(const Options& o, Samples& samples, ChurnCounts& counts) {
    auto app = client(o.helper_port, o.ca);
    std::vector<std::pair<double, double>> mine;
    std::optional<Tokens> tokens;
    long calls = 0;
    while (g_requests.load() < o.requests && g_errors.load() < 1000) {
        if (!tokens) {
            tokens = sign_in(o, *app);
            ++counts.sign_ins;
            if (!tokens) continue;
        }
        const auto t0 = Clock::now();
        auto res =
            app->Get("/api/my/status", {{"X-Roomkey-Request", "1"}, {"Authorization", "Bearer " + tokens->access}});
        mine.emplace_back(since_start(), std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        ++g_requests;
        ++calls;
        if (!res || res->status != 200) {
            error("churn GET: " +
                  (res ? std::to_string(res->status) + " " + res->body : httplib::to_string(res.error())));
            tokens.reset();
            continue;
        }
        if (calls % o.revoke_every == 0) {
            // Rotate once, then replay the rotated-out token: the sandbox
            // revokes the whole grant (docs/sandbox.md), so the access token
            // must stop working, and a new sign-in follows.
            auto rotated = read_tokens(refresh(*app, tokens->refresh), "refresh before replay");
            ++counts.refreshes;
            if (!rotated) {
                tokens.reset();
                continue;
            }
            auto replay = refresh(*app, tokens->refresh);
            if (!replay || replay->status != 400 || replay->body.find("invalid_grant") == std::string::npos) {
                error("replayed refresh token not refused: " + (replay ? std::to_string(replay->status) : "no answer"));
            }
            auto revoked = app->Get("/api/my/status",
                                    {{"X-Roomkey-Request", "1"}, {"Authorization", "Bearer " + rotated->access}});
            ++g_requests;
            if (!revoked || revoked->status != 401) {
                error("access token of a revoked grant: " + (revoked ? std::to_string(revoked->status) : "no answer"));
            }
            ++counts.revocations;
            tokens.reset();
        } else if (calls % o.refresh_every == 0) {
            tokens = read_tokens(refresh(*app, tokens->refresh), "refresh");
            ++counts.refreshes;
        }
    }
    samples.add(mine);
}

// [SECTION] report -------------------------------------------------------------

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

void report(const std::string& phase, Samples& s, double ran, const std::string& extra) {
    double first = 1e9, last = 0;
    for (const auto& [t, ms] : s.all) {
        first = std::min(first, t);
        last = std::max(last, t);
    }
    std::vector<double> head, tail;
    for (const auto& [t, ms] : s.all) {
        if (t < first + 10) head.push_back(ms);
        if (t > last - 10) tail.push_back(ms);
    }
    std::printf(
        "phase=%s seconds=%.1f requests=%ld errors=%ld req_per_s=%.0f first10_p50_ms=%.3f first10_p99_ms=%.3f "
        "last10_p50_ms=%.3f last10_p99_ms=%.3f%s\n",
        phase.c_str(), ran, g_requests.load(), g_errors.load(), static_cast<double>(g_requests.load()) / ran,
        percentile(head, 0.5), percentile(head, 0.99), percentile(tail, 0.5), percentile(tail, 0.99), extra.c_str());
}

int usage() {
    std::fprintf(stderr,
                 "usage: roomkey-soak-load --phase hold|churn --helper-port N --sandbox-port N --ca FILE\n"
                 "       [--seconds 60] [--connections 64] [--idle 32] (hold)\n"
                 "       [--requests 200000] [--threads 16] [--refresh-every 250] [--revoke-every 2500] (churn)\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--phase")
            o.phase = v;
        else if (k == "--helper-port")
            o.helper_port = std::atoi(v.c_str());
        else if (k == "--sandbox-port")
            o.sandbox_port = std::atoi(v.c_str());
        else if (k == "--ca")
            o.ca = v;
        else if (k == "--seconds")
            o.seconds = std::atoi(v.c_str());
        else if (k == "--connections")
            o.connections = std::atoi(v.c_str());
        else if (k == "--idle")
            o.idle = std::atoi(v.c_str());
        else if (k == "--requests")
            o.requests = std::atol(v.c_str());
        else if (k == "--threads")
            o.threads = std::atoi(v.c_str());
        else if (k == "--refresh-every")
            o.refresh_every = std::max(1, std::atoi(v.c_str()));
        else if (k == "--revoke-every")
            o.revoke_every = std::max(1, std::atoi(v.c_str()));
        else
            return usage();
    }
    if ((o.phase != "hold" && o.phase != "churn") || o.helper_port <= 0 || o.ca.empty() ||
        (o.phase == "churn" && o.sandbox_port <= 0)) {
        return usage();
    }
    std::signal(SIGPIPE, SIG_IGN);
    Samples samples;
    std::vector<std::thread> threads;
    const auto t0 = Clock::now();
    if (o.phase == "hold") {
        std::atomic<long> reopened{0};
        for (int i = 0; i < o.idle; ++i) threads.emplace_back([&, i] { idle_loop(o, i % 2 == 1, reopened); });
        for (int i = 0; i < o.connections; ++i) threads.emplace_back([&] { keep_alive_loop(o, samples); });
        std::this_thread::sleep_for(std::chrono::seconds(o.seconds));
        g_stop = true;
        for (auto& t : threads) t.join();
        report("hold", samples, std::chrono::duration<double>(Clock::now() - t0).count(),
               " idle_or_drip_reopened=" + std::to_string(reopened.load()));
    } else {
        ChurnCounts counts;
        for (int i = 0; i < o.threads; ++i) threads.emplace_back([&] { churn_loop(o, samples, counts); });
        for (auto& t : threads) t.join();
        report("churn", samples, std::chrono::duration<double>(Clock::now() - t0).count(),
               " sign_ins=" + std::to_string(counts.sign_ins.load()) +
                   " refreshes=" + std::to_string(counts.refreshes.load()) +
                   " revocations=" + std::to_string(counts.revocations.load()));
    }
    return g_errors.load() == 0 ? 0 : 1;
}
