// console_call.hpp: the API console's checks of one call against the endpoint
// catalog, before anything is sent: the endpoint exists, every required
// parameter is there, none is unknown, and each value fits its type (ids,
// id lists, allowed values, Unix times). The problems name the parameter and
// say what to enter, all at once so a form can mark every field.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/result.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

struct CallProblem {
    std::string param;    // the parameter's name; "" for the call as a whole
    std::string message;  // what is wrong and what to do
};

struct CheckedCall {
    const EndpointInfo* endpoint = nullptr;
    std::string path;   // concrete, ids filled in ("/rooms/2100/messages")
    FormFields params;  // the non-path parameters given, in catalog order; empty values dropped
};

// `path` is a catalog template ("/rooms/{room_id}/messages", ids then come
// from `params`) or a concrete path ("/rooms/2100/messages"). Parameters
// with an empty value count as not given.
Result<CheckedCall, std::vector<CallProblem>> check_call(Method method, std::string_view path,
                                                         const FormFields& params);

// "force must be one of: 0, 1." and the like, joined with spaces (for one line of text).
std::string describe(const std::vector<CallProblem>& problems);

}  // namespace roomkey
