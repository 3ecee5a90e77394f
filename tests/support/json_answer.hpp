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

// The same with another status (an error's JSON body).
inline HttpResponse json_answer(int status, std::string body) {
    return HttpResponse{status, {{"content-type", "application/json"}}, std::move(body)};
}

// The same with any status and the spec 8.1 rate-limit headers (limit 300,
// 290 remaining, reset at 1,700,000,300), as every API answer carries them:
// the App's unit tests answer its requests with it.
inline HttpResponse rated_json_answer(int status, std::string body) {
    HttpResponse r{status, {{"content-type", "application/json"}}, std::move(body)};
    r.headers.set("x-ratelimit-limit", "300");
    r.headers.set("x-ratelimit-remaining", "290");
    r.headers.set("x-ratelimit-reset", "1700000300");
    return r;
}

}  // namespace roomkey::testing
