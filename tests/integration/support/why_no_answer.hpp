// why_no_answer.hpp: the message of a failed ASSERT_TRUE(res) on a cpp-httplib
// result, which holds no response when the request got no HTTP answer
// (refused, reset, timed out, TLS handshake failed): httplib's reason.
#pragma once

#include <httplib.h>

#include <string>

namespace roomkey {

inline std::string why_no_answer(const httplib::Result& res) {
    return "no HTTP answer: " + httplib::to_string(res.error());
}

}  // namespace roomkey
