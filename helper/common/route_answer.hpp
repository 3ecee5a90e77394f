// route_answer.hpp: tells a server's error handler the answers its routes
// made from those cpp-httplib made itself. httplib (0.18.7, as 0.11.4) calls
// the error handler for every answer of 400 or more, a route's own included
// (Server::write_response_core). A route's answer must go out with its body
// as it is, empty or not: the chat service answers an expired or invalid
// access token with an empty 401 (chatwork-ruby issue #42), which the helper
// relays and the sandbox imitates, and the page must see that. httplib's own
// answers (400, 413, 414, ...) get a body that says what was refused.
// One mark per connection thread: httplib serves one request at a time on
// it, from the pre-routing handler to the post-routing one.
#pragma once

namespace roomkey::native {

// A route calls it once its answer is set: the error handler leaves it alone.
void mark_route_answer();

// For the error handler: whether the answer at hand is a route's (marked).
bool is_route_answer();

// harden_server's post-routing guard calls it after every answer, so no
// mark outlives its request.
void clear_route_answer();

}  // namespace roomkey::native
