// raw_body.hpp: keeps a request body as the bytes that came, whatever its
// Content-Type. cpp-httplib (0.11.4, and still 0.18.7) looks at two content
// types while it reads a body, before any route runs:
//  - multipart/form-data: parsed into Request::files, Request::body left
//    empty, so a proxy would forward nothing of an upload;
//  - application/x-www-form-urlencoded: refused with 413 over 8,192 bytes
//    (CPPHTTPLIB_FORM_URL_ENCODED_PAYLOAD_MAX_LENGTH), far below roomkey's
//    1 MiB: a long message would never arrive. 0.18.7 is header-only, so the
//    limit could be raised at compile time, but a form under it is also
//    parsed into Request::params, mixed with the query's: the raw body keeps
//    the query's parameters apart.
// httplib decides by a case-sensitive test of the Content-Type value (the
// type at its start, in lower case), so the pre-routing handler hides the
// value for the read and the route gives it back before anything looks at
// the request.
#pragma once

#include <httplib.h>

namespace roomkey::native {

// For a pre-routing handler (after refuse_unsafe_framing): when httplib would
// treat this request's body by its type, changes the first letter of its
// Content-Type to upper case ('m' -> 'M', 'a' -> 'A': the same length, so
// the header section's size is unchanged), so that httplib reads the body
// into Request::body as it is. Remembers this for the thread's current request.
void keep_body_raw(const httplib::Request& request);

// For the first line of a route handler: puts back the Content-Type that
// keep_body_raw() changed for this request; a no-op otherwise (a client that
// itself sent "Multipart/..." keeps its value).
void restore_content_type(const httplib::Request& request);

}  // namespace roomkey::native
