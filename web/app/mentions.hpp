// mentions.hpp: mentions in rooms that are not open. The room list is read
// again while a room is open or notifications are on, at the interval of
// its part of the one poll share (shared/polling.hpp kRoomListPart); after
// each read, rooms whose mention count rose are read for the mention's text
// (the workspace turns them into alerts).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "app/contacts.hpp"
#include "app/dashboard.hpp"
#include "app/feature.hpp"
#include "app/open_room.hpp"
#include "app/workspace.hpp"

namespace roomkey::app {

class Mentions final : public Feature {
public:
    Mentions(FeatureHost& host, Workspace& workspace, Dashboard& dashboard, const Contacts& contacts,
             const OpenRoom& room, const bool& page_visible)
        : host_(host),
          workspace_(workspace),
          dashboard_(dashboard),
          contacts_(contacts),
          room_(room),
          page_visible_(page_visible) {}

    // The room list was read: mentions that rose are read for their text,
    // then the next read is timed.
    void on_room_list_read(Instant now);
    void run_poll(Instant now);
    // When the room list is next read again (nullopt: not polling, e.g. hidden tab).
    std::optional<Instant> poll_at() const;
    // Signed out: the reads under way were dropped.
    void drop_all() { reading_.clear(); }

    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;
    void on_rate_limited(const rest::RateLimited& waiting, Instant now) override;

private:
    FeatureHost& host_;
    Workspace& workspace_;
    Dashboard& dashboard_;
    const Contacts& contacts_;
    const OpenRoom& room_;
    const bool& page_visible_;
    std::optional<Instant> poll_at_;
    std::map<std::string, MentionRise> rises_;   // the rooms being read, by id
    std::map<RequestTag, std::string> reading_;  // each read's room
};

}  // namespace roomkey::app
