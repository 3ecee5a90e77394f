// app_intents.cpp: every intent to its owner, found by overload: the
// session's (session_control.hpp), the features' (features.hpp), the log's
// (copies.hpp); the App keeps the platform's effects, the language, the
// form's error and the message menu. An intent no owner takes does not
// compile (the static_assert below).
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
            [&](const intent::TryAgain& i) {
                session_.apply(i, now);
                if (!config() && !config_.loading()) fetch_config(now);
            },
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
            // ---- every other intent: the session's, its feature's, or the log's ----
            [&](const auto& i) {
                using I = std::decay_t<decltype(i)>;
                if constexpr (Takes<SessionControl, I>::value) {
                    session_.apply(i, now);
                } else if constexpr (Takes<Features, I>::value) {
                    features_.apply(i, now);
                } else {
                    static_assert(Takes<Copies, I>::value, "an intent without an owner");
                    told(copies_.apply(i, now));
                }
            },
        },
        intent);
    requests_.pump(now);
}

// An action's outcome: its effect for the platform, its words for the user.
void App::told(std::optional<Told> told) {
    if (!told) return;
    if (told->copy) effects_.push_back(effect::CopyText{std::move(*told->copy)});
    if (told->file) effects_.push_back(std::move(*told->file));
    feedback_.set_notice(std::move(told->notice));
}

}  // namespace roomkey::app
