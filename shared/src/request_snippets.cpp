// request_snippets.cpp: curl, fetch and Python written from one table of
// each language's pieces (see request_snippets.hpp).
#include "roomkey/request_snippets.hpp"

#include <nlohmann/json.hpp>

#include "roomkey/url.hpp"

namespace roomkey {

namespace {

enum class Quote { shell, literal };

// One language's pieces; "$1", "$2" are filled with quoted words ("%1" as
// it is: a method needs no quotes in a shell). A form
// body is written field by field when `fields` is set.
struct Syntax {
    SnippetFormat format;
    std::string_view name;
    std::string_view label;
    Quote quote;
    std::string_view start;   // $1 method, $2 URL
    std::string_view header;  // $1 name, $2 value, $3 "name: value"
    std::string_view headers_end;
    std::string_view fields_start;
    std::string_view field;  // $1 name, $2 value, $3 "name=value"
    std::string_view fields_end;
    std::string_view raw;  // $1 body
    std::string_view end;
    bool fields;
};

constexpr Syntax kCurl{SnippetFormat::curl_service, "curl_service", "curl (service)", Quote::shell, "curl -X %1 $2",
                       " \\\n  -H $3", "", "", " \\\n  --data-urlencode $3", "", " \\\n  --data-raw $1", "", true};

constexpr Syntax kSyntax[] = {
    kCurl,
    {SnippetFormat::curl_helper, "curl_helper", "curl (via helper)", Quote::shell, kCurl.start, kCurl.header, "", "",
     "", "", kCurl.raw, "", false},
    {SnippetFormat::fetch, "fetch", "JavaScript fetch", Quote::literal,
     "const response = await fetch($2, {\n  method: $1,\n  headers: {\n", "    $1: $2,\n", "  },\n",
     "  body: new URLSearchParams([\n", "    [$1, $2],\n", "  ]),\n", "  body: $1,\n",
     "});\nconsole.log(response.status, await response.text());\n", true},
    {SnippetFormat::python, "python", "Python requests", Quote::literal,
     "import requests\n\nresponse = requests.request(\n    $1,\n    $2,\n    headers={\n", "        $1: $2,\n",
     "    },\n", "    data=[\n", "        ($1, $2),\n", "    ],\n", "    data=$1.encode(),\n",
     ")\nprint(response.status_code, response.text)\n", true},
};

const Syntax& syntax(SnippetFormat format) {
    for (const Syntax& s : kSyntax) {
        if (s.format == format) return s;
    }
    return kSyntax[0];
}

// A JSON string is a string literal JavaScript and Python both read as the
// same text (\", \\, \n, \u001f; other characters as they are).
std::string json_quote(std::string_view text) {
    return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string fill(std::string_view pattern, Quote quote, std::initializer_list<std::string_view> words) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const std::size_t n = i + 1 < pattern.size() ? static_cast<std::size_t>(pattern[i + 1] - '1') : words.size();
        if ((pattern[i] == '$' || pattern[i] == '%') && n < words.size()) {
            const std::string_view word = words.begin()[n];
            out += pattern[i] == '%' ? std::string(word) : quote == Quote::shell ? shell_quote(word) : json_quote(word);
            ++i;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

// Text a shell word and a string literal carry as it is: UTF-8, no NUL.
bool is_plain_text(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (c == 0 || n == 0 || i + n > text.size()) return false;
        for (std::size_t k = 1; k < n; ++k) {
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
        }
        i += n;
    }
    return true;
}

// The fields a form body decodes to, when each can be written as text.
std::optional<FormFields> plain_fields(const HttpRequest& request) {
    if (!has_form_content_type(request.headers)) return std::nullopt;
    auto fields = form_decode(request.body);
    if (!fields) return std::nullopt;
    for (const auto& [name, value] : *fields) {
        // curl reads "name@file" as a file, and "=" ends the name.
        if (!is_plain_text(name) || !is_plain_text(value) || name.find_first_of("@=") != std::string::npos) {
            return std::nullopt;
        }
    }
    return std::move(*fields);
}

}  // namespace

std::string_view to_string(SnippetFormat format) { return syntax(format).name; }

std::string_view snippet_label(SnippetFormat format) { return syntax(format).label; }

std::optional<SnippetFormat> parse_snippet_format(std::string_view name) {
    for (const Syntax& s : kSyntax) {
        if (s.name == name) return s.format;
    }
    return std::nullopt;
}

std::string write_snippet(SnippetFormat format, const HttpRequest& request) {
    const Syntax& s = syntax(format);
    std::string out = fill(s.start, s.quote, {to_string(request.method), request.url});
    for (const auto& [name, value] : request.headers.fields()) {
        out += fill(s.header, s.quote, {name, value, name + ": " + value});
    }
    out += s.headers_end;
    if (!request.body.empty()) {
        const auto fields = s.fields ? plain_fields(request) : std::nullopt;
        if (fields) {
            out += s.fields_start;
            for (const auto& [name, value] : *fields) out += fill(s.field, s.quote, {name, value, name + "=" + value});
            out += s.fields_end;
        } else {
            out += fill(s.raw, s.quote, {request.body});
        }
    }
    return out + std::string(s.end);
}

std::string shell_quote(std::string_view text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c;
        }
    }
    out += "'";
    return out;
}

}  // namespace roomkey
