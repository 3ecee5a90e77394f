// api_console.hpp: the API console feature: the checks before sending
// (console.hpp), then the call through the one REST client (the same
// session, 401 retry, pacer, and the per-room limit for room posts) and
// the HTTP log. An edit or delete of the open room's message goes through
// it too (a delete asks first, as every destructive call does) and shows
// in the room once the service answers.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "app/console.hpp"
#include "app/feature.hpp"
#include "app/intents.hpp"
#include "app/room_view.hpp"

namespace roomkey::app {

class ApiConsole final : public Feature {
public:
    // `room`: the open room, where an edit or delete shows.
    ApiConsole(FeatureHost& host, RoomView& room) : host_(host), room_(room) {}

    // With the grant's scopes the host knows (FeatureHost::granted_scopes).
    void apply(const intent::ConsoleCall& call, Instant now);
    void apply(const intent::ConfirmConsoleCall&, Instant now);
    void apply(const intent::CancelConsoleCall&, Instant);
    void apply(const intent::EditMessage& edit, Instant now);
    void apply(const intent::DeleteMessage& remove, Instant now);
    // Another view got 403 insufficient_scope naming `scope`: offer it too.
    void offer_scope(std::string scope) { console_.offer_scope(std::move(scope)); }
    // The last answer was the previous account's.
    void clear() { console_ = Console{}; }

    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;
    void on_sent(RequestTag tag, Instant now) override;
    void on_rate_limited(const rest::RateLimited& waiting, Instant now) override;

    const Console& console() const { return console_; }

private:
    // The edit or delete sent through the console, to show once it answers.
    struct MessageChange {
        std::string room_id;
        std::string message_id;
        std::optional<std::string> body;  // nullopt: a delete
    };
    void send(const ConsolePending& call, Instant now);
    void on_message_changed(const HttpResponse& response);

    FeatureHost& host_;
    RoomView& room_;
    Console console_;
    std::optional<MessageChange> change_;
    std::map<RequestTag, std::string> sending_;  // the calls under way: "GET /rooms" (the log calls them so)
};

}  // namespace roomkey::app
