// contacts.hpp: the contacts view: the contact list (GET /contacts), the
// requests waiting for an answer (GET /incoming_requests), and accepting
// (PUT) or declining (DELETE) one of them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/feature.hpp"
#include "roomkey/api_records.hpp"

namespace roomkey::app {

class Contacts final : public Feature {
public:
    explicit Contacts(FeatureHost& host) : host_(host) {}

    // Both lists, each unless already being read.
    void load(Instant now);
    void accept(const std::string& request_id, Instant now);
    void decline(const std::string& request_id, Instant now);
    // Signed out: the requests under way were dropped.
    void drop_all();
    void clear();

    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;
    void on_rate_limited(const rest::RateLimited& waiting, Instant now) override;

    const Loadable<std::vector<Contact>>& contacts() const { return contacts_; }
    const Loadable<std::vector<ContactRequest>>& incoming() const { return incoming_; }

private:
    enum class Kind { contacts, incoming, accept, decline };
    struct Call {
        Kind kind = Kind::contacts;
        std::string request_id;  // accept, decline
    };
    bool pending(Kind kind, const std::string& request_id) const;
    void send(Call call, Instant now);
    static Words label(Kind kind);
    static Method method(Kind kind);
    static std::string path(const Call& call);

    FeatureHost& host_;
    Loadable<std::vector<Contact>> contacts_;
    Loadable<std::vector<ContactRequest>> incoming_;
    std::map<RequestTag, Call> calls_;
};

}  // namespace roomkey::app
