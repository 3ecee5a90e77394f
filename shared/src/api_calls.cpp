// api_calls.cpp: the API call coordinator (see api_calls.hpp).
#include "roomkey/api_calls.hpp"

#include "roomkey/www_authenticate.hpp"

#include <utility>

namespace roomkey {

HttpRequest with_bearer(HttpRequest request, std::string_view access_token) {
    request.headers.set("Authorization", "Bearer " + std::string(access_token));
    return request;
}

Result<ApiCalls::Submitted, SessionError> ApiCalls::submit(Session& session, HttpRequest request, Instant now) {
    const RequestId id = next_id_;
    auto effects = session.handle(session_event::ApiRequest{id, now});
    if (!effects) return Err{effects.error()};
    ++next_id_;
    entries_[id] = Entry{std::move(request), 0, false};
    return Submitted{id, apply(session, std::move(effects).value())};
}

Result<ApiStep, SessionError> ApiCalls::on_response(Session& session, RequestId id, HttpResponse response,
                                                    Instant now) {
    const auto it = entries_.find(id);
    if (it == entries_.end())
        return Err{
            SessionError{SessionErrorKind::unknown_request, session.state(), SessionEventKind::api_unauthorized}};
    if (!is_invalid_token(response)) {
        entries_.erase(it);
        ApiStep step;
        step.completed.push_back({id, std::move(response)});
        return step;
    }
    auto effects = session.handle(session_event::ApiUnauthorized{id, it->second.generation, it->second.retried, now});
    if (!effects) return Err{effects.error()};
    return apply(session, std::move(effects).value());
}

Result<ApiStep, SessionError> ApiCalls::handle(Session& session, const SessionEvent& event) {
    auto effects = session.handle(event);
    if (!effects) return Err{effects.error()};
    return apply(session, std::move(effects).value());
}

bool ApiCalls::forget(RequestId id) { return entries_.erase(id) > 0; }

ApiStep ApiCalls::apply(const Session& session, std::vector<SessionEffect> effects) {
    ApiStep step;
    for (SessionEffect& effect : effects) {
        const RequestId* send_id = nullptr;
        bool retry = false;
        if (const auto* s = std::get_if<session_effect::SendApiRequest>(&effect)) send_id = &s->id;
        if (const auto* r = std::get_if<session_effect::RetryApiRequest>(&effect)) {
            send_id = &r->id;
            retry = true;
        }
        if (send_id) {
            const auto it = entries_.find(*send_id);
            // The session only says "send" while it holds tokens.
            if (it != entries_.end() && session.tokens()) {
                it->second.generation = session.token_generation();
                it->second.retried = it->second.retried || retry;
                step.send.push_back({*send_id, with_bearer(it->second.request, session.tokens()->access_token), retry});
                continue;
            }
        }
        if (const auto* f = std::get_if<session_effect::FailApiRequest>(&effect)) {
            if (entries_.erase(f->id) > 0) {
                step.failed.push_back({f->id, f->reason});
                continue;
            }
        }
        // Token requests, timers, navigation, forgetting tokens, and effects for
        // requests this coordinator does not hold: the adapter's business.
        step.session_effects.push_back(std::move(effect));
    }
    return step;
}

}  // namespace roomkey
