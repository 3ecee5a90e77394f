// dashboard.hpp: the dashboard feature: who is signed in (GET /me, spec
// 4.4), their counters (GET /my/status, spec 4.5), the room list (GET
// /rooms, spec 4.8) and the room selected in it. Its reads go through the
// one REST client; a 429 is waited out once and said (spec 8.1).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "app/feature.hpp"
#include "roomkey/api_records.hpp"

namespace roomkey::app {

class Dashboard final : public Feature {
public:
    explicit Dashboard(FeatureHost& host) : host_(host) {}

    // After each read of the room list (its mentions, its next read).
    void on_rooms_read(std::function<void(Instant)> hook) { on_rooms_read_ = std::move(hook); }

    // ---- intents ----
    // Every read the dashboard shows (shared/'s kDashboardReads) not already under way.
    void load(Instant now);
    void reload_account(Instant now);
    void reload_status(Instant now);
    void reload_rooms(Instant now);
    void select_room(std::string room_id) { selected_room_ = std::move(room_id); }
    // A room was marked read: its counts as the service answered them.
    void set_room_counts(const std::string& room_id, std::int64_t unread, std::int64_t mentions);

    // ---- the session ----
    // Signed out: the reads under way were dropped.
    void drop_all();
    // The account is gone: nothing of it stays.
    void clear();

    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;
    void on_rate_limited(const rest::RateLimited& waiting, Instant now) override;

    // ---- read-only views ----
    const Loadable<Account>& account() const { return account_; }
    const Loadable<MyStatus>& status() const { return status_; }
    const Loadable<std::vector<Room>>& rooms() const { return rooms_; }
    // Changes whenever rooms().value may have: a frame knows the list is the
    // same without reading hundreds of rooms (room_order.hpp's KeptRoomOrder).
    std::uint64_t rooms_version() const { return rooms_version_; }
    const std::string& selected_room() const { return selected_room_; }
    // The name of a room in the list ("" when it is not there).
    std::string room_name(const std::string& room_id) const;

private:
    enum class Read { me, my_status, rooms };
    void read(Read which, Instant now);
    bool reading(Read which) const;

    FeatureHost& host_;
    Loadable<Account> account_;
    Loadable<MyStatus> status_;
    Loadable<std::vector<Room>> rooms_;
    std::uint64_t rooms_version_ = 0;
    std::string selected_room_;
    std::map<RequestTag, Read> reads_;
    std::function<void(Instant)> on_rooms_read_;
};

}  // namespace roomkey::app
