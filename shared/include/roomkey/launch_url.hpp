// launch_url.hpp: what the address the page was opened at holds (an
// authorization answer, roomkey-helper's BFF sign-in error, or neither) and
// the address to show in its place. The one reader of that URL: the app, the
// helper's preconnect and the page's address-bar strip all follow it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace roomkey {

// The redirect URI's path on the app's origin; after sign-in the address is "/".
inline constexpr std::string_view kRedirectPath = "/callback";

// Every query field an authorization server puts on the redirect (spec 4.2,
// 7.1; `iss` from RFC 9207). None of them stays in the address bar.
inline constexpr std::array<std::string_view, 7> kAuthorizationAnswerFields = {
    "code", "state", "error", "error_description", "error_uri", "error_code", "iss"};

// roomkey-helper's BFF callback reports a failed sign-in in the fragment:
// `/#bff_error=<code>&bff_error_description=<text>` (docs/bff.md).
inline constexpr std::string_view kBffErrorField = "bff_error";
inline constexpr std::string_view kBffErrorDescriptionField = "bff_error_description";

// The error the helper's callback put in the fragment: consent refused,
// state mismatch, login expired, token request failed.
struct BffCallbackError {
    std::string code;  // "unknown" when the fragment named none
    std::string description;
};

enum class LaunchHolds {
    nothing,               // an ordinary load: the address stays as it is
    authorization_answer,  // code, state or error in the query: validate_callback reads it
    bff_error,             // the helper's #bff_error: shown once
};

struct LaunchUrl {
    LaunchHolds holds = LaunchHolds::nothing;
    // The answer carries a code: a token request follows at once. False for a
    // query that is not a valid form (validate_callback refuses it).
    bool has_code = false;
    std::optional<BffCallbackError> bff_error;  // set when holds == bff_error
    // Path, query and fragment to show instead, relative to the origin: the
    // answer's fields and a #bff_error fragment gone, the redirect path shown
    // as "/", everything else as it was.
    std::string clean_address;
    bool address_changes = false;  // clean_address differs from what was given
};

// Where the helper's callback sends the browser after a failed sign-in:
// "/#bff_error=<code>&bff_error_description=<text>", percent-encoded. The
// fragment never reaches a server or its log; read_launch_url reads it back.
std::string bff_error_address(std::string_view code, std::string_view description);

// Reads an absolute URL ("https://host/callback?code=..."), a request target
// ("/callback?code=...") or a bare query ("?code=..."). Never fails: a URL it
// cannot make sense of holds nothing and keeps its address, except that a
// query that is not a valid form but names an answer field counts as an
// answer, so validate_callback says why it is refused and the field leaves
// the address bar all the same.
LaunchUrl read_launch_url(std::string_view url);

}  // namespace roomkey
