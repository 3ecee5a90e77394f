// nginx_config.hpp: `roomkey-helper nginx-config`: an nginx configuration
// that gives the app the helper's guarantees (headers, limits, Host/Origin
// checks, the API allowlist, upstream TLS, secret-free logs), generated from
// the values the helper itself runs on (its route table routes.hpp,
// policy.hpp, route_policy.hpp, shared/'s endpoint table,
// Proxy::public_config_json), never a copy.
#pragma once

#include <string>
#include <vector>

#include "helper/options.hpp"
#include "helper/routes.hpp"
#include "roomkey/http.hpp"
#include "roomkey/result.hpp"

namespace roomkey::helper {

// One allowlisted API path: a PCRE anchored on the whole request path
// ("^/api(?<roomkey_api_path>/rooms/[1-9][0-9]{0,19}/messages)$", the group
// is the upstream path)
// and the methods shared/'s endpoint table offers on it.
struct ApiLocation {
    std::string path_template;  // "/rooms/{room_id}/messages"
    std::string regex;
    std::vector<Method> methods;
    // The methods of the template's endpoints that take a file part
    // (request_body_rules.hpp): their location takes the upload's body limit
    // and multipart/form-data. Empty for every other template.
    std::vector<Method> upload_methods;
};

// Every endpoint of shared/'s endpoint catalog, grouped by path template, in
// catalog order.
std::vector<ApiLocation> api_locations();

// The PCRE an id segment of a template becomes: exactly is_resource_id().
inline constexpr std::string_view kResourceIdRegex = "[1-9][0-9]{0,19}";

// What the generator needs beyond HelperConfig + NginxOptions: paths it has
// resolved or written (certificates, the CA bundle, the secret include).
struct NginxInputs {
    std::string cert_file;
    std::string key_file;
    std::string upstream_ca_bundle;  // PEM: system CAs + --upstream-ca + local CA
    std::string secret_include;      // confidential clients: file with the Basic header (0600)
    std::string access_log;
    bool brotli = false;       // brotli_static (module present)
    bool run_as_root = false;  // standalone: workers as nobody
};

// The http-context file (maps, upstreams, one server block): include it from
// nginx's http {} (Debian: /etc/nginx/conf.d/roomkey.conf).
// Its locations are the rows of `routes` (the helper's own unless a test
// gives others).
std::string nginx_site_config(const HelperConfig& config, const NginxOptions& options, const NginxInputs& inputs,
                              const std::vector<Route>& routes = helper_routes());

// A complete nginx.conf for an unprivileged nginx (daemon off, pid, temp
// paths under options.out_dir) that includes `site_file`.
std::string nginx_main_config(const NginxOptions& options, const NginxInputs& inputs, const std::string& site_file);

// Where the brotli static module lives when installed (Debian's path).
inline constexpr std::string_view kBrotliStaticModule = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

// Writes options.out_dir/{roomkey.conf, upstream-ca.pem[, client-secret.conf
// (0600)][, nginx.conf]} and makes the local certificate when no --cert was
// given. Returns the file nginx should be started with (-c) or include.
Result<std::string, std::string> write_nginx_config(const HelperConfig& config, const NginxOptions& options);

}  // namespace roomkey::helper
