// user_errors.hpp: turns shared/'s typed errors into what the user reads: a
// title, plain words, the service's code (spec 7.1 numbers, spec 2.4 error
// identifiers, HTTP statuses) and the remedy from shared/'s catalogs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "roomkey/authorization.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/http.hpp"
#include "roomkey/session.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

// An error in plain words, with the service's code when there is one.
struct UserError {
    std::string title;    // "Sign-in denied"
    std::string message;  // what happened
    std::string code;     // "3001 access_denied", "invalid_grant", "HTTP 403", or ""
    std::string remedy;   // what the user can do
    // What the ordinary screen says in place of `message` when that holds
    // the helper's or the wire's words ("connect_failed"); "" = `message`.
    // The page API and the developer view keep `message` and `code`.
    std::string plain;
    bool offers_try_again = false;
    const std::string& shown() const { return plain.empty() ? message : plain; }
    // The box's words in one line: what failed, what happened, what to do.
    std::string said() const;
};

// "3001 access_denied"
std::string code_label(AuthorizationErrorCode code);

// The redirect back from the consent screen was refused (spec 4.2, 7.1).
UserError callback_error(const CallbackError& error);
// build_authorization_url refused the request we were about to make.
UserError authorization_request_error(const AuthorizationRequestError& error);
// A token error's remedy (spec 2.4, 7.2, docs/errors.md) by its identifier
// ("invalid_grant"); a generic one for an identifier RFC 6749 does not define.
std::string token_error_remedy(std::string_view identifier);
// The session ended; `token_answer` is the token endpoint's answer, if any.
UserError session_end_error(const SessionEnd& end, const std::optional<HttpResponse>& token_answer);
// A REST call answered with a non-2xx status (spec 7.3).
UserError api_error(std::string_view what, const HttpResponse& response, std::optional<Endpoint> endpoint);
// The validated callback waited longer than the code lives (spec 2.2, 8.3:
// 1 minute), e.g. for the helper's configuration: it is not exchanged.
UserError code_expired_error(Millis waited);
// No HTTP answer at all.
UserError transport_error(std::string_view what, std::string_view reason);
// A 2xx whose body could not be read (cut off, not JSON, a field of the
// wrong type): `detail` is shared/'s ApiReadError text.
UserError unreadable_answer_error(std::string_view what, std::string_view detail);

}  // namespace roomkey::app
