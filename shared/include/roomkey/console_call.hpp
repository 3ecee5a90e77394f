// console_call.hpp: the API console's checks of one call against the endpoint
// catalog, before anything is sent: the endpoint exists, every required
// parameter is there, none is unknown, and each value fits its type (ids,
// id lists, allowed values, Unix times). The problems name the parameter and
// what is wrong with it, all at once so a form can mark every field.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/result.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

// What is wrong, as a kind and the values its words need: shared/ holds no
// language, the app words each kind from its catalog (web/app/console.hpp).
enum class CallProblemKind : unsigned char {
    not_endpoint,   // call: "GET /rooms/1/secrets" (not in the catalog)
    unknown_param,  // call: the endpoint's template; values: the parameters it takes
    given_twice,    // values: the id the path already holds
    required,       // not given
    file_upload,    // a file part: the console does not send files
    not_id,         // then the kinds of the catalog's value rule (ValueProblem)
    not_id_list,
    not_choice,     // values: the allowed values ("0, 1")
    not_unix_time,
    not_url_code,
    too_short,      // min
    too_long,       // max
    bad_length,     // min, max, length
};
// The catalog's value rule's kinds are ValueProblem's, in its order after
// file_upload: one list, so a kind added there is one here.
constexpr CallProblemKind call_problem(ValueProblem problem) {
    return static_cast<CallProblemKind>(static_cast<unsigned>(CallProblemKind::file_upload) +
                                        static_cast<unsigned>(problem));
}
static_assert(call_problem(ValueProblem::not_id) == CallProblemKind::not_id &&
                  call_problem(ValueProblem::not_id_list) == CallProblemKind::not_id_list &&
                  call_problem(ValueProblem::not_choice) == CallProblemKind::not_choice &&
                  call_problem(ValueProblem::not_unix_time) == CallProblemKind::not_unix_time &&
                  call_problem(ValueProblem::not_url_code) == CallProblemKind::not_url_code &&
                  call_problem(ValueProblem::too_short) == CallProblemKind::too_short &&
                  call_problem(ValueProblem::too_long) == CallProblemKind::too_long &&
                  call_problem(ValueProblem::bad_length) == CallProblemKind::bad_length,
              "CallProblemKind lists ValueProblem's kinds in its order");
// "not_endpoint", "required", ...: the page API's problem `kind`.
std::string_view to_string(CallProblemKind kind);

struct CallProblem {
    CallProblemKind kind = CallProblemKind::required;
    std::string param;   // the parameter's name; "" for the call as a whole
    std::string call;    // not_endpoint, unknown_param: the call
    std::string values;  // unknown_param, given_twice, not_choice: see the kind
    std::size_t min = 0, max = 0, length = 0;  // a length's bounds (characters) and the value's
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

}  // namespace roomkey
