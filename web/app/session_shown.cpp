// session_shown.cpp: the session as the panels and the page API show it
// (see session_shown.hpp).
#include "app/session_shown.hpp"

namespace roomkey::app {

std::string SessionShown::session_label() const {
    if (client_.holder() == CredentialHolder::api_token) return "api token";
    if (client_.holder() == CredentialHolder::helper)
        return bff_.refreshing() ? "refreshing" : "signed in";  // the helper holds the tokens
    if (bff_.signing_in()) return "signing in";
    if (sign_in_.exchanging()) return "exchanging";
    switch (client_.session().state()) {
        case SessionState::signed_out:
            return "signed out";
        case SessionState::authorizing:
            return "signing in";
        case SessionState::exchanging:
            return "exchanging";
        case SessionState::signed_in:
            return "signed in";
        case SessionState::refreshing:
            return "refreshing";
        case SessionState::expired:
            return "expired";
        case SessionState::failed:
            return "failed";
    }
    return "unknown";
}

bool SessionShown::scopes_differ() const {
    const ScopeSet* granted = granted_scopes();
    if (!granted || sign_in_.requested_scopes().empty()) return false;
    return expand(*granted) != expand(sign_in_.requested_scopes());
}

std::optional<Instant> SessionShown::access_expires_at() const {
    if (client_.holder() == CredentialHolder::helper) return bff_.view().access_expires_at();
    const auto& tokens = client_.session().tokens();
    if (!tokens) return std::nullopt;
    return tokens->access_expires_at;
}

const ScopeSet* SessionShown::granted_scopes() const {
    if (client_.holder() == CredentialHolder::helper) return &bff_.view().scope();
    if (client_.holder() == CredentialHolder::page_session && client_.session().tokens())
        return &client_.session().tokens()->scope;
    return nullptr;
}

std::string SessionShown::tokens_held_by() const {
    if (client_.holder() == CredentialHolder::helper) return "held by roomkey-helper (BFF), never in this page";
    if (client_.holder() == CredentialHolder::page_session && client_.session().tokens())
        return "in this page's memory (public client)";
    if (client_.holder() == CredentialHolder::api_token) return "the API token is in this page's memory";
    return {};
}

}  // namespace roomkey::app
