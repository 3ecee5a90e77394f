// requests.hpp: the features' way to the one REST client
// (shared/rest_client.hpp), the FeatureHost they are built with. A
// feature's request goes to the client under a tag, out to the transport
// with its log label when the client lets it, and its end back to the
// feature by the tag (wire.hpp), never through a switch on what it was. What
// a client step says about the session (token requests, the refresh time,
// the pending record, tokens forgotten) and a BFF session's end go to the
// App (RequestsHost); the counters of what went are here (rest_stats.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/config_load.hpp"
#include "app/effects.hpp"
#include "app/feature.hpp"
#include "app/feedback.hpp"
#include "app/helper_watch.hpp"
#include "app/rest_stats.hpp"
#include "app/wire.hpp"
#include "roomkey/rest_client.hpp"

namespace roomkey::app {

class RequestsHost {
public:
    // The session's part of a client step (the step's effects on the
    // session, the pending record to keep, an event the table refused).
    virtual void session_step(RestStep& step, Instant now) = 0;
    // A REST answer says the helper's session ended (BFF): the session's
    // end, not the feature's answer.
    virtual bool session_ended(const HttpResponse& response, Instant now) = 0;
    // A call was refused for want of `scope`: the console offers to add it.
    virtual void offer_scope(std::string scope) = 0;
    virtual std::optional<ScopeSet> granted_scopes() const = 0;

protected:
    ~RequestsHost() = default;
};

class Requests final : public FeatureHost {
public:
    Requests(RequestsHost& host, Wire& wire, const ConfigLoad& config, Feedback& feedback, const HelperWatch& helper,
             std::vector<Effect>& effects);

    RestClient& client() { return client_; }
    const RestClient& client() const { return client_; }
    RestStats& stats() { return stats_; }
    const RestStats& stats() const { return stats_; }

    // Runs a client step: its session part by the host, then the sends, the
    // waits out of a 429 and the ends, each to its owner.
    void perform(RestStep step, Instant now);
    // Lets the client send what may go (nothing while the helper is down:
    // a post never handed to the browser was certainly not sent).
    void pump(Instant now);
    // The REST request `tag` got an HTTP answer, or none (`response` nullopt, how it failed).
    void on_answer(RequestTag tag, const std::optional<HttpResponse>& response, std::optional<TransportFailure> failure,
                   const std::string& reason, Instant now);
    // Signed out: nothing waits for an answer any more.
    void drop_all() {
        client_.drop_all();
        wire_.drop_all();
    }

    // ---- FeatureHost ----
    RequestTag new_tag() override { return wire_.new_tag(); }
    RequestTag submit(Feature& owner, Outgoing outgoing, Instant now, RequestTag tag = 0) override;
    bool pending(RequestTag tag) const override { return client_.pending(tag); }
    bool in_flight(RequestTag tag) const override { return client_.in_flight(tag); }
    void release(RequestTag tag) override {
        client_.release(tag);
        wire_.drop(tag);
    }
    void resend(RequestTag tag) override { client_.resend(tag); }
    bool cancel(RequestTag tag) override;
    ApiConfig api_config() const override { return config_.api_config(); }
    const PacingScheduler& scheduler() const override { return client_.scheduler(); }
    void set_error(UserError error, ErrorSource source) override { feedback_.set_error(std::move(error), source); }
    void clear_error(ErrorSource source) override { feedback_.clear_error(source); }
    void notice(std::string text) override { feedback_.set_notice(std::move(text)); }
    void notice_words(Words words) override { feedback_.set_notice(std::move(words)); }
    void offer_scope(std::string scope) override { host_.offer_scope(std::move(scope)); }
    bool can_send() const override { return client_.can_send(); }
    std::optional<ScopeSet> granted_scopes() const override { return host_.granted_scopes(); }
    void open_url(std::string url) override { effects_.push_back(effect::OpenUrl{std::move(url)}); }

private:
    void on_sent(RequestTag tag, HttpRequest request, bool retry, Instant now);
    void deliver(RequestTag tag, Answer answer, Instant now);

    RequestsHost& host_;
    Wire& wire_;
    const ConfigLoad& config_;
    Feedback& feedback_;
    const HelperWatch& helper_;
    std::vector<Effect>& effects_;
    RestClient client_;  // credentials, session, pacing, each room's post order
    RestStats stats_;
};

}  // namespace roomkey::app
