// store.hpp: the sandbox's memory across stops and crashes: its whole state
// (accounts, rooms, members, messages, tasks, files, links, contact
// requests, registered clients, login sessions, grants and tokens, the rate
// windows, the clock) in SQLite, STATE_DIR/sandbox.db, in WAL mode. Each request's
// changes are written in one transaction before its answer leaves, by row:
// the rooms and tasks the chat model marked, each room's messages compared
// with what was written (a post writes one row, not the account). The rate
// windows are written at most once a second, so a crash forgets at most a
// second of counting. The clock is kept with them (its time, the wall time
// it was written at, its speed): a start goes on from the time kept plus the
// real time the sandbox was stopped, so a clock moved forward is never set
// back and a token it expired stays expired. --ephemeral runs without a store. docs/sandbox.md.
// Not thread-safe: SandboxApp calls it under its state mutex.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "roomkey/result.hpp"
#include "roomkey/time.hpp"
#include "sandbox/chat_model.hpp"
#include "sandbox/clock.hpp"
#include "sandbox/file_store.hpp"
#include "sandbox/oauth_state.hpp"
#include "sandbox/rate_limiter.hpp"

struct sqlite3;

namespace roomkey::sandbox {

// The layout version this sandbox writes (SQLite's user_version); a file
// with a larger one is refused, never read or changed.
inline constexpr int kStoreVersion = 1;
inline constexpr std::string_view kStoreFileName = "sandbox.db";

// Bytes as lowercase hex and back (digests are raw bytes; JSON needs text).
std::string hex(const std::string& bytes);
std::string unhex(const std::string& text);

// The parts of SandboxApp's state the store keeps.
struct StateParts {
    ChatModel& chat;
    OAuthState& oauth;
    WindowLimiter& rate;
    SlidingLimiter& room_posts;
    FileStore& files;
    SandboxClock& clock;
};

class StateStore {
public:
    // Opens or creates the file (0600) and holds it exclusively (a second
    // sandbox on the same state directory is refused). The message says what
    // is wrong and what to do: unreadable, not a state file, a newer version.
    static Result<std::unique_ptr<StateStore>, std::string> open(const std::string& path);
    ~StateStore();
    StateStore(const StateStore&) = delete;
    StateStore& operator=(const StateStore&) = delete;

    const std::string& path() const { return path_; }
    // What the stored state started from ("demo" or "fixture <sha256>");
    // empty when the file is new.
    std::string source();
    // Puts the stored state into `parts` (which start empty).
    Result<Unit, std::string> load(StateParts parts);
    // Replaces everything stored with `parts`, started from `source`.
    Result<Unit, std::string> save_all(StateParts parts, const std::string& source, Instant now);
    // One transaction with what changed since the last write. auth: whether
    // the request may have changed the authorization server's records
    // (snapshotted and compared only then).
    // final: write the rate windows whenever they were last written.
    Result<Unit, std::string> flush(StateParts parts, Instant now, bool auth, bool final = false);

private:
    explicit StateStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
    Result<Unit, std::string> exec(const char* sql);
    void write_room(const ChatModel& chat, RoomId id);
    void write_task(const ChatModel& chat, std::int64_t id);
    void write_accounts(const ChatModel& chat);
    void write_requests(const ChatModel& chat);
    void write_meta(const std::string& key, const std::string& value);
    void write_limits(StateParts& parts, Instant now);
    void write_files(const FileStore& files);
    std::string error() const;
    // COMMIT, or ROLLBACK when a statement failed (then the next flush writes everything).
    Result<Unit, std::string> commit();

    sqlite3* db_;
    std::string path_;
    bool failed_ = false;  // a statement of the current transaction failed
    bool resync_ = false;  // a write failed: the next flush rewrites everything
    std::string source_;
    // room -> message_id -> digest of what was written (finds edits and deletions).
    std::unordered_map<RoomId, std::unordered_map<std::string, std::size_t>> written_messages_;
    std::string written_oauth_;
    std::set<std::int64_t> written_files_;
    Instant limits_written_{};
    double clock_scale_written_ = -1;  // the clock's speed as last written
};

}  // namespace roomkey::sandbox
