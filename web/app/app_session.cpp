// app_session.cpp: the App's side of the session: which sign-in starts, the
// sign-out (everything the session had goes) and the page restored from the
// back/forward cache. The sign-in itself is sign_in.cpp's, the BFF mode's
// bff_panel.cpp's, the session as shown session_shown.cpp's.
#include "app/app.hpp"

namespace roomkey::app {

void App::start_sign_in(const ScopeSet& scopes, Instant now) {
    if (!sign_in_.may_start()) return;
    // In BFF mode the helper makes state and PKCE; a session it holds is
    // replaced by the new one when the callback comes (incremental consent).
    if (config_.bff())
        bff_.sign_in(scopes, now);
    else
        sign_in_.start(scopes, now);
}

void App::sign_out(Instant now) {
    features_.posting.keep_open_posts();  // unless the user discarded them: they wait for this account
    bff_.sign_out(now);  // the helper forgets the tokens (POST /bff/logout)
    perform(requests_.client().sign_out(), now);
    drop_calls(tr("posting.dropped_signed_out"), now);
    // The log keeps its entries, but rewritten masked: the secrets of this
    // session exist nowhere any more.
    const bool copied = trace_.forget_session(redaction());
    sign_in_.forget();
    reset_account_data();
    feedback_.clear();
    // Everything else that belonged to the session: the reveal switch, what
    // was copied, the posts (their texts) and the session's counters. The
    // pacing scheduler and its samples stay: the service still counts those
    // sends in its windows, whoever signs in next (spec 8.1, 8.2).
    effects_.push_back(effect::ForgetClipboard{copied});
    features_.posting.clear();
    requests_.stats().counters = Counters{};
}

// The page came back from the back/forward cache: a sign-in that was at the
// consent screen is abandoned (sign_in.cpp says why); in BFF mode the
// helper's login cookie simply expires.
void App::page_restored(Instant now) {
    if (!bff_.page_restored()) sign_in_.page_restored(now);
}

}  // namespace roomkey::app
