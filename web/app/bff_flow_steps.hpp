// bff_flow_steps.hpp: the steps of a sign-in through roomkey-helper's BFF
// mode as HTTP log entries (the page itself saw none of them), the counterpart of
// flow_steps.hpp for the browser mode: the navigation to /bff/login, the
// consent screen's redirect back to the helper's callback, and each token
// request the helper made for the session, as the helper reports them
// (masked by the helper; masked again by the log). The page sees none of
// state, PKCE, code or tokens in this mode: the notes say who made and
// checked them. Pure: the BFF panel adds the entries (bff_panel.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/bff_session.hpp"
#include "app/flow_steps.hpp"

namespace roomkey::app {

// The page's navigation to `login_url` (/bff/login?scope=...).
FlowStep bff_login_step(std::string login_url);

// The consent screen's redirect to the helper's callback (`redirect_uri`):
// accepted (nullopt), or the error the helper sent the page in its fragment.
FlowStep bff_callback_step(std::string redirect_uri, const std::optional<BffCallbackError>& refused);

// A token request the helper made ("POST https://host/token ..." as it
// reported it): the method and URL of its request line, the rest decoded.
FlowStep helper_token_step(const BffTokenRequestReport& request);

}  // namespace roomkey::app
