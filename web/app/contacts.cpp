// contacts.cpp: the contacts view (see contacts.hpp).
#include "app/contacts.hpp"

#include <algorithm>

#include "app/app_detail.hpp"
#include "app/i18n.hpp"
#include "app/view_answer.hpp"

namespace roomkey::app {

Words Contacts::label(Kind kind) {
    static const char* const kLabels[] = {"views.contacts", "views.contact_requests", "views.accept_request",
                                          "views.decline_request"};  // by Kind
    return Words{kLabels[static_cast<int>(kind)]};
}

bool Contacts::pending(Kind kind, const std::string& request_id) const {
    return std::any_of(calls_.begin(), calls_.end(), [&](const auto& entry) {
        return entry.second.kind == kind && entry.second.request_id == request_id;
    });
}

void Contacts::load(Instant now) {
    if (!pending(Kind::contacts, {})) {
        contacts_.loading = true;
        send(Call{Kind::contacts, {}}, now);
    }
    if (!pending(Kind::incoming, {})) {
        incoming_.loading = true;
        send(Call{Kind::incoming, {}}, now);
    }
}

void Contacts::accept(const std::string& request_id, Instant now) {
    if (!pending(Kind::accept, request_id)) send(Call{Kind::accept, request_id}, now);
}

void Contacts::decline(const std::string& request_id, Instant now) {
    if (!pending(Kind::decline, request_id)) send(Call{Kind::decline, request_id}, now);
}

Method Contacts::method(Kind kind) {
    return kind == Kind::accept ? Method::Put : kind == Kind::decline ? Method::Delete : Method::Get;
}

std::string Contacts::path(const Call& call) {
    return call.kind == Kind::contacts   ? "/contacts"
           : call.kind == Kind::incoming ? "/incoming_requests"
                                         : "/incoming_requests/" + call.request_id;
}

void Contacts::send(Call call, Instant now) {
    Outgoing out;
    out.label = label(call.kind).text();
    out.request = built(api_request(host_.api_config(), HeldByHelper{}, method(call.kind), path(call)));
    out.options = view_options();
    const RequestTag tag = host_.new_tag();
    calls_[tag] = std::move(call);
    host_.submit(*this, std::move(out), now, tag);
}

void Contacts::drop_all() {
    calls_.clear();
    contacts_.loading = incoming_.loading = false;
}

void Contacts::clear() {
    contacts_ = {};
    incoming_ = {};
}

void Contacts::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    const auto it = calls_.find(waiting.tag);
    if (it != calls_.end()) host_.notice_words(rate_limited(label(it->second.kind), host_, now));
}

void Contacts::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    const auto it = calls_.find(tag);
    if (it == calls_.end()) return;
    const Call call = it->second;
    calls_.erase(it);
    const std::string what = tr("views.reading", {{"what", label(call.kind).text()}});
    const bool ok = answer.response && detail::is_success(answer.response->status);
    std::string failure = view_failure(host_, what, answer, ok, method(call.kind), path(call), ErrorSource::contacts);
    auto unreadable = [&](std::string_view detail) {
        failure = unreadable_failure(host_, what, detail, ErrorSource::contacts);
    };
    switch (call.kind) {
        case Kind::contacts:
            contacts_.loading = false;
            if (failure.empty()) {
                auto contacts = read_contacts(*answer.response);
                if (contacts) {
                    contacts_.value = std::move(*contacts);
                    contacts_.loaded_at = now;
                } else {
                    unreadable(to_string(contacts.error()));
                }
            }
            contacts_.error = failure;
            break;
        case Kind::incoming:
            incoming_.loading = false;
            if (failure.empty()) {
                auto requests = read_incoming_requests(*answer.response);
                if (requests) {
                    incoming_.value = std::move(*requests);
                    incoming_.loaded_at = now;
                } else {
                    unreadable(to_string(requests.error()));
                }
            }
            incoming_.error = failure;
            break;
        case Kind::accept:
        case Kind::decline:
            if (failure.empty()) {
                // The status line names the person, not the request's id (the page API keeps that).
                std::string name;
                if (incoming_.value) {
                    auto& list = *incoming_.value;
                    for (const ContactRequest& r : list) {
                        if (r.request_id == call.request_id) name = r.name;
                    }
                    list.erase(std::remove_if(list.begin(), list.end(),
                                              [&](const ContactRequest& r) { return r.request_id == call.request_id; }),
                               list.end());
                }
                if (call.kind == Kind::accept) {
                    auto contact = read_accepted_request(*answer.response);
                    if (contact && name.empty()) name = contact->name;
                    if (contact && contacts_.value) {
                        auto& list = *contacts_.value;
                        const bool known = std::any_of(list.begin(), list.end(), [&](const Contact& c) {
                            return c.account_id == contact->account_id;
                        });
                        if (!known) list.push_back(std::move(*contact));
                    }
                    // The contact list as the service has it now.
                    if (!pending(Kind::contacts, {})) {
                        contacts_.loading = true;
                        send(Call{Kind::contacts, {}}, now);
                    }
                    // A request no longer in the list (page API only) has no name to say.
                    host_.notice_words(name.empty() ? Words("views.request_accepted_unnamed")
                                                    : Words("views.request_accepted", "name", name));
                } else {
                    host_.notice_words(name.empty() ? Words("views.request_declined_unnamed")
                                                    : Words("views.request_declined", "name", name));
                }
            }
            contacts_.error = failure;
            break;
    }
    if (failure.empty()) host_.clear_error(ErrorSource::contacts);
}

}  // namespace roomkey::app
