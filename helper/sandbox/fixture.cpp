// fixture.cpp: the fixture loader (see fixture.hpp; schema in
// docs/sandbox.md "Fixtures"). One pass over the JSON: each object is read
// through Fields, which refuses fields the schema does not have (a typo
// must not pass unnoticed) and names the path of whatever is wrong.
#include "sandbox/fixture.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "roomkey/endpoint_catalog.hpp"  // utf8_length
#include "roomkey/upload_limits.hpp"

namespace roomkey::sandbox {

namespace {

using nlohmann::json;

// The first thing wrong with the fixture: where (a JSON path) and what.
// Thrown inside this file only; load_fixture returns it as a value.
struct SchemaError {
    std::string field;
    std::string problem;
};

[[noreturn]] void fail(std::string field, std::string problem) { throw SchemaError{std::move(field), std::move(problem)}; }

constexpr std::int64_t kMaxId = (std::int64_t{1} << 53) - 1;  // ids a JSON double still holds
constexpr std::size_t kMaxBodyChars = 65535;                  // RAML: message and task bodies

std::string join(std::initializer_list<const char*> names) {
    std::string out;
    for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

// One JSON object of the fixture at `path`.
class Fields {
public:
    Fields(const json& j, std::string path, std::initializer_list<const char*> known) : j_(j), path_(std::move(path)) {
        if (!j.is_object()) fail(path_, "must be an object {...}");
        for (const auto& item : j.items()) {
            if (std::none_of(known.begin(), known.end(), [&](const char* k) { return item.key() == k; })) {
                fail(at(item.key().c_str()), "is not a field of this object (its fields are: " + join(known) +
                                                 "); check the spelling");
            }
        }
    }
    std::string at(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
    bool has(const char* key) const { return j_.contains(key); }

    std::string text(const char* key, std::optional<std::string> fallback = std::nullopt) const {
        if (!has(key)) {
            if (!fallback) fail(at(key), "is missing (a string is required)");
            return *fallback;
        }
        if (!j_[key].is_string()) fail(at(key), "must be a string");
        return j_[key].get<std::string>();
    }
    std::int64_t integer(const char* key, std::optional<std::int64_t> fallback, std::int64_t min,
                         std::int64_t max) const {
        if (!has(key)) {
            if (!fallback) fail(at(key), "is missing (an integer is required)");
            return *fallback;
        }
        const json& v = j_[key];
        if (!v.is_number_integer()) fail(at(key), "must be an integer");
        const bool too_big = v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(max);
        if (too_big || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max) {
            fail(at(key), "must be from " + std::to_string(min) + " to " + std::to_string(max));
        }
        return v.get<std::int64_t>();
    }
    bool boolean(const char* key, bool fallback) const {
        if (!has(key)) return fallback;
        if (!j_[key].is_boolean()) fail(at(key), "must be true or false");
        return j_[key].get<bool>();
    }
    // The array at `key` (an empty one when it is absent and not required).
    const json& list(const char* key, bool required = false) const {
        static const json empty = json::array();
        if (!has(key)) {
            if (required) fail(at(key), "is missing (an array is required)");
            return empty;
        }
        if (!j_[key].is_array()) fail(at(key), "must be an array [...]");
        return j_[key];
    }

private:
    const json& j_;
    std::string path_;
};

std::string item(const std::string& list_path, std::size_t index) {
    return list_path + "[" + std::to_string(index) + "]";
}

// A SAX pass that keeps only nlohmann's message of a syntax error (it names the line and column).
struct JsonErrorAt : nlohmann::json_sax<json> {
    std::string message = "unreadable";
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        message = e.what();
        return false;
    }
};

class Loader {
public:
    explicit Loader(std::int64_t now) : now_(now) {}

    ChatModel run(const json& doc) {
        Fields top(doc, "", {"roomkey_sandbox_fixture", "accounts", "rooms", "contact_requests"});
        const std::int64_t version = top.integer("roomkey_sandbox_fixture", std::nullopt, 1, kMaxId);
        if (version > kFixtureVersion) {
            fail("roomkey_sandbox_fixture", std::to_string(version) + " is a newer schema than this sandbox reads (" +
                                                std::to_string(kFixtureVersion) +
                                                "): update roomkey, or write the fixture for version " +
                                                std::to_string(kFixtureVersion));
        }
        const json& accounts = top.list("accounts", true);
        if (accounts.empty()) fail("accounts", "is empty: a fixture needs at least one account to sign in as");
        for (std::size_t i = 0; i < accounts.size(); ++i) read_account(accounts[i], item("accounts", i));
        for (std::size_t i = 0; i < accounts.size(); ++i) read_contacts(accounts[i], item("accounts", i));
        const json& rooms = top.list("rooms");
        if (rooms.size() > kMaxRooms) fail("rooms", "holds more than the sandbox's " + std::to_string(kMaxRooms) + " rooms");
        for (const json& r : rooms) {
            if (r.is_object() && r.contains("room_id") && r["room_id"].is_number_integer()) {
                next_room_id_ = std::max(next_room_id_, r["room_id"].get<std::int64_t>() + 1);
            }
        }
        for (std::size_t i = 0; i < rooms.size(); ++i) read_room(rooms[i], item("rooms", i));
        give_my_rooms();
        const json& requests = top.list("contact_requests");
        for (std::size_t i = 0; i < requests.size(); ++i) {
            const std::string path = item("contact_requests", i);
            Fields f(requests[i], path, {"from", "to", "message"});
            const AccountId from = account_ref(f, "from");
            const AccountId to = account_ref(f, "to");
            chat_.add_incoming_request(from, to, f.text("message", ""));
        }
        return std::move(chat_);
    }

private:
    AccountId account_ref(const Fields& f, const char* key) {
        const AccountId id = f.integer(key, std::nullopt, 1, kMaxId);
        if (!chat_.account(id)) {
            fail(f.at(key), std::to_string(id) + " is not an account of this fixture: add it to \"accounts\" or "
                                                 "name one that is there");
        }
        return id;
    }

    void read_account(const json& j, const std::string& path) {
        Fields f(j, path, {"account_id", "name", "login", "password", "api_token", "chatwork_id", "organization_name",
                           "department", "title", "introduction", "contacts"});
        Account a;
        a.account_id = f.integer("account_id", std::nullopt, 1, kMaxId);
        if (chat_.account(a.account_id)) fail(f.at("account_id"), std::to_string(a.account_id) + " is used twice");
        a.name = f.text("name");
        if (a.name.empty()) fail(f.at("name"), "is empty: every account has a name");
        a.login_mail = f.text("login");
        if (a.login_mail.empty() || !logins_.insert(a.login_mail).second) {
            fail(f.at("login"), "\"" + a.login_mail + "\" is empty or another account's: each account signs in "
                                                      "with its own login");
        }
        a.password = f.text("password");
        if (a.password.empty()) fail(f.at("password"), "is empty: the login screen needs a password");
        a.api_token = f.text("api_token", "");
        if (!a.api_token.empty() && !tokens_.insert(a.api_token).second) {
            fail(f.at("api_token"), "is another account's: each API token names one account");
        }
        a.chatwork_id = f.text("chatwork_id", "");
        a.organization_name = f.text("organization_name", "");
        a.department = f.text("department", "");
        a.title = f.text("title", "");
        a.introduction = f.text("introduction", "");
        chat_.add_account(std::move(a));
    }

    void read_contacts(const json& j, const std::string& path) {
        const AccountId me = j["account_id"].get<AccountId>();
        const json& contacts = j.contains("contacts") ? j["contacts"] : json::array();
        if (!contacts.is_array()) fail(path + ".contacts", "must be an array of account_id");
        for (std::size_t i = 0; i < contacts.size(); ++i) {
            const json& c = contacts[i];
            const std::string at = item(path + ".contacts", i);
            if (!c.is_number_integer() || !chat_.account(c.get<AccountId>()) || c.get<AccountId>() == me) {
                fail(at, "must be the account_id of another account of this fixture");
            }
            chat_.add_contact(me, c.get<AccountId>());
        }
    }

    void read_room(const json& j, const std::string& path) {
        Fields f(j, path, {"room_id", "name", "type", "description", "icon_preset", "sticky", "members", "messages",
                           "files", "tasks", "link"});
        Room r;
        r.room_id = f.integer("room_id", next_room_id_, 1, kMaxId);
        if (!f.has("room_id")) ++next_room_id_;
        if (chat_.room(r.room_id)) fail(f.at("room_id"), std::to_string(r.room_id) + " is used twice");
        const std::string type = f.text("type", "group");
        if (type == "group") r.type = RoomType::group;
        else if (type == "direct") r.type = RoomType::direct;
        else if (type == "my") r.type = RoomType::my;
        else fail(f.at("type"), "\"" + type + "\" is not a room type: group, direct or my");
        r.name = f.text("name", r.type == RoomType::my ? std::optional<std::string>("My Chat") : std::nullopt);
        r.description = f.text("description", "");
        r.icon_preset = f.text("icon_preset", r.type == RoomType::group ? "group" : "");
        r.sticky = f.boolean("sticky", false);
        const json& members = f.list("members", true);
        std::vector<std::int64_t> unread;
        for (std::size_t i = 0; i < members.size(); ++i) {
            Fields m(members[i], item(f.at("members"), i), {"account_id", "role", "unread"});
            const AccountId id = account_ref(m, "account_id");
            if (r.members.count(id)) fail(m.at("account_id"), std::to_string(id) + " is a member twice");
            const std::string role = m.text("role", "member");
            const auto parsed = parse_room_role(role);
            if (!parsed) fail(m.at("role"), "\"" + role + "\" is not a role: admin, member or readonly");
            r.members[id] = Membership{*parsed, 0, 0};
            unread.push_back(m.integer("unread", 0, 0, kMaxMessagesPerRoom));
        }
        const std::size_t want = r.type == RoomType::my ? 1 : r.type == RoomType::direct ? 2 : 0;
        if (want && members.size() != want) {
            fail(f.at("members"), "a " + type + " room has exactly " + std::to_string(want) + " member" +
                                      (want == 1 ? "" : "s"));
        }
        if (members.empty()) fail(f.at("members"), "is empty: a room has at least one member");
        const json& messages = f.list("messages");
        if (messages.size() > kMaxMessagesPerRoom) {
            fail(f.at("messages"), "holds more than the sandbox keeps per room (" +
                                       std::to_string(kMaxMessagesPerRoom) + ")");
        }
        Room& room = chat_.add_room(std::move(r));
        for (std::size_t i = 0; i < messages.size(); ++i) read_message(room, messages[i], item(f.at("messages"), i));
        if (room.messages.empty()) room.last_update_time = now_;
        for (std::size_t i = 0; i < members.size(); ++i) {
            ChatModel::set_unread(room, members[i]["account_id"].get<AccountId>(), unread[i]);
        }
        const json& files = f.list("files");
        for (std::size_t i = 0; i < files.size(); ++i) read_file(room, files[i], item(f.at("files"), i));
        const json& tasks = f.list("tasks");
        for (std::size_t i = 0; i < tasks.size(); ++i) read_task(room, tasks[i], item(f.at("tasks"), i));
        if (f.has("link")) {
            Fields l(j["link"], f.at("link"), {"code", "description", "need_acceptance"});
            InviteLink link;
            link.code = l.text("code");
            if (link.code.empty() || link.code.size() > 50 ||
                !std::all_of(link.code.begin(), link.code.end(), [](char c) {
                    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
                })) {
                fail(l.at("code"), "must be 1 to 50 of a-z, 0-9, - and _");
            }
            if (!link_codes_.insert(link.code).second) fail(l.at("code"), "is another room's link code");
            link.description = l.text("description", "");
            link.need_acceptance = l.boolean("need_acceptance", true);
            room.link = std::move(link);
        }
    }

    void read_message(Room& room, const json& j, const std::string& path) {
        Fields f(j, path, {"message_id", "account_id", "body", "ago", "edited_ago"});
        Message m;
        m.message_id = f.text("message_id", "");
        if (!m.message_id.empty()) {
            const bool digits = m.message_id.size() <= 19 && m.message_id[0] != '0' &&
                                std::all_of(m.message_id.begin(), m.message_id.end(),
                                            [](char c) { return c >= '0' && c <= '9'; });
            if (!digits) fail(f.at("message_id"), "must be a decimal string of 1 to 19 digits, not starting with 0");
            const std::uint64_t seq = std::stoull(m.message_id);
            if (seq <= last_seq_in_room(room)) {
                fail(f.at("message_id"), "must be larger than the room's previous message_id (oldest first)");
            }
            if (!message_ids_.insert(seq).second) fail(f.at("message_id"), "is used twice");
        }
        m.account_id = account_ref(f, "account_id");
        m.body = f.text("body");
        if (m.body.empty() || utf8_length(m.body) > kMaxBodyChars) {
            fail(f.at("body"), "must be 1 to " + std::to_string(kMaxBodyChars) + " characters");
        }
        const std::int64_t ago = f.integer("ago", 0, 0, kMaxId);
        if (!room.messages.empty() && now_ - ago < room.messages.back().send_time) {
            fail(f.at("ago"), "is larger than the previous message's: messages are listed oldest first");
        }
        m.send_time = now_ - ago;
        if (f.has("edited_ago")) {
            const std::int64_t edited = f.integer("edited_ago", std::nullopt, 0, ago);
            m.update_time = now_ - edited;
        }
        const Message& added = chat_.append_message(room, std::move(m));
        message_ids_.insert(std::stoull(added.message_id));
    }

    static std::uint64_t last_seq_in_room(const Room& room) {
        return room.messages.empty() ? 0 : std::stoull(room.messages.back().message_id);
    }

    // "message": the index of one of the room's messages; absent = the newest.
    std::string message_ref(const Room& room, const Fields& f) {
        if (!f.has("message")) return room.messages.empty() ? std::string() : room.messages.back().message_id;
        if (room.messages.empty()) fail(f.at("message"), "the room has no messages to point to");
        const auto index = f.integer("message", std::nullopt, 0, static_cast<std::int64_t>(room.messages.size()) - 1);
        return room.messages[static_cast<std::size_t>(index)].message_id;
    }

    void read_file(Room& room, const json& j, const std::string& path) {
        Fields f(j, path, {"file_id", "account_id", "filename", "filesize", "ago", "message"});
        FileRecord file;
        file.file_id = f.integer("file_id", next_file_id_, 1, kMaxId);
        if (!file_ids_.insert(file.file_id).second) fail(f.at("file_id"), "is used twice");
        next_file_id_ = std::max(next_file_id_, file.file_id + 1);
        file.account_id = account_ref(f, "account_id");
        file.filename = f.text("filename");
        if (file.filename.empty() || file.filename.find('/') != std::string::npos) {
            fail(f.at("filename"), "must be a file name without '/'");
        }
        file.filesize = f.integer("filesize", 1024, 0, static_cast<std::int64_t>(kMaxUploadFileBytes));
        file.upload_time = now_ - f.integer("ago", 0, 0, kMaxId);
        file.message_id = message_ref(room, f);
        room.files.push_back(std::move(file));
    }

    void read_task(Room& room, const json& j, const std::string& path) {
        Fields f(j, path, {"task_id", "assignee", "assigned_by", "body", "limit_time", "limit_type", "done", "message"});
        Task t;
        t.task_id = f.integer("task_id", 0, 0, kMaxId);
        if (t.task_id != 0 && !task_ids_.insert(t.task_id).second) fail(f.at("task_id"), "is used twice");
        t.room_id = room.room_id;
        t.assignee = account_ref(f, "assignee");
        if (!ChatModel::membership(room, t.assignee)) fail(f.at("assignee"), "must be a member of this room");
        t.assigned_by = account_ref(f, "assigned_by");
        t.body = f.text("body");
        if (t.body.empty() || utf8_length(t.body) > kMaxBodyChars) {
            fail(f.at("body"), "must be 1 to " + std::to_string(kMaxBodyChars) + " characters");
        }
        t.limit_time = f.integer("limit_time", 0, 0, kMaxId);
        t.limit_type = f.text("limit_type", t.limit_time ? "date" : "none");
        if (t.limit_type != "none" && t.limit_type != "date" && t.limit_type != "time") {
            fail(f.at("limit_type"), "\"" + t.limit_type + "\" is not a limit type: none, date or time");
        }
        t.done = f.boolean("done", false);
        t.message_id = message_ref(room, f);
        if (++task_count_ > kMaxTasks) fail(path, "one task too many: the sandbox keeps " + std::to_string(kMaxTasks));
        const std::int64_t id = chat_.add_task(std::move(t));
        task_ids_.insert(id);
    }

    // Every account has its own "my chat": the fixture's room of type my
    // whose member it is, or a new empty one.
    void give_my_rooms() {
        std::map<AccountId, RoomId> mine;
        for (const auto& [id, account] : chat_.accounts()) {
            for (const Room* room : chat_.rooms_of(id)) {
                if (room->type == RoomType::my && !mine.count(id)) mine[id] = room->room_id;
            }
        }
        std::vector<Account> updated;
        for (const auto& [id, account] : chat_.accounts()) {
            Account a = account;
            if (mine.count(id)) {
                a.my_room_id = mine[id];
            } else {
                Room r;
                r.room_id = next_room_id_++;
                r.name = "My Chat";
                r.type = RoomType::my;
                r.icon_preset = "meeting";
                r.last_update_time = now_;
                r.members[id] = Membership{RoomRole::admin, 0, 0};
                a.my_room_id = chat_.add_room(std::move(r)).room_id;
            }
            updated.push_back(std::move(a));
        }
        for (Account& a : updated) chat_.add_account(std::move(a));
    }

    std::int64_t now_;
    ChatModel chat_;
    std::set<std::string> logins_, tokens_, link_codes_;
    std::set<std::uint64_t> message_ids_;
    std::set<std::int64_t> file_ids_, task_ids_;
    std::size_t task_count_ = 0;
    RoomId next_room_id_ = 3000;
    std::int64_t next_file_id_ = 9001;
};

}  // namespace

Result<ChatModel, std::string> load_fixture(std::string_view text, std::string_view file_name, std::int64_t now) {
    const std::string where = "fixture " + std::string(file_name) + ": ";
    const std::string remedy = " (the schema is in docs/sandbox.md, \"Fixtures\")";
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
        JsonErrorAt at;  // parse again for where it went wrong (the build has no JSON exceptions)
        json::sax_parse(text, &at);
        return Err{where + "not valid JSON: " + at.message + remedy};
    }
    try {
        return Loader(now).run(doc);
    } catch (const SchemaError& e) {
        return Err{where + (e.field.empty() ? std::string() : e.field + ": ") + e.problem + remedy};
    }
}

Result<ChatModel, std::string> load_fixture_file(const std::string& path, std::int64_t now) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Err{"fixture " + path + ": cannot be read (does it exist, and may this user read it?)"};
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(std::max<std::streamoff>(in.tellg(), 0));
    if (size > kMaxFixtureBytes) {
        return Err{"fixture " + path + ": larger than " + std::to_string(kMaxFixtureBytes >> 20) + " MiB"};
    }
    in.seekg(0);
    std::string text(size, '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    return load_fixture(text, path, now);
}

}  // namespace roomkey::sandbox
