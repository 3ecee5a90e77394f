// launch_url.cpp: reading the address the page was opened at (see launch_url.hpp).
#include "roomkey/launch_url.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "roomkey/url.hpp"

namespace roomkey {

namespace {

struct LaunchPieces {
    std::string_view path;
    std::optional<std::string_view> query;
    std::optional<std::string_view> fragment;
};

// Lenient on purpose: the address bar must lose an answer's fields even when
// the URL would not pass parse_url (validate_callback is the strict one).
LaunchPieces split_launch_url(std::string_view url) {
    LaunchPieces out;
    if (const auto hash = url.find('#'); hash != std::string_view::npos) {
        out.fragment = url.substr(hash + 1);
        url = url.substr(0, hash);
    }
    if (const auto question = url.find('?'); question != std::string_view::npos) {
        out.query = url.substr(question + 1);
        url = url.substr(0, question);
    }
    // "scheme://authority/path": the path starts at the first '/' after the authority.
    if (const auto scheme_end = url.find("://"); scheme_end != std::string_view::npos) {
        const auto path_start = url.find('/', scheme_end + 3);
        url = path_start == std::string_view::npos ? std::string_view() : url.substr(path_start);
    }
    out.path = url;
    return out;
}

// The query's or fragment's fields as the browser's URLSearchParams reads
// them: never fails ('+' is a space, %XX decoded where it can be, kept as
// written where it cannot), each with the piece it was read from.
struct QueryField {
    std::string name;
    std::string value;
    std::string_view piece;
};

std::string lenient_decode(std::string_view text) {
    auto decoded = percent_decode(text, true);
    return decoded ? std::move(*decoded) : std::string(text);
}

std::vector<QueryField> fields_of(std::string_view text) {
    std::vector<QueryField> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = std::min(text.find('&', start), text.size());
        if (end > start) {
            const std::string_view piece = text.substr(start, end - start);
            const auto equals = piece.find('=');
            out.push_back(QueryField{
                lenient_decode(piece.substr(0, equals)),
                equals == std::string_view::npos ? std::string() : lenient_decode(piece.substr(equals + 1)), piece});
        }
        start = end + 1;
    }
    return out;
}

bool is_answer_field(std::string_view name) {
    return std::find(kAuthorizationAnswerFields.begin(), kAuthorizationAnswerFields.end(), name) !=
           kAuthorizationAnswerFields.end();
}

std::optional<BffCallbackError> bff_error_of(std::string_view fragment) {
    std::optional<BffCallbackError> out;
    std::optional<std::string> description;
    for (const QueryField& field : fields_of(fragment)) {
        if (field.name == kBffErrorField && !out) out = BffCallbackError{field.value, {}};
        if (field.name == kBffErrorDescriptionField && !description) description = field.value;
    }
    if (!out) return std::nullopt;
    if (out->code.empty()) out->code = "unknown";
    out->description = description.value_or(std::string());
    return out;
}

}  // namespace

std::string bff_error_address(std::string_view code, std::string_view description) {
    return "/#" + std::string(kBffErrorField) + "=" + percent_encode(code) + "&" +
           std::string(kBffErrorDescriptionField) + "=" + percent_encode(description);
}

LaunchUrl read_launch_url(std::string_view url) {
    const LaunchPieces parts = split_launch_url(url);
    LaunchUrl out;

    std::string kept_query;
    bool named_an_answer_field = false;
    if (parts.query) {
        for (const QueryField& field : fields_of(*parts.query)) {
            if (is_answer_field(field.name)) {
                named_an_answer_field = true;
                continue;
            }
            kept_query += (kept_query.empty() ? "" : "&") + std::string(field.piece);
        }
        if (!named_an_answer_field) kept_query = std::string(*parts.query);  // as written
        // Code, state or error make the redirect an answer; the other fields
        // only come with one.
        if (auto fields = form_decode(*parts.query)) {
            const auto has = [&](std::string_view name) { return form_count(*fields, name) > 0; };
            out.has_code = has("code");
            if (has("code") || has("state") || has("error")) out.holds = LaunchHolds::authorization_answer;
        } else if (named_an_answer_field) {
            out.holds = LaunchHolds::authorization_answer;
        }
    }

    std::optional<std::string_view> kept_fragment = parts.fragment;
    if (parts.fragment) {
        if (auto error = bff_error_of(*parts.fragment)) {
            kept_fragment.reset();
            if (out.holds == LaunchHolds::nothing) {
                out.holds = LaunchHolds::bff_error;
                out.bff_error = std::move(error);
            }
        }
    }

    const bool redirect_path = parts.path == kRedirectPath;
    std::string path = redirect_path || parts.path.empty() ? std::string("/") : std::string(parts.path);
    out.clean_address =
        path + (kept_query.empty() ? "" : "?" + kept_query) + (kept_fragment ? "#" + std::string(*kept_fragment) : "");
    out.address_changes = redirect_path || named_an_answer_field || kept_fragment != parts.fragment;
    return out;
}

}  // namespace roomkey
