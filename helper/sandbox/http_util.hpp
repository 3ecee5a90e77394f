// http_util.hpp: small helpers the sandbox's handlers share for reading
// requests (target, cookies, form bodies) and writing responses (JSON,
// HTML, redirects). They work on shared/'s HttpRequest/HttpResponse values.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "roomkey/http.hpp"
#include "roomkey/url.hpp"

namespace roomkey::sandbox {

// "/path?query" split; query empty when absent.
struct Target {
    std::string path;
    std::string query;
    bool has_query = false;
};
Target split_target(std::string_view target);

// The value of one cookie from the Cookie header(s).
std::optional<std::string> cookie_value(const Headers& headers, std::string_view name);

// Decodes a form body or query; nullopt when the encoding is broken.
std::optional<FormFields> decode_form(std::string_view text);

// json.dump() that cannot abort on invalid UTF-8 (JSON_NOEXCEPTION is on).
std::string dump_json(const nlohmann::ordered_json& value);

// JSON text as the service writes it (PHP's json_encode defaults): every
// non-ASCII character as \uXXXX (outside the BMP as a surrogate pair) and
// '/' as \/, so the bytes on the wire are ASCII. The official MCP server had
// to undo this (chatwork/chatwork-mcp-server, commit bc8075c); a client that
// only ever saw raw UTF-8 would not notice until it met the service. Both are
// only found inside JSON strings, so the text is rewritten byte by byte;
// invalid UTF-8 becomes \ufffd.
std::string service_json_text(std::string_view json);

// The body is service_json_text: every JSON answer of the sandbox is.
HttpResponse json_response(int status, const nlohmann::ordered_json& body);
// The same for a JSON text shared/ wrote (a record's to_json).
HttpResponse json_text_response(int status, std::string_view json);
// {"errors":[message]} (spec 2.7) with content-type application/json.
HttpResponse api_error(int status, std::string_view message);
HttpResponse html_response(int status, std::string body);
// 303 See Other: after a form POST the browser follows with GET.
HttpResponse redirect_response(std::string location, int status = 303);
HttpResponse no_content();

}  // namespace roomkey::sandbox
