// app_console.cpp: the API console as App members (issue 10 item 4): the
// checks before sending (console.hpp), then the call through the one REST
// queue (app_rest.cpp): the same session (one refresh and one retry on 401),
// the same pacer (overall budget, and the per-room limit for room posts) and
// the HTTP log. "Sign in again adding <scope>" (add_scopes) starts a new
// authorization request for the union of the granted scopes and that one.
#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "roomkey/incremental_consent.hpp"

namespace roomkey::app {

using namespace detail;

void App::apply_view(const intent::ConsoleCall& i, Instant now) {
    // An API token's scopes are not known to the client: the service decides.
    std::optional<ScopeSet> granted;
    if (oauth_grant()) {
        const ScopeSet* scopes = granted_scopes();
        granted = scopes ? *scopes : ScopeSet{};
    }
    const Console::Decision decision = console_.prepare(i.method, i.path, i.params, granted, i.confirmed);
    if (decision.verdict == Console::Verdict::send) send_console(decision.call, now);
}

void App::apply_view(const intent::ConfirmConsoleCall&, Instant now) {
    if (auto call = console_.confirm()) send_console(*call, now);
}

void App::apply_view(const intent::CancelConsoleCall&, Instant) {
    console_.cancel();
    message_change_.reset();  // a delete asked from the conversation is not sent
}

void App::send_console(const ConsolePending& call, Instant now) {
    if (!can_send()) {
        console_.on_failure("not signed in: sign in or use an API token first");
        return;
    }
    enqueue_view(ViewCall::console, call.method, call.path, call.params, {}, now,
                 call.room_post && !call.room_id.empty() ? std::optional<std::string>(call.room_id) : std::nullopt);
}

void App::on_console_answer(const std::optional<HttpResponse>& response, const std::string& reason) {
    if (response) {
        on_message_changed(*response);  // issue 27: an edit or delete from the conversation
        console_.on_answer(*response);
    } else {
        console_.on_failure(reason.rfind(kNoAnswer, 0) == 0 ? reason.substr(kNoAnswer.size()) : reason);
    }
}

void App::apply_view(const intent::AddScopes& i, Instant now) {
    if (!config_ || mode_ == Mode::api_token) {
        UserError error;
        error.title = "Cannot add a scope";
        error.message = mode_ == Mode::api_token ? "An API token's scopes are set when it is created, not here."
                                                 : "roomkey-helper's configuration is not loaded yet.";
        error.remedy = mode_ == Mode::api_token ? "Sign in with OAuth to choose scopes." : "Try again in a moment.";
        set_error(std::move(error));
        return;
    }
    const ScopeSet* held = granted_scopes();
    const ScopeSet granted = held ? *held : requested_scopes_;
    auto scopes = scopes_adding(granted, i.scope, config_->client_type);
    if (!scopes) {
        UserError error;
        error.title = "Cannot add " + i.scope;
        error.message = describe(scopes.error(), i.scope);
        set_error(std::move(error));
        return;
    }
    sign_in(*scopes, now);
}

}  // namespace roomkey::app
