// session_shown.cpp: the session as the panels and the page API show it
// (see session_shown.hpp).
#include "app/session_shown.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {

// The page API's value (English for scripts); the screen reads its words from
// the catalog's session.* entries.
std::string SessionShown::session_label() const {
    if (client_.holder() == CredentialHolder::api_token) return "api token";  // i18n: not shown (a page API value)
    if (client_.holder() == CredentialHolder::helper)
        return bff_.refreshing() ? "refreshing" : "signed in";  // i18n: not shown (a page API value)
    if (bff_.signing_in()) return "signing in";  // i18n: not shown (a page API value)
    if (sign_in_.exchanging()) return "exchanging";
    switch (client_.session().state()) {
        case SessionState::signed_out:
            return "signed out";  // i18n: not shown (a page API value)
        case SessionState::authorizing:
            return "signing in";  // i18n: not shown (a page API value)
        case SessionState::exchanging:
            return "exchanging";
        case SessionState::signed_in:
            return "signed in";  // i18n: not shown (a page API value)
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
    if (client_.holder() == CredentialHolder::helper) return tr("bff.tokens_helper");
    if (client_.holder() == CredentialHolder::page_session && client_.session().tokens())
        return tr("bff.tokens_page");
    if (client_.holder() == CredentialHolder::api_token) return tr("bff.tokens_api_token");
    return {};
}

}  // namespace roomkey::app
