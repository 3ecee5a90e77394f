// request_snippets.hpp: one HTTP request written as code a developer can
// take elsewhere: a curl command, JavaScript fetch, Python requests. Pure
// text generation: the caller builds the request (for the service itself
// with api_request(), which takes the endpoint catalog's rules; for the
// helper as the app sent it) and masks what it must not show.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "roomkey/http.hpp"

namespace roomkey {

// What "Copy as ..." offers. curl_helper is the request as the page sent it
// (through roomkey-helper's /api proxy, its anti-CSRF header included); the
// others are the same call against the service itself.
enum class SnippetFormat { curl_service, curl_helper, fetch, python };

// "curl_service", "curl_helper", "fetch", "python": the page API's names.
std::string_view to_string(SnippetFormat format);
std::optional<SnippetFormat> parse_snippet_format(std::string_view name);
// What a menu shows: "curl (service)", "curl (via helper)", "JavaScript fetch", "Python requests".
std::string_view snippet_label(SnippetFormat format);
inline constexpr SnippetFormat kSnippetFormats[] = {SnippetFormat::curl_service, SnippetFormat::curl_helper,
                                                    SnippetFormat::fetch, SnippetFormat::python};

// `request` in the format's language: its URL must be absolute. A form
// body (Content-Type application/x-www-form-urlencoded) is written field by
// field, decoded (curl --data-urlencode, URLSearchParams, a list of pairs)
// so that text reads as typed; any other body, or a field no shell word can
// carry (a NUL byte, invalid UTF-8), is written as the raw bytes sent.
std::string write_snippet(SnippetFormat format, const HttpRequest& request);

// A single-quoted POSIX shell word that gives back exactly `text` (any
// byte but NUL, which no argument can hold).
std::string shell_quote(std::string_view text);

}  // namespace roomkey
