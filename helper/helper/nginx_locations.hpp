// nginx_locations.hpp: the generated nginx configuration's locations, one
// per row of the helper's route table (routes.hpp), written by the row's
// NginxHandling, with the headers and checks the helper applies to it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "helper/nginx_config.hpp"
#include "helper/nginx_syntax.hpp"
#include "helper/options.hpp"
#include "helper/route_policy.hpp"
#include "helper/routes.hpp"

namespace roomkey::helper::nginx {

// What the location writers need besides the rows.
struct LocationContext {
    const HelperConfig& config;
    const NginxOptions& options;
    const NginxInputs& inputs;
    std::optional<Target> api_target;   // {base_url}, when configured
    std::optional<Target> auth_target;  // {auth_url}, when configured
    bool bff = false;
    bool confidential = false;  // nginx attaches the client's Basic header
};

// The security headers, repeated in every location that adds a header of
// its own (nginx inherits add_header only into locations that add none).
void security_header_lines(Writer& w);

// The web build's route classes: they cache only what was found, through a
// map on $status (cache_variable()).
inline constexpr RouteClass kStaticRoutes[] = {RouteClass::page, RouteClass::hashed_asset, RouteClass::asset};
std::string cache_variable(RouteClass route);

// One location per row that exists in the configuration's session mode, in
// the table's order, a blank line between the groups (web build, BFF, token
// proxy, API proxy).
void route_locations(Writer& w, const std::vector<Route>& routes, const LocationContext& context);

}  // namespace roomkey::helper::nginx
