// www_authenticate.cpp: a recursive-descent reader for
//   WWW-Authenticate = 1#challenge
//   challenge   = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//   auth-param  = token BWS "=" BWS ( token / quoted-string )
//   token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
// (RFC 9110 11.6.1, 11.2, 5.6), and the Bearer challenge writer (RFC 6750 3).
#include "roomkey/www_authenticate.hpp"

namespace roomkey {

std::optional<std::string> Challenge::param(std::string_view name) const {
    for (const auto& p : params) {
        if (iequals(p.name, name)) return p.value;
    }
    return std::nullopt;
}

std::string_view to_string(WwwAuthenticateError error) {
    switch (error) {
        case WwwAuthenticateError::empty: return "empty";
        case WwwAuthenticateError::expected_scheme: return "expected_scheme";
        case WwwAuthenticateError::expected_param: return "expected_param";
        case WwwAuthenticateError::expected_value: return "expected_value";
        case WwwAuthenticateError::unterminated_quoted_string: return "unterminated_quoted_string";
        case WwwAuthenticateError::invalid_character: return "invalid_character";
        case WwwAuthenticateError::duplicate_param: return "duplicate_param";
    }
    return "unknown";
}

namespace detail {

bool is_tchar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    switch (c) {
        case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+':
        case '-': case '.': case '^': case '_': case '`': case '|': case '~': return true;
        default: return false;
    }
}

bool is_token68_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
}

// One pass over a header value; `pos` only moves forward, so parsing is linear.
class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    // Every challenge up to the first that does not parse; `error` says why
    // parsing stopped early (nullopt when the whole value was read).
    std::vector<Challenge> challenges(std::optional<WwwAuthenticateError>& error) {
        std::vector<Challenge> out;
        while (true) {
            skip_list_separators();
            if (at_end()) break;
            auto challenge = read_challenge();
            if (!challenge) {
                error = challenge.error();
                return out;
            }
            out.push_back(std::move(challenge.value()));
        }
        if (out.empty()) error = WwwAuthenticateError::empty;
        return out;
    }

private:
    bool at_end() const { return pos_ >= text_.size(); }
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
    void skip_ows() {
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    }
    // Empty list elements ("a, , b") must be accepted (RFC 9110 5.6.1.2).
    void skip_list_separators() {
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == ',')) ++pos_;
    }
    std::string_view read_token() {
        std::size_t start = pos_;
        while (!at_end() && is_tchar(text_[pos_])) ++pos_;
        return text_.substr(start, pos_ - start);
    }
    // After an element: end of input or a list comma (not consumed).
    bool at_element_end() {
        skip_ows();
        return at_end() || peek() == ',';
    }
    WwwAuthenticateError unexpected() const {
        unsigned char c = static_cast<unsigned char>(peek());
        return (c < 0x20 || c == 0x7f) ? WwwAuthenticateError::invalid_character
                                       : WwwAuthenticateError::expected_param;
    }

    // True when the next list element is "token BWS =" (an auth-param of the
    // current challenge) rather than the scheme of the next challenge.
    bool next_is_param() const {
        std::size_t p = pos_;
        while (p < text_.size() && is_tchar(text_[p])) ++p;
        if (p == pos_) return false;
        while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t')) ++p;
        return p < text_.size() && text_[p] == '=';
    }

    // token68 when the rest of the element is exactly token68 OWS (end or ',').
    bool try_token68(Challenge& challenge) {
        std::size_t p = pos_;
        while (p < text_.size() && is_token68_char(text_[p])) ++p;
        if (p == pos_) return false;
        while (p < text_.size() && text_[p] == '=') ++p;
        std::size_t end = p;
        while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t')) ++p;
        if (p < text_.size() && text_[p] != ',') return false;
        // "name=value" is also a valid token68 prefix only when nothing follows
        // the '='s; "realm=x" is a parameter, "abc=" is token68.
        challenge.token68 = std::string(text_.substr(pos_, end - pos_));
        pos_ = p;
        return true;
    }

    Result<std::string, WwwAuthenticateError> read_quoted_string() {
        ++pos_;  // opening quote
        std::string value;
        while (!at_end()) {
            char c = text_[pos_++];
            unsigned char u = static_cast<unsigned char>(c);
            if (c == '"') return value;
            if (c == '\\') {
                if (at_end()) break;
                char escaped = text_[pos_++];
                unsigned char e = static_cast<unsigned char>(escaped);
                if ((e < 0x20 && escaped != '\t') || e == 0x7f) return Err{WwwAuthenticateError::invalid_character};
                value += escaped;
                continue;
            }
            if ((u < 0x20 && c != '\t') || u == 0x7f) return Err{WwwAuthenticateError::invalid_character};
            value += c;
        }
        return Err{WwwAuthenticateError::unterminated_quoted_string};
    }

    Result<Unit, WwwAuthenticateError> read_param(Challenge& challenge) {
        std::string name(read_token());
        if (name.empty()) return Err{unexpected()};
        skip_ows();
        if (peek() != '=') return Err{WwwAuthenticateError::expected_param};
        ++pos_;
        skip_ows();
        std::string value;
        if (peek() == '"') {
            auto quoted = read_quoted_string();
            if (!quoted) return Err{quoted.error()};
            value = std::move(quoted.value());
        } else {
            value = std::string(read_token());
            if (value.empty()) return Err{WwwAuthenticateError::expected_value};
        }
        if (challenge.param(name)) return Err{WwwAuthenticateError::duplicate_param};
        challenge.params.push_back({std::move(name), std::move(value)});
        return Unit{};
    }

    Result<Challenge, WwwAuthenticateError> read_challenge() {
        Challenge challenge;
        challenge.scheme = std::string(read_token());
        if (challenge.scheme.empty()) {
            unsigned char c = static_cast<unsigned char>(peek());
            return Err{(c < 0x20 || c == 0x7f) ? WwwAuthenticateError::invalid_character
                                               : WwwAuthenticateError::expected_scheme};
        }
        // A scheme alone ends at the end of input or a comma.
        if (at_end() || peek() == ',') return challenge;
        if (peek() != ' ') {
            // BWS before a comma is tolerated; anything else glued to the scheme is not.
            if (at_element_end()) return challenge;
            return Err{unexpected()};
        }
        skip_ows();
        if (at_end() || peek() == ',') return challenge;
        if (!next_is_param()) {
            if (try_token68(challenge)) return challenge;
            return Err{unexpected()};
        }
        // "abc==" looks like a parameter start but is token68: try that first
        // when the element is nothing but token68.
        if (try_token68(challenge)) return challenge;
        while (true) {
            auto param = read_param(challenge);
            if (!param) return Err{param.error()};
            if (!at_element_end()) return Err{unexpected()};
            if (at_end()) return challenge;
            // Past the comma: another parameter, or the next challenge's scheme.
            std::size_t comma = pos_;
            skip_list_separators();
            if (at_end() || !next_is_param()) {
                pos_ = comma;
                return challenge;
            }
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace detail

Result<std::vector<Challenge>, WwwAuthenticateError> parse_www_authenticate(std::string_view value) {
    std::optional<WwwAuthenticateError> error;
    auto challenges = detail::Reader(value).challenges(error);
    if (error) return Err{*error};
    return challenges;
}

std::optional<BearerChallenge> find_bearer_challenge(const Headers& headers) {
    for (const auto& field : headers.fields()) {
        if (!iequals(field.first, "WWW-Authenticate")) continue;
        // A malformed challenge after the Bearer one (another scheme's, say)
        // must not hide it: use every challenge read before the fault.
        std::optional<WwwAuthenticateError> ignored;
        const auto challenges = detail::Reader(field.second).challenges(ignored);
        for (const auto& challenge : challenges) {
            if (!iequals(challenge.scheme, "Bearer")) continue;
            BearerChallenge bearer;
            bearer.realm = challenge.param("realm");
            bearer.error = challenge.param("error");
            bearer.error_description = challenge.param("error_description");
            bearer.scope = challenge.param("scope");
            return bearer;
        }
    }
    return std::nullopt;
}

bool is_invalid_token(const HttpResponse& response) {
    if (response.status != 401) return false;
    auto bearer = find_bearer_challenge(response.headers);
    return bearer && bearer->error == "invalid_token";
}

namespace {

void append_param(std::string& out, std::string_view name, std::string_view value) {
    out += out.size() == 6 ? " " : ", ";  // right after "Bearer"
    out += name;
    out += "=\"";
    for (char c : value) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if ((u < 0x20 && c != '\t') || u == 0x7f) {
            out += ' ';
        } else {
            out += c;
        }
    }
    out += '"';
}

}  // namespace

std::string format_bearer_challenge(std::string_view error, std::string_view description,
                                    std::string_view scope) {
    std::string out = "Bearer";
    append_param(out, "error", error);
    if (!description.empty()) append_param(out, "error_description", description);
    if (!scope.empty()) append_param(out, "scope", scope);
    return out;
}

std::string format_bearer_challenge(const BearerChallenge& challenge) {
    std::string out = "Bearer";
    if (challenge.realm) append_param(out, "realm", *challenge.realm);
    if (challenge.error) append_param(out, "error", *challenge.error);
    if (challenge.error_description) append_param(out, "error_description", *challenge.error_description);
    if (challenge.scope) append_param(out, "scope", *challenge.scope);
    return out;
}

}  // namespace roomkey
