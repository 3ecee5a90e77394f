// json_answer.hpp: the service's plain "200, application/json, this body"
// answer, which the readers' unit tests feed to what they test.
#pragma once

#include <string>
#include <utility>

#include "roomkey/http.hpp"

namespace roomkey::testing {

inline HttpResponse json_answer(std::string body) {
    return HttpResponse{200, {{"content-type", "application/json"}}, std::move(body)};
}

}  // namespace roomkey::testing
