// drafts.hpp: what was typed in each room's composer and not sent, for one
// account. The platform keeps `stored()` in localStorage under the account
// (never with a token) and restores it when that account signs in, so a
// draft survives a room switch, a reload and a sign-out.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace roomkey::app {

class Drafts {
public:
    const std::string& account() const { return account_; }
    const std::string& text(const std::string& room_id) const;  // "" when none
    void set(const std::string& room_id, std::string text);     // "" removes it
    // Another account (or none, ""): its drafts replace these. Drafts typed
    // before the account was known stay, unless the stored ones have that room.
    void restore(std::string account, std::string_view stored);
    std::string stored() const;  // {"2100":"text",...}
    std::uint64_t revision() const { return revision_; }

private:
    std::string account_;
    std::map<std::string, std::string> texts_;
    std::uint64_t revision_ = 0;
};

}  // namespace roomkey::app
