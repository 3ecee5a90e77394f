// http.hpp: the HTTP values shared/ builds and reads. Transports (emscripten
// fetch in web/, cpp-httplib in helper/) translate these; shared/ does no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roomkey/ascii.hpp"  // iequals: header names compare case-insensitively

namespace roomkey {

enum class Method { Get, Post, Put, Delete };

std::string_view to_string(Method method);

// Header fields in arrival order; names compare case-insensitively.
class Headers {
public:
    using Field = std::pair<std::string, std::string>;

    Headers() = default;
    Headers(std::initializer_list<Field> fields);

    // Replaces every field of that name with one field.
    void set(std::string name, std::string value);
    // Appends a field, keeping existing ones of the same name.
    void add(std::string name, std::string value);
    void remove(std::string_view name);

    // The first field of that name.
    std::optional<std::string> get(std::string_view name) const;
    bool has(std::string_view name) const;

    const std::vector<Field>& fields() const { return fields_; }
    bool empty() const { return fields_.empty(); }

private:
    std::vector<Field> fields_;
};

// The media type of every form body: POST/PUT parameters (spec 4.1.3) and
// token requests (spec 4.3).
inline constexpr std::string_view kFormContentType = "application/x-www-form-urlencoded";
// The one rule for "is this body a form": the Content-Type's media type
// (before any ';' parameter such as charset, spaces and tabs around it
// ignored) is kFormContentType in any case. The token endpoint, the API, the
// helper's proxy and the page's HTTP log all decide with it.
bool is_form_content_type(const std::optional<std::string>& content_type);
bool has_form_content_type(const Headers& headers);

struct HttpRequest {
    Method method = Method::Get;
    std::string url;  // absolute (https://host/path?query) or origin-relative (/api/me)
    Headers headers;
    std::string body;
};

struct HttpResponse {
    int status = 0;
    Headers headers;
    std::string body;
};

}  // namespace roomkey
