// latency_probe.cpp: the latency client of bench/servers.sh. One keep-alive
// HTTPS connection sends GET requests to one URL, back to back or paced
// (a random gap of --gap-ms MIN-MAX between an answer and the next request,
// as the app sends them), and prints each request's time in microseconds,
// one per line, so that the script can pool rounds before taking
// percentiles. The first request (the connection's handshake) is not
// counted. Any answer but 200 or a transport failure ends the run with
// exit status 1. The client is roomkey's own upstream client
// (common/openable_client.hpp: no sleep in its reads), the same for every
// server measured.
//
//   roomkey-latency-probe --url https://127.0.0.1:PORT/path --ca FILE
//       [--header 'Name: value']... (--seconds S | --requests N) [--gap-ms MIN-MAX]
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/openable_client.hpp"
#include "common/tls_client_context.hpp"
#include "roomkey/url.hpp"

namespace {

using Clock = std::chrono::steady_clock;

int usage(const char* why) {
    std::fprintf(stderr,
                 "roomkey-latency-probe: %s\n"
                 "usage: roomkey-latency-probe --url https://HOST:PORT/PATH --ca FILE [--header 'Name: value']...\n"
                 "       (--seconds S | --requests N) [--gap-ms MIN-MAX]\n",
                 why);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string url_text, ca;
    httplib::Headers headers;
    double seconds = 0;
    long requests = 0;
    int gap_min = 0, gap_max = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") return usage("help"), 0;
        if (i + 1 >= argc) return usage((arg + " needs a value").c_str());
        const std::string value = argv[++i];
        if (arg == "--url") {
            url_text = value;
        } else if (arg == "--ca") {
            ca = value;
        } else if (arg == "--header") {
            const auto colon = value.find(':');
            if (colon == std::string::npos) return usage("--header takes 'Name: value'");
            headers.emplace(value.substr(0, colon), value.substr(value.find_first_not_of(' ', colon + 1)));
        } else if (arg == "--seconds") {
            seconds = std::atof(value.c_str());
        } else if (arg == "--requests") {
            requests = std::atol(value.c_str());
        } else if (arg == "--gap-ms") {
            if (std::sscanf(value.c_str(), "%d-%d", &gap_min, &gap_max) != 2 || gap_min < 0 || gap_max < gap_min) {
                return usage("--gap-ms takes MIN-MAX, e.g. 10-30");
            }
        } else {
            return usage(("unknown option " + arg).c_str());
        }
    }
    const auto url = roomkey::parse_url(url_text);
    if (!url || url->scheme != "https" || url->host.empty()) return usage("--url must be an https:// URL");
    if ((seconds > 0) == (requests > 0)) return usage("give one of --seconds and --requests");

    X509_STORE* store = X509_STORE_new();
    if (store == nullptr || (!ca.empty() && X509_STORE_load_file(store, ca.c_str()) != 1)) {
        return usage("cannot load the --ca file");
    }
    auto tls = roomkey::native::TlsClientContext::make(store);
    if (!tls) return usage("cannot make a TLS context");
    roomkey::native::OpenableClient client(url->host, url->port ? static_cast<int>(*url->port) : 443, tls);
    client.set_tcp_nodelay(true);
    client.set_keep_alive(true);
    client.set_read_timeout(std::chrono::seconds(10));
    std::string target = url->path.empty() ? "/" : url->path;
    if (url->query) target += "?" + *url->query;

    std::mt19937 random(12345);
    std::uniform_int_distribution<int> gap(gap_min, gap_max);
    std::vector<long> samples;
    const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    for (long n = 0;; ++n) {
        if (requests > 0 ? n > requests : (n > 0 && Clock::now() >= end)) break;
        if (n > 0 && gap_max > 0) std::this_thread::sleep_for(std::chrono::milliseconds(gap(random)));
        const auto started = Clock::now();
        auto result = client.Get(target, headers);
        const auto took = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started).count();
        if (!result || result->status != 200) {
            std::fprintf(stderr, "roomkey-latency-probe: %s: %s\n", url_text.c_str(),
                         result ? ("answered " + std::to_string(result->status)).c_str()
                                : httplib::to_string(result.error()).c_str());
            return 1;
        }
        if (n > 0) samples.push_back(static_cast<long>(took));
    }
    for (long s : samples) std::printf("%ld\n", s);
    return 0;
}
