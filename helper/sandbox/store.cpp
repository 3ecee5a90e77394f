// store.cpp: StateStore (see store.hpp). Tables: meta (key -> text: the
// source, the id counters, the auth records' JSON, the rate windows' JSON, the clock),
// accounts, rooms (a room's JSON without its messages), messages (a row
// each), tasks, requests (contact requests), files (uploaded bytes).
#include "sandbox/store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <functional>

#include <nlohmann/json.hpp>

namespace roomkey::sandbox {

namespace {

using nlohmann::json;

// One prepared statement; a failure leaves ok() false and the error on the connection.
class Stmt {
public:
    Stmt(sqlite3* db, const char* sql) { ok_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) == SQLITE_OK; }
    ~Stmt() { sqlite3_finalize(s_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    Stmt& bind(int i, std::int64_t v) {
        ok_ = ok_ && sqlite3_bind_int64(s_, i, v) == SQLITE_OK;
        return *this;
    }
    Stmt& bind(int i, const std::string& v) {
        ok_ = ok_ && sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) == SQLITE_OK;
        return *this;
    }
    Stmt& blob(int i, const std::string& v) {
        ok_ = ok_ && sqlite3_bind_blob(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) == SQLITE_OK;
        return *this;
    }
    // A row (true) or the end (false; ok() says whether that was an error).
    bool row() {
        if (!ok_) return false;
        const int rc = sqlite3_step(s_);
        ok_ = rc == SQLITE_ROW || rc == SQLITE_DONE;
        return rc == SQLITE_ROW;
    }
    bool run() {
        row();
        return ok_;
    }
    void reset() {
        sqlite3_reset(s_);
        sqlite3_clear_bindings(s_);
    }
    std::int64_t integer(int i) const { return sqlite3_column_int64(s_, i); }
    std::string text(int i) const {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(s_, i));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, i))) : std::string();
    }
    bool ok() const { return ok_; }

private:
    sqlite3_stmt* s_ = nullptr;
    bool ok_ = false;
};

std::size_t digest(const Message& m) {
    return std::hash<std::string>{}(std::to_string(m.account_id) + '\n' + std::to_string(m.send_time) + '\n' +
                                    std::to_string(m.update_time) + '\n' + m.body);
}

json room_json(const Room& r) {
    json members = json::array();
    for (const auto& [id, m] : r.members) {
        members.push_back({id, std::string(to_string(m.role)), m.unread, m.mention});
    }
    json files = json::array();
    for (const FileRecord& f : r.files) {
        files.push_back({f.file_id, f.account_id, f.message_id, f.filename, f.filesize, f.upload_time});
    }
    json j = {{"name", r.name}, {"type", std::string(to_string(r.type))}, {"description", r.description},
              {"icon_preset", r.icon_preset}, {"sticky", r.sticky}, {"members", members}, {"files", files},
              {"last_update_time", r.last_update_time}, {"cursors", r.message_cursors}};
    if (r.link) j["link"] = {r.link->code, r.link->description, r.link->need_acceptance};
    return j;
}

Room room_from(RoomId id, const json& j) {
    Room r;
    r.room_id = id;
    r.name = j.value("name", "");
    const std::string type = j.value("type", "group");
    r.type = type == "my" ? RoomType::my : type == "direct" ? RoomType::direct : RoomType::group;
    r.description = j.value("description", "");
    r.icon_preset = j.value("icon_preset", "");
    r.sticky = j.value("sticky", false);
    for (const json& m : j.value("members", json::array())) {
        r.members[m[0].get<AccountId>()] = Membership{parse_room_role(m[1].get<std::string>()).value_or(RoomRole::member),
                                                      m[2].get<std::int64_t>(), m[3].get<std::int64_t>()};
    }
    for (const json& f : j.value("files", json::array())) {
        r.files.push_back(FileRecord{f[0].get<std::int64_t>(), f[1].get<AccountId>(), f[2].get<std::string>(),
                                     f[3].get<std::string>(), f[4].get<std::int64_t>(), f[5].get<std::int64_t>()});
    }
    r.last_update_time = j.value("last_update_time", std::int64_t{0});
    if (j.contains("cursors") && j["cursors"].is_object()) {
        r.message_cursors = j["cursors"].get<std::map<std::string, std::string>>();
    }
    if (j.contains("link") && j["link"].is_array()) {
        r.link = InviteLink{j["link"][0].get<std::string>(), j["link"][1].get<std::string>(), j["link"][2].get<bool>()};
    }
    return r;
}

json account_json(const Account& a) {
    return {a.name, a.login_mail, a.password, a.api_token, a.chatwork_id, a.organization_name,
            a.department, a.title, a.introduction, a.my_room_id, a.contacts};
}

Account account_from(AccountId id, const json& j) {
    Account a;
    a.account_id = id;
    a.name = j[0].get<std::string>();
    a.login_mail = j[1].get<std::string>();
    a.password = j[2].get<std::string>();
    a.api_token = j[3].get<std::string>();
    a.chatwork_id = j[4].get<std::string>();
    a.organization_name = j[5].get<std::string>();
    a.department = j[6].get<std::string>();
    a.title = j[7].get<std::string>();
    a.introduction = j[8].get<std::string>();
    a.my_room_id = j[9].get<RoomId>();
    a.contacts = j[10].get<std::set<AccountId>>();
    return a;
}

json task_json(const Task& t) {
    return {t.room_id, t.assignee, t.assigned_by, t.message_id, t.body, t.limit_time, t.limit_type, t.done};
}

Task task_from(std::int64_t id, const json& j) {
    return Task{id, j[0].get<RoomId>(), j[1].get<AccountId>(), j[2].get<AccountId>(), j[3].get<std::string>(),
                j[4].get<std::string>(), j[5].get<std::int64_t>(), j[6].get<std::string>(), j[7].get<bool>()};
}

}  // namespace

std::string hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::string unhex(const std::string& text) {
    auto value = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    std::string out;
    for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
        out += static_cast<char>((value(text[i]) << 4) | value(text[i + 1]));
    }
    return out;
}

Result<std::unique_ptr<StateStore>, std::string> StateStore::open(const std::string& path) {
    const std::string what_to_do = " Move it away to start afresh, or start with --ephemeral (nothing kept).";
    // Created 0600 by us (it holds passwords, client secrets and token digests), then opened by SQLite.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return Err{"the state file " + path + " cannot be opened for reading and writing." + what_to_do};
    ::close(fd);
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string message = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return Err{"the state file " + path + " cannot be opened: " + message + "." + what_to_do};
    }
    std::unique_ptr<StateStore> store(new StateStore(db, path));
    sqlite3_busy_timeout(db, 0);
    int version = -1;
    {
        Stmt v(db, "PRAGMA user_version");
        if (v.row()) version = static_cast<int>(v.integer(0));
        if (!v.ok() && (sqlite3_errcode(db) == SQLITE_BUSY || sqlite3_errcode(db) == SQLITE_LOCKED)) {
            return Err{"the state file " + path + " is in use by another roomkey-sandbox: stop it, or start this "
                                                  "one with another --state-dir or --ephemeral"};
        }
        if (!v.ok() || version < 0) {
            return Err{"the state file " + path + " is not a roomkey-sandbox state file or is damaged (" +
                       store->error() + ")." + what_to_do};
        }
    }
    if (version > kStoreVersion) {
        return Err{"the state file " + path + " was written by a newer roomkey-sandbox (layout " +
                   std::to_string(version) + "; this one reads up to " + std::to_string(kStoreVersion) +
                   "). Update roomkey, or start with another --state-dir or --ephemeral; the file is left as it is."};
    }
    // EXCLUSIVE: one sandbox per state file; WAL + NORMAL: a commit survives a
    // crash of the process (kill -9); only a power loss may lose the last ones.
    for (const char* sql : {"PRAGMA locking_mode=EXCLUSIVE", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"}) {
        if (auto r = store->exec(sql); !r) return Err{"the state file " + path + ": " + r.error() + "." + what_to_do};
    }
    const char* schema =
        "BEGIN EXCLUSIVE;"
        "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS accounts(id INTEGER PRIMARY KEY, record TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS rooms(id INTEGER PRIMARY KEY, record TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS messages(room_id INTEGER NOT NULL, message_id TEXT NOT NULL,"
        " account_id INTEGER NOT NULL, body TEXT NOT NULL, send_time INTEGER NOT NULL, update_time INTEGER NOT NULL,"
        " PRIMARY KEY(room_id, message_id)) WITHOUT ROWID;"
        "CREATE TABLE IF NOT EXISTS tasks(id INTEGER PRIMARY KEY, record TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS requests(id INTEGER PRIMARY KEY, record TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, room_id INTEGER NOT NULL, filename TEXT NOT NULL,"
        " bytes BLOB NOT NULL);"
        "PRAGMA user_version=1;"
        "COMMIT;";
    if (auto r = store->exec(schema); !r) {
        (void)store->exec("ROLLBACK");
        const bool busy = sqlite3_errcode(db) == SQLITE_BUSY || sqlite3_errcode(db) == SQLITE_LOCKED;
        return Err{"the state file " + path + (busy ? " is in use by another roomkey-sandbox: stop it, or start "
                                                      "this one with another --state-dir or --ephemeral"
                                                    : ": " + r.error() + "." + what_to_do)};
    }
    return store;
}

StateStore::~StateStore() { sqlite3_close(db_); }

std::string StateStore::error() const { return sqlite3_errmsg(db_); }

Result<Unit, std::string> StateStore::exec(const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) == SQLITE_OK) return Unit{};
    std::string text = message ? message : error();
    sqlite3_free(message);
    return Err{text};
}

std::string StateStore::source() {
    Stmt s(db_, "SELECT value FROM meta WHERE key='source'");
    return s.row() ? s.text(0) : std::string();
}

void StateStore::write_meta(const std::string& key, const std::string& value) {
    Stmt s(db_, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)");
    failed_ |= !s.bind(1, key).bind(2, value).run();
}

void StateStore::write_room(const ChatModel& chat, RoomId id) {
    auto& written = written_messages_[id];
    const auto it = chat.all_rooms().find(id);
    if (it == chat.all_rooms().end()) {
        Stmt a(db_, "DELETE FROM rooms WHERE id=?");
        Stmt b(db_, "DELETE FROM messages WHERE room_id=?");
        failed_ |= !a.bind(1, id).run() || !b.bind(1, id).run();
        written_messages_.erase(id);
        return;
    }
    const Room& room = it->second;
    Stmt r(db_, "INSERT OR REPLACE INTO rooms(id, record) VALUES(?, ?)");
    failed_ |= !r.bind(1, id).bind(2, room_json(room).dump(-1, ' ', false, json::error_handler_t::replace)).run();
    Stmt put(db_, "INSERT OR REPLACE INTO messages VALUES(?, ?, ?, ?, ?, ?)");
    std::unordered_map<std::string, std::size_t> now_there;
    now_there.reserve(room.messages.size());
    for (const Message& m : room.messages) {
        const std::size_t d = digest(m);
        now_there.emplace(m.message_id, d);
        const auto w = written.find(m.message_id);
        if (w != written.end() && w->second == d) continue;
        failed_ |= !put.bind(1, id).bind(2, m.message_id).bind(3, m.account_id).bind(4, m.body)
                        .bind(5, m.send_time).bind(6, m.update_time).run();
        put.reset();
    }
    Stmt del(db_, "DELETE FROM messages WHERE room_id=? AND message_id=?");
    for (const auto& [message_id, d] : written) {
        if (now_there.count(message_id)) continue;
        failed_ |= !del.bind(1, id).bind(2, message_id).run();
        del.reset();
    }
    written = std::move(now_there);
}

void StateStore::write_task(const ChatModel& chat, std::int64_t id) {
    const auto it = chat.all_tasks().find(id);
    if (it == chat.all_tasks().end()) {
        Stmt d(db_, "DELETE FROM tasks WHERE id=?");
        failed_ |= !d.bind(1, id).run();
        return;
    }
    Stmt s(db_, "INSERT OR REPLACE INTO tasks(id, record) VALUES(?, ?)");
    failed_ |= !s.bind(1, id).bind(2, task_json(it->second).dump(-1, ' ', false, json::error_handler_t::replace)).run();
}

void StateStore::write_accounts(const ChatModel& chat) {
    failed_ |= !exec("DELETE FROM accounts");
    Stmt s(db_, "INSERT INTO accounts(id, record) VALUES(?, ?)");
    for (const auto& [id, a] : chat.accounts()) {
        failed_ |= !s.bind(1, id).bind(2, account_json(a).dump(-1, ' ', false, json::error_handler_t::replace)).run();
        s.reset();
    }
}

void StateStore::write_requests(const ChatModel& chat) {
    failed_ |= !exec("DELETE FROM requests");
    Stmt s(db_, "INSERT INTO requests(id, record) VALUES(?, ?)");
    for (const auto& [id, r] : chat.all_requests()) {
        const json j = {r.from, r.to, r.message};
        failed_ |= !s.bind(1, id).bind(2, j.dump(-1, ' ', false, json::error_handler_t::replace)).run();
        s.reset();
    }
}

void StateStore::write_limits(StateParts& parts, Instant now) {
    json windows = json::object();
    for (const auto& [key, w] : parts.rate.windows()) windows[hex(key)] = {unix_ms(w.start), w.count};
    json posts = json::object();
    for (const auto& [key, calls] : parts.room_posts.calls()) {
        json list = json::array();
        for (Instant t : calls) list.push_back(unix_ms(t));
        posts[hex(key)] = list;
    }
    write_meta("limits", json{{"windows", windows}, {"room_posts", posts}}.dump());
    limits_written_ = now;
    clock_scale_written_ = parts.clock.scale();
    write_meta("clock", json{unix_ms(now), unix_ms(parts.clock.wall()), clock_scale_written_}.dump());
}

void StateStore::write_files(const FileStore& files) {
    std::set<std::int64_t> now_there;
    Stmt put(db_, "INSERT OR REPLACE INTO files(id, room_id, filename, bytes) VALUES(?, ?, ?, ?)");
    for (const StoredFile& f : files.files()) {
        now_there.insert(f.file_id);
        if (written_files_.count(f.file_id)) continue;
        failed_ |= !put.bind(1, f.file_id).bind(2, f.room_id).bind(3, f.filename).blob(4, f.bytes).run();
        put.reset();
    }
    Stmt del(db_, "DELETE FROM files WHERE id=?");
    for (std::int64_t id : written_files_) {
        if (now_there.count(id)) continue;
        failed_ |= !del.bind(1, id).run();
        del.reset();
    }
    written_files_ = std::move(now_there);
}

Result<Unit, std::string> StateStore::flush(StateParts parts, Instant now, bool auth, bool final) {
    ChatChanges changes = parts.chat.take_changes();
    std::string oauth;
    if (auth) {
        oauth = parts.oauth.snapshot().dump(-1, ' ', false, json::error_handler_t::replace);
        if (oauth == written_oauth_) oauth.clear();
    }
    const bool files_changed = parts.files.files().size() != written_files_.size() ||
                               (!parts.files.files().empty() && !written_files_.count(parts.files.files().back().file_id));
    // (A new speed is written at once: a frozen clock never makes a second pass.)
    const bool limits_due = final || now - limits_written_ >= Seconds(1) || now < limits_written_ ||
                            parts.clock.scale() != clock_scale_written_;
    if (resync_) return save_all(parts, source_, now);  // after a failed write: everything, once
    if (!changes.any() && oauth.empty() && !files_changed && !limits_due) return Unit{};
    failed_ = false;
    if (auto r = exec("BEGIN IMMEDIATE"); !r) {
        resync_ = true;  // the changes taken above are written with everything next time
        return Err{r.error()};
    }
    for (RoomId id : changes.rooms) write_room(parts.chat, id);
    for (std::int64_t id : changes.tasks) write_task(parts.chat, id);
    if (changes.accounts) write_accounts(parts.chat);
    if (changes.requests) write_requests(parts.chat);
    if (changes.any()) {
        const ChatCounters c = parts.chat.counters();
        write_meta("counters", json{c.next_room_id, c.next_task_id, c.next_request_id, c.next_message_seq}.dump());
    }
    if (!oauth.empty()) write_meta("oauth", oauth);
    if (files_changed) write_files(parts.files);
    write_limits(parts, now);
    if (!oauth.empty()) written_oauth_ = std::move(oauth);
    return commit();
}

Result<Unit, std::string> StateStore::save_all(StateParts parts, const std::string& source, Instant now) {
    written_messages_.clear();
    written_files_.clear();
    written_oauth_.clear();
    source_ = source;
    resync_ = true;  // until this commits
    if (auto r = exec("BEGIN IMMEDIATE"); !r) return Err{r.error()};
    failed_ = !exec("DELETE FROM meta;DELETE FROM accounts;DELETE FROM rooms;DELETE FROM messages;"
                    "DELETE FROM tasks;DELETE FROM requests;DELETE FROM files");
    write_meta("source", source);
    (void)parts.chat.take_changes();
    for (const auto& [id, room] : parts.chat.all_rooms()) write_room(parts.chat, id);
    for (const auto& [id, task] : parts.chat.all_tasks()) write_task(parts.chat, id);
    write_accounts(parts.chat);
    write_requests(parts.chat);
    const ChatCounters c = parts.chat.counters();
    write_meta("counters", json{c.next_room_id, c.next_task_id, c.next_request_id, c.next_message_seq}.dump());
    written_oauth_ = parts.oauth.snapshot().dump(-1, ' ', false, json::error_handler_t::replace);
    write_meta("oauth", written_oauth_);
    write_files(parts.files);
    write_limits(parts, now);
    auto done = commit();
    if (done) resync_ = false;
    return done;
}

Result<Unit, std::string> StateStore::commit() {
    auto done = failed_ ? Result<Unit, std::string>(Err{error()}) : exec("COMMIT");
    if (!done) {
        (void)exec("ROLLBACK");
        // What this store believes written may not be: the next write is a whole one.
        resync_ = true;
    }
    return done;
}

Result<Unit, std::string> StateStore::load(StateParts parts) {
    source_ = source();
    ChatModel& chat = parts.chat;
    auto meta = [&](const char* key) {
        Stmt s(db_, "SELECT value FROM meta WHERE key=?");
        s.bind(1, std::string(key));
        return s.row() ? json::parse(s.text(0), nullptr, false) : json();
    };
    auto damaged = [&](const std::string& what) -> Result<Unit, std::string> {
        return Err{"the state file " + path_ + " is damaged (" + what +
                   "). Move it away to start afresh, or start with --ephemeral."};
    };
    {
        Stmt s(db_, "SELECT id, record FROM accounts");
        while (s.row()) {
            const json j = json::parse(s.text(1), nullptr, false);
            if (!j.is_array() || j.size() != 11) return damaged("an account record");
            chat.add_account(account_from(s.integer(0), j));
        }
        if (!s.ok()) return damaged(error());
    }
    {
        Stmt s(db_, "SELECT id, record FROM rooms");
        Stmt m(db_, "SELECT message_id, account_id, body, send_time, update_time FROM messages WHERE room_id=? "
                    "ORDER BY length(message_id), message_id");
        while (s.row()) {
            const json j = json::parse(s.text(1), nullptr, false);
            if (!j.is_object()) return damaged("a room record");
            Room room = room_from(s.integer(0), j);
            auto& written = written_messages_[room.room_id];
            m.bind(1, room.room_id);
            while (m.row()) {
                room.messages.push_back(Message{m.text(0), m.integer(1), m.text(2), m.integer(3), m.integer(4)});
                written[room.messages.back().message_id] = digest(room.messages.back());
            }
            if (!m.ok()) return damaged(error());
            m.reset();
            chat.add_room(std::move(room));
        }
        if (!s.ok()) return damaged(error());
    }
    {
        Stmt s(db_, "SELECT id, record FROM tasks");
        while (s.row()) {
            const json j = json::parse(s.text(1), nullptr, false);
            if (!j.is_array() || j.size() != 8) return damaged("a task record");
            chat.add_task(task_from(s.integer(0), j));
        }
        Stmt r(db_, "SELECT id, record FROM requests");
        while (r.row()) {
            const json j = json::parse(r.text(1), nullptr, false);
            if (!j.is_array() || j.size() != 3) return damaged("a contact request record");
            chat.add_request_record(IncomingRequest{r.integer(0), j[0].get<AccountId>(), j[1].get<AccountId>(),
                                                    j[2].get<std::string>()});
        }
    }
    const json counters = meta("counters");
    if (counters.is_array() && counters.size() == 4) {
        chat.set_counters(ChatCounters{counters[0].get<RoomId>(), counters[1].get<std::int64_t>(),
                                       counters[2].get<std::int64_t>(), counters[3].get<std::uint64_t>()});
    }
    (void)chat.take_changes();
    const json oauth = meta("oauth");
    parts.oauth.restore(oauth);
    written_oauth_ = parts.oauth.snapshot().dump(-1, ' ', false, json::error_handler_t::replace);
    const json limits = meta("limits");
    if (limits.is_object()) {
        const json windows = limits.value("windows", json::object());
        const json posts = limits.value("room_posts", json::object());
        for (const auto& item : windows.items()) {
            const json& w = item.value();
            parts.rate.restore(unhex(item.key()), WindowLimiter::Window{instant_from_unix_ms(w[0].get<std::int64_t>()),
                                                                        w[1].get<std::int64_t>()});
        }
        for (const auto& item : posts.items()) {
            std::deque<Instant> calls;
            for (const json& t : item.value()) calls.push_back(instant_from_unix_ms(t.get<std::int64_t>()));
            parts.room_posts.restore(unhex(item.key()), std::move(calls));
        }
    }
    // The clock goes on from where it was, plus the real time the sandbox was stopped.
    const json clock = meta("clock");
    if (clock.is_array() && clock.size() == 3 && clock[0].is_number_integer() && clock[1].is_number_integer() &&
        clock[2].is_number()) {
        const Millis stopped = std::max(Millis(0), parts.clock.wall() - instant_from_unix_ms(clock[1].get<std::int64_t>()));
        parts.clock.advance(instant_from_unix_ms(clock[0].get<std::int64_t>()) + stopped - parts.clock.now());
        parts.clock.set_scale(clock[2].get<double>());
        clock_scale_written_ = parts.clock.scale();
    }
    Stmt f(db_, "SELECT id, room_id, filename, bytes FROM files ORDER BY rowid");
    while (f.row()) {
        parts.files.add(StoredFile{f.integer(0), f.integer(1), f.text(2), f.text(3)});
        written_files_.insert(f.integer(0));
    }
    return Unit{};
}

}  // namespace roomkey::sandbox
