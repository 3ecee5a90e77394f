// endpoint_catalog.hpp: one table of every REST endpoint shared/ knows
// (Chatwork-style API v2; spec 4.4-4.8, 5.5, 8.2): method, path template,
// parameters, the scope it needs, whether it counts toward the per-room posting
// limit and whether it destroys data. match_endpoint() reads the templates of
// this table, required_scope() its scopes and is_room_post() its flags, so the
// allowlist, the scope checks, the pacer and the API console cannot disagree.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/endpoints.hpp"
#include "roomkey/http.hpp"

namespace roomkey {

// Where a parameter travels: a path segment ({room_id}), the query string
// (GET, DELETE) or the application/x-www-form-urlencoded body (POST, PUT).
enum class ParamWhere { path, query, form };

enum class ParamType {
    id,         // is_resource_id(): 1-20 digits, no leading zero
    id_list,    // comma-separated ids ("101,102"), as members_admin_ids and to_ids
    text,       // any UTF-8 text (message body, room name, ...)
    choice,     // one of EndpointParam::allowed ("0|1", "open|done")
    unix_time,  // seconds since 1970, digits ("0" allowed)
    file,       // a multipart file part (POST /rooms/{room_id}/files); not a form field
    url_code,   // an invitation link's path part: [A-Za-z0-9_-] only (RAML: link_code, code)
};

std::string_view to_string(ParamWhere where);
std::string_view to_string(ParamType type);

struct EndpointParam {
    std::string_view name;
    ParamWhere where;
    ParamType type;
    bool required;
    std::string_view allowed;  // choice only: the values, '|'-separated ("open|done"); "" otherwise
    // Length in characters (Unicode code points) for text and url_code; 0 =
    // no bound. From the service's RAML (minLength / maxLength).
    std::size_t min_chars = 0;
    std::size_t max_chars = 0;
};

// A constexpr view of a parameter array (C++17 has no std::span).
struct EndpointParams {
    const EndpointParam* first = nullptr;
    std::size_t count = 0;
    constexpr const EndpointParam* begin() const { return first; }
    constexpr const EndpointParam* end() const { return first + count; }
    constexpr std::size_t size() const { return count; }
    constexpr bool empty() const { return count == 0; }
};

struct EndpointInfo {
    Endpoint endpoint;
    Method method;
    // Relative to {base_url}; "{name}" segments are ids named like their
    // path parameters: {room_id} and at most one item id after it.
    std::string_view path;
    EndpointParams params;   // path parameters first, in path order
    std::string_view scope;  // the spec 5.5 leaf scope it needs (aggregates grant it via scopes.hpp)
    bool room_post;          // counted by the per-room posting limit (spec 8.2)
    bool destructive;        // deletes, or replaces in full, data the API cannot give back
};

// Every endpoint, in the order of kAllEndpoints (one entry each).
struct EndpointCatalog {
    const EndpointInfo* first = nullptr;
    std::size_t count = 0;
    constexpr const EndpointInfo* begin() const { return first; }
    constexpr const EndpointInfo* end() const { return first + count; }
    constexpr std::size_t size() const { return count; }
};
EndpointCatalog endpoint_catalog();

// The entry of an endpoint (never null for a valid Endpoint value).
const EndpointInfo& endpoint_info(Endpoint endpoint);

// The entry with this method and template ("GET", "/rooms/{room_id}"); nullptr if none.
const EndpointInfo* find_endpoint(Method method, std::string_view path_template);

// The parameter of that name, nullptr if the endpoint takes none by that name.
const EndpointParam* find_param(const EndpointInfo& info, std::string_view name);

// Whether the endpoint's body is multipart/form-data: it has a file part
// (ParamType::file; POST /rooms/{room_id}/files, RAML "multipart/form-data:
// formParameters"). Every other POST and PUT body is
// application/x-www-form-urlencoded (spec 4.1.3).
bool takes_file_part(const EndpointInfo& endpoint);

// True when `value` is one of a choice parameter's allowed values.
bool is_allowed_value(const EndpointParam& param, std::string_view value);

// What is wrong with a value for its parameter. The one value rule: the API
// console checks a call with it before sending (and words it in the user's
// language), and the sandbox refuses what it refuses (400), as the service does.
enum class ValueProblem : unsigned char {
    none,
    not_id,         // 1 to 20 digits without a leading zero
    not_id_list,    // ids separated by commas
    not_choice,     // one of EndpointParam::allowed
    not_unix_time,  // digits
    not_url_code,   // letters A-Z a-z, digits, '_' and '-'
    too_short,      // fewer than min_chars (no max_chars)
    too_long,       // more than max_chars (no min_chars)
    bad_length,     // outside min_chars..max_chars
};
ValueProblem value_problem(const EndpointParam& param, std::string_view value);

// The same in the service's English for the sandbox's 400 answer: empty when
// `value` fits, else what is wrong and what to enter ("name must be 1 to 255
// characters (it has 256).").
std::string param_value_problem(const EndpointParam& param, std::string_view value);

// A choice parameter's allowed values as a list to read ("none, date, time").
std::string allowed_list(std::string_view allowed);

// The number of Unicode code points of UTF-8 text (continuation bytes are
// not counted; invalid bytes count as one each).
std::size_t utf8_length(std::string_view text);

// The ids a concrete path fills a template with.
struct TemplateIds {
    std::string room_id;  // for {room_id}
    std::string item_id;  // for the other {..._id}, if any
};

// Matches a concrete path ("/rooms/12/tasks/3/status") against one template:
// literal segments compare exactly, each "{name}" segment must pass
// is_resource_id. Anything else ("//", a trailing '/', "..", "%2e", a query)
// fails. The one path rule match_endpoint() uses.
std::optional<TemplateIds> match_path_template(std::string_view path_template, std::string_view path);

// Replaces each "{name}" of a template with value(name) (values are not
// checked here; the console checks them against the catalog first).
std::string fill_path_template(std::string_view path_template,
                               const std::function<std::string(std::string_view name)>& value);

}  // namespace roomkey
