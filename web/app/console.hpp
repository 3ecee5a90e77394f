// console.hpp: the API console's own state and decisions,
// pure: whether a call may be sent (shared/console_call.hpp's parameter
// checks, the scope the catalog names against the granted ones, and a
// confirmation for destructive calls), and what its answer shows (formatted
// JSON, status, rate-limit headers, the scope a 403 insufficient_scope names).
// ApiConsole (api_console.hpp) sends what prepare() allows through the one REST
// queue, session and pacer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roomkey/console_call.hpp"
#include "roomkey/http.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey::app {

// The page API's console.last: one call, sent or stopped before sending.
struct ConsoleLast {
    std::string method;         // "GET"
    std::string path;           // as asked ("/rooms/{room_id}/messages" or concrete)
    std::optional<int> status;  // nullopt: not sent (or no answer)
    std::string json;           // the answer, formatted (2-space indent); raw text if not JSON
    std::string scope_needed;   // the catalog's scope for the endpoint ("" if unknown)
    std::string scope_granted;  // the granted scopes, space-separated ("" for an API token)
    std::string rate;           // "x-ratelimit-limit 300, remaining 287, reset 1700000300", or ""
    std::optional<Instant> rate_reset;  // x-ratelimit-reset, shown in the user's zone
    std::string error;          // why it was not sent, or what failed; "" after a success
    bool sent = false;
    // Sent as it was although the console's own check found problems (the
    // service's answer is then what a program sending it would get).
    bool anyway = false;
    std::string check;  // what the console's check found ("" when it passed)
};

// A call waiting for the user's confirmation (destructive, spec 5.5 deletes).
struct ConsolePending {
    Method method = Method::Get;
    std::string path;  // concrete
    FormFields params;
    std::string room_id;  // for the per-room posting limit ("" when not a room post)
    bool room_post = false;
};

class Console {
public:
    enum class Verdict { send, problems, missing_scope, confirm };
    struct Decision {
        Verdict verdict = Verdict::problems;
        ConsolePending call;  // Verdict::send: what to send
    };

    // Checks one call. `granted` is nullopt for an API token (its scopes are
    // not known to the client: the service decides). `confirmed`: the user
    // already said yes to a destructive call. `anyway`: after the check has
    // said what is wrong, send the call as it is (an endpoint of the
    // catalog, ids in its path), for the service's own answer.
    Decision prepare(Method method, const std::string& path, const FormFields& params,
                     const std::optional<ScopeSet>& granted, bool confirmed, bool anyway = false);
    // The user confirmed (returns the call to send) or cancelled the waiting call.
    std::optional<ConsolePending> confirm();
    void cancel();

    void on_sent();
    void on_answer(const HttpResponse& response);
    void on_failure(const std::string& reason);
    // Another view got 403 insufficient_scope naming `scope`: offer it too.
    void offer_scope(std::string scope) { missing_scope_ = std::move(scope); }

    const std::optional<ConsoleLast>& last() const { return last_; }
    const std::vector<CallProblem>& problems() const { return problems_; }
    const std::optional<ConsolePending>& pending() const { return pending_; }
    // The last call as asked, ids filled into its path (for "Copy as ...",
    // sent or not); empty path before the first.
    const ConsolePending& asked() const { return asked_; }
    bool sending() const { return sending_; }
    // The scope to offer as "sign in again adding <scope>" ("" for none):
    // the endpoint's when the grant lacks it, or a 403's WWW-Authenticate scope.
    const std::string& missing_scope() const { return missing_scope_; }
    // The mirror's line for the last result ("" before the first).
    std::string announcement() const;

private:
    Decision send_anyway(ConsoleLast last, bool confirmed);
    std::optional<ConsoleLast> last_;
    std::vector<CallProblem> problems_;
    std::optional<ConsolePending> pending_;
    ConsolePending asked_;
    bool sending_ = false;
    std::string missing_scope_;
};

// A problem of the console's check in words of the current language
// ("body is required." / "body は必須です。"); describe: all of them on one line.
std::string problem_words(const CallProblem& problem);
std::string describe(const std::vector<CallProblem>& problems);

// The page API's `console` object: {last:{method, path, status, json,
// scope_needed, scope_granted, rate, error, sent, anyway, check}, problems:[{param,
// kind, message}], missing_scope, confirm:{method, path}|null, sending}. A
// problem's kind is its CallProblemKind ("required") and its message stays
// English whatever the language (scripts read it); `check` and `error` are
// the words the user reads.
std::string console_json(const Console& console);

}  // namespace roomkey::app
