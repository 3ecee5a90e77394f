// nginx_files.cpp: write_nginx_config(): checks the settings the way `serve`
// does, resolves every path nginx is given, and writes the configuration,
// the upstream CA bundle and the client secret's include.
#include <fcntl.h>
#include <openssl/x509.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "common/state_dir.hpp"
#include "common/tls.hpp"
#include "helper/nginx_config.hpp"
#include "helper/nginx_syntax.hpp"
#include "helper/route_policy.hpp"
#include "helper/static_site.hpp"
#include "roomkey/token.hpp"

namespace roomkey::helper {

namespace {

Result<Unit, std::string> write_file(const std::string& path, const std::string& text, mode_t mode) {
    // Created with its final mode (no window where a secret is world-readable).
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) return Err{"cannot write " + path};
    ::fchmod(fd, mode);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            ::close(fd);
            return Err{"cannot write " + path};
        }
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return Unit{};
}

std::string system_ca_bundle() {
    const char* env = std::getenv(X509_get_default_cert_file_env());
    return env != nullptr && env[0] != '\0' ? env : X509_get_default_cert_file();
}

}  // namespace

Result<std::string, std::string> write_nginx_config(const HelperConfig& given_config, const NginxOptions& given) {
    // nginx reads a relative path against its own prefix, not the directory
    // the command ran in: every path it is given is made absolute here, the
    // way the helper resolves the same flags.
    HelperConfig config = given_config;
    for (std::string* path : {&config.web_root, &config.state_dir, &config.cert_file, &config.key_file}) {
        if (!path->empty()) *path = std::filesystem::absolute(*path).lexically_normal().string();
    }
    NginxOptions options = given;
    if (options.out_dir.empty()) options.out_dir = config.state_dir + "/nginx";
    if (options.access_log.empty()) options.access_log = options.out_dir + "/access.log";
    options.out_dir = std::filesystem::absolute(options.out_dir).lexically_normal().string();
    if (options.access_log != "off" && options.access_log.rfind("syslog:", 0) != 0) {
        options.access_log = std::filesystem::absolute(options.access_log).lexically_normal().string();
    }
    // The same check as `serve`, with the same words: nginx would start and
    // answer 404 for the page.
    if (auto site = StaticSite::open(config.web_root); !site) return Err{site.error()};
    if (!options.server_name.empty() && config.cert_file.empty()) {
        return Err{"--server-name " + options.server_name +
                   " needs that name's certificate: --cert FILE --key FILE (see docs/deploy.md)"};
    }
    if (config.port == 0) return Err{"nginx needs a fixed port: --port N (not 0)"};
    if (config.upstream.configured()) {
        for (const auto& [url, what] :
             {std::pair{config.upstream.base_url, "base_url"}, std::pair{config.upstream.auth_url, "auth_url"}}) {
            if (auto t = nginx::target_of(url, what); !t) return Err{t.error()};
        }
    }
    if (auto made = native::ensure_private_dir(options.out_dir); !made) return Err{made.error()};
    ::mkdir((options.out_dir + "/temp").c_str(), 0700);

    NginxInputs inputs;
    inputs.access_log = options.access_log;
    inputs.cert_file = config.cert_file;
    inputs.key_file = config.key_file;
    // The same CAs the helper trusts upstream: system, --upstream-ca, local CA.
    std::string local_ca;
    auto tls = native::ensure_tls_material(config.state_dir);
    if (config.cert_file.empty()) {
        if (!tls) return Err{"certificate: " + tls.error().detail};
        inputs.cert_file = tls->server_cert_path;
        inputs.key_file = tls->server_key_path;
    }
    if (tls) local_ca = tls->ca_cert_path;
    std::string bundle;
    std::vector<std::string> sources = {system_ca_bundle()};
    for (const auto& file : upstream_ca_files(config.upstream, local_ca)) sources.push_back(file);
    for (const auto& file : sources) {
        auto text = native::read_whole_file(file);
        if (!text) {
            if (file == sources.front()) continue;  // no system bundle: the others still count
            return Err{"upstream CA file: " + text.error()};
        }
        bundle += *text;
        if (!bundle.empty() && bundle.back() != '\n') bundle += '\n';
    }
    inputs.upstream_ca_bundle = options.out_dir + "/upstream-ca.pem";
    if (auto ok = write_file(inputs.upstream_ca_bundle, bundle, 0644); !ok) return Err{ok.error()};

    if (options.brotli == "on") {
        inputs.brotli = true;
    } else if (options.brotli == "auto") {
        struct stat st {};
        inputs.brotli = ::stat(std::string(kBrotliStaticModule).c_str(), &st) == 0;
    }
    inputs.run_as_root = ::geteuid() == 0;

    const std::string secret_file = options.out_dir + "/client-secret.conf";
    if (config.upstream.client_type == ClientType::confidential && config.session != SessionMode::bff) {
        inputs.secret_include = secret_file;
        const std::string basic =
            basic_authorization(ConfidentialClient{config.upstream.client_id, config.upstream.client_secret});
        if (basic.find_first_of("\"\\$\r\n") != std::string::npos) return Err{"the client secret cannot be encoded"};
        if (auto ok = write_file(secret_file, "proxy_set_header Authorization \"" + basic + "\";\n", 0600); !ok) {
            return Err{ok.error()};
        }
    } else {
        ::unlink(secret_file.c_str());  // a public client leaves no old secret behind
    }

    const std::string site_file = options.out_dir + "/roomkey.conf";
    if (auto ok = write_file(site_file, nginx_site_config(config, options, inputs), 0644); !ok) return Err{ok.error()};
    if (!options.standalone) return site_file;
    const std::string main_file = options.out_dir + "/nginx.conf";
    if (auto ok = write_file(main_file, nginx_main_config(options, inputs, site_file), 0644); !ok) {
        return Err{ok.error()};
    }
    return main_file;
}

}  // namespace roomkey::helper
