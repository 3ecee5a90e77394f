// feature.hpp: what a feature of the app (posting, the console, contacts,
// ...) owns and what it may ask of the App that routes for it. A feature
// keeps its own state and its own requests' context; it hands requests,
// built once and without credentials, to the one REST client through the
// FeatureHost, and gets each answer back by its tag (on_answer).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "app/i18n.hpp"
#include "app/post_outcome.hpp"
#include "app/user_errors.hpp"
#include "app/words.hpp"
#include "roomkey/api.hpp"
#include "roomkey/http.hpp"
#include "roomkey/rest_client.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

template <class T>
struct Loadable {
    std::optional<T> value;
    bool loading = false;
    std::string error;  // the last failure, "" after a success
    std::string note;   // why it is still loading (e.g. waiting out a 429), "" otherwise
    std::optional<Instant> loaded_at;
};

// What set the error shown, so the same action's success clears it.
enum class ErrorSource { other, config, account, status, rooms, posting, helper, room, my_tasks, contacts };

// A request's end, as its owner reads it.
struct Answer {
    std::optional<HttpResponse> response;
    // No response: why ("no answer: ...", "not sent: ...", "the request could not be built: ...").
    std::string reason;
    std::optional<TransportFailure> failure;  // it went and got no HTTP answer: how that failed
};

// A request handed to the REST client.
struct Outgoing {
    std::string label;                                              // what the HTTP log calls it
    Result<HttpRequest, std::string> request = Err{std::string()};  // or the whole reason it could not be built
    RestOptions options;
    bool upload_progress = false;  // a file upload: the platform reports the body's progress
};

// Wraps a builder's result as an Outgoing request: the failure reason says
// "the <what> could not be built: <error>" (the error's identifier).
template <class E>
Result<HttpRequest, std::string> built(Result<HttpRequest, E> request, std::string_view what = {}) {
    if (request) return std::move(*request);
    std::string error(to_string(request.error()));
    if (what.empty()) return Err{tr("errors.not_built", {{"error", std::move(error)}})};
    return Err{tr("errors.not_built_what", {{"what", std::string(what)}, {"error", std::move(error)}})};
}

class Feature {
public:
    // The request `tag` ended: an HTTP answer, or why there is none.
    virtual void on_answer(RequestTag tag, const Answer& answer, Instant now) = 0;
    // The request went (again).
    virtual void on_sent(RequestTag tag, Instant now) {
        (void)tag;
        (void)now;
    }
    // A 429 it waits out before going again (spec 7.3).
    virtual void on_rate_limited(const rest::RateLimited& waiting, Instant now) {
        (void)waiting;
        (void)now;
    }

protected:
    ~Feature() = default;
};

class FeatureHost {
public:
    // A tag for a request not submitted yet (a post's id is its tag).
    virtual RequestTag new_tag() = 0;
    // Queues the request under `tag` (new_tag() when 0); its answer goes to
    // `owner`. A request that could not be built is answered at once.
    virtual RequestTag submit(Feature& owner, Outgoing outgoing, Instant now, RequestTag tag = 0) = 0;
    // The REST client still holds the request (queued, in flight or keeping its room's turn).
    virtual bool pending(RequestTag tag) const = 0;
    virtual bool in_flight(RequestTag tag) const = 0;
    // A request kept in its room's order: done with it (release), or again (resend).
    virtual void release(RequestTag tag) = 0;
    virtual void resend(RequestTag tag) = 0;
    // Drops a request not on the wire; false when it is.
    virtual bool cancel(RequestTag tag) = 0;
    virtual ApiConfig api_config() const = 0;
    virtual const PacingScheduler& scheduler() const = 0;

    virtual void set_error(UserError error, ErrorSource source) = 0;
    // The action `source` stands for succeeded: its error, if shown, goes.
    virtual void clear_error(ErrorSource source) = 0;
    virtual void notice(std::string text) = 0;
    // A notice kept as words (rendered when read) where the host can.
    virtual void notice_words(Words words) { notice(words.text()); }
    // A call was refused for want of `scope`: the console offers to add it.
    virtual void offer_scope(std::string scope) = 0;
    // Someone holds credentials that REST requests may go with now.
    virtual bool can_send() const = 0;
    // The grant's scopes; nullopt for an API token (the service decides).
    virtual std::optional<ScopeSet> granted_scopes() const = 0;
    // Open a download_url (an attachment: the browser saves it, the page stays).
    virtual void open_url(std::string url) = 0;

protected:
    ~FeatureHost() = default;
};

}  // namespace roomkey::app
