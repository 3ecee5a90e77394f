// app_intents.cpp: every intent to its owner. The features' own go to them
// (features.hpp: posting, the console, the dashboard, the open room, the
// workspace), the log's to its copies (copies.hpp); the App keeps the
// session's (the sign-in, the BFF panel, what the user is told), the
// platform's effects and the message menu. An intent
// no owner takes does not compile (the static_assert below).
#include <type_traits>

#include "app/app.hpp"
#include "app/i18n.hpp"
#include "app/menu_action.hpp"

namespace roomkey::app {

namespace {

template <class... Routes>
struct Overloaded : Routes... {
    using Routes::operator()...;
};
template <class... Routes>
Overloaded(Routes...) -> Overloaded<Routes...>;

// Whether `Owner` takes intent `I` (it has apply(const I&, Instant)).
template <class Owner, class I, class = void>
struct Takes : std::false_type {};
template <class Owner, class I>
struct Takes<Owner, I, std::void_t<decltype(std::declval<Owner&>().apply(std::declval<const I&>(), Instant{}))>>
    : std::true_type {};

}  // namespace

void App::apply(const Intent& intent, Instant now) {
    std::visit(
        Overloaded{
            // ---- the session: sign-in, the BFF panel, sign-out ----
            [&](const intent::SignIn& i) { start_sign_in(i.scopes, now); },
            [&](const intent::SignOut& i) {
                const long open = features_.posting.open_posts();
                if (!feedback_.sign_out_may_go(open, i.discard_posts)) return;
                if (i.discard_posts) features_.posting.discard_open();
                sign_out(now);
                feedback_.set_notice(open > 0 ? tr_n("notice.signed_out_discarded", open) : tr("notice.signed_out"));
            },
            [&](const intent::CancelSignOut&) { feedback_.cancel_sign_out(); },
            [&](const intent::TryAgain& i) {
                const bool retry = i.sign_in && last_error() && last_error()->offers_try_again;
                feedback_.clear();
                sign_in_.try_again();
                if (!config() && !config_.loading()) fetch_config(now);
                // Signed out, the thing to try again is the sign-in: it starts anew.
                if (retry && !client().can_send() && config() && config()->configured)
                    start_sign_in(config()->default_scopes, now);
            },
            // In BFF mode the helper refreshes (POST /bff/refresh {"scope": ...}).
            [&](const intent::RefreshNow&) {
                holder() == CredentialHolder::helper ? bff_.refresh(std::nullopt, now) : sign_in_.refresh_now(now);
            },
            [&](const intent::RefreshScopes& i) {
                holder() == CredentialHolder::helper ? bff_.refresh(i.scopes, now)
                                                     : sign_in_.refresh_with_scopes(i.scopes, now);
            },
            [&](const intent::SetAutoRefresh& i) { sign_in_.set_auto_refresh(i.on, now); },
            [&](const intent::UseApiToken& i) { sign_in_.use_api_token(i.token, now); },
            [&](const intent::AddScopes& i) {
                if (auto scopes = sign_in_.adding(i.scope, session_shown().granted_scopes())) start_sign_in(*scopes, now);
            },
            [&](const intent::PageRestored&) { page_restored(now); },
            [&](const intent::FormError& i) { feedback_.set_form_error(i.message); },
            [&](const intent::SetLanguage& i) { i18n::set_language(i.lang); },
            // ---- the platform's effects, and the message menu's outcomes ----
            [&](const intent::PickFile& i) {
                features_.open_room.ensure_open(i.room_id, now);
                effects_.push_back(effect::PickFile{i.room_id, i.message});
            },
            [&](const intent::SelectText& i) {
                if (features_.open_room.view().room_id() == i.room_id)
                    effects_.push_back(effect::SelectText{i.message_id, i.start, i.end});
            },
            [&](const intent::CopySelection&) { effects_.push_back(effect::CopySelection{}); },
            [&](const intent::MessageMenu& i) {
                if (i.item) {
                    MenuAction done = choose_menu_item(features_, *i.item, now);
                    told(std::move(done.told));
                    return done.remove ? apply(*done.remove, now) : void();
                }
                if (i.message_id.empty()) return features_.message_menu.close();
                const auto& me = features_.dashboard.account().value;
                features_.message_menu.open(features_.open_room.view(), i.room_id, i.message_id,
                                            me ? me->account_id : "");
            },
            // ---- every other intent: its feature's, or the log's ----
            [&](const auto& i) {
                using I = std::decay_t<decltype(i)>;
                if constexpr (Takes<Features, I>::value) {
                    features_.apply(i, now);
                } else {
                    static_assert(Takes<Copies, I>::value, "an intent without an owner");
                    told(copies_.apply(i, now));
                }
            },
        },
        intent);
    pump(now);
}

// An action's outcome: its effect for the platform, its words for the user.
void App::told(std::optional<Told> told) {
    if (!told) return;
    if (told->copy) effects_.push_back(effect::CopyText{std::move(*told->copy)});
    if (told->file) effects_.push_back(std::move(*told->file));
    feedback_.set_notice(std::move(told->notice));
}

}  // namespace roomkey::app
