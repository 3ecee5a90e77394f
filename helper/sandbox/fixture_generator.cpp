// fixture_generator.cpp: `roomkey-sandbox generate` (see fixture_generator.hpp).
// Randomness is std::mt19937_64 (its sequence is fixed by the standard) used
// through modulo only, never a std:: distribution (those differ between
// library versions), so a seed gives the same bytes everywhere.
#include "sandbox/fixture_generator.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "roomkey/endpoint_catalog.hpp"  // utf8_length
#include "sandbox/fixture.hpp"

namespace roomkey::sandbox {

namespace {

using nlohmann::json;

constexpr std::int64_t kAlice = 1001;
constexpr std::uint64_t kFirstMessageId = 1600000000000000001ULL;

const char* const kFamily[] = {"佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤",
                               "Smith", "García", "Müller", "Nguyen", "Kowalski", "Silva", "Okafor", "Larsen"};
const char* const kGiven[] = {"花子", "太郎", "陽菜", "蓮", "美咲", "大翔", "Emma", "Liam", "Sofia", "Noah",
                              "Aiko", "Kenji", "Yuki", "Ren", "Mia", "Lucas"};
const char* const kTopics[] = {"リリース準備", "Design review", "営業チーム", "Backend", "採用 2027", "QA",
                               "Marketing 📣", "経理・総務", "Infra on-call", "新機能の相談", "Mobile app",
                               "顧客サポート", "Data platform", "社内イベント 🎉", "Security", "翻訳チーム"};
// Filler sentences: Japanese, English and emoji, as a real team writes them.
const char* const kSentences[] = {
    "お疲れさまです。", "本日の進捗を共有します。", "レビューありがとうございます！",
    "確認しました、問題ありません👍", "明日の会議は10時からに変更になりました。", "資料を更新しておきました📄",
    "Thanks, that makes sense.", "I pushed a fix for the flaky test.", "Can we move this to next sprint?",
    "The deploy finished without errors ✅", "Let me check and get back to you.", "LGTM 🚀",
    "この件、誰か詳しい方いますか？", "ログを見る限りタイムアウトが原因のようです。", "了解です🙆",
    "We should document this in the wiki.", "週末の障害対応ありがとうございました🙏", "Looks good to me, merging now.",
    "仕様書の3章を参照してください。", "The numbers for October are in the sheet 📊"};
const char* const kCode[] = {"git rebase -i origin/main", "SELECT id, name FROM rooms WHERE unread > 0;",
                             "curl -sS https://api.example.com/v2/me", "for (auto& m : messages) draw(m);",
                             "npm run build -- --mode production", "kubectl rollout restart deploy/api"};

class Generator {
public:
    explicit Generator(const GenerateOptions& o) : o_(o), rng_(o.seed) {}

    json run() {
        json accounts = json::array();
        const char* const demo[][4] = {{"Alice Example", "alice", "Team lead", "1001"},
                                       {"Bob Example", "bob", "Developer", "1002"},
                                       {"Carol Example", "carol", "Designer", "1003"},
                                       {"Dave Outsider", "dave", "Consultant", "1004"}};
        for (const auto& d : demo) {
            const std::string id = d[3];
            accounts.push_back({{"account_id", std::stoll(id)}, {"name", d[0]},
                                {"login", std::string(d[1]) + "@example.com"}, {"password", std::string(d[1]) + "-demo"},
                                {"api_token", "sandbox-api-token-" + std::string(d[1]) + "-" + id},
                                {"organization_name", "Example Corp."}, {"title", d[2]}});
            names_[std::stoll(id)] = d[0];
        }
        for (int i = 0; i < o_.accounts; ++i) {
            const std::int64_t id = 1101 + i;
            const std::string name = std::string(kFamily[pick(std::size(kFamily))]) + " " + kGiven[pick(std::size(kGiven))];
            names_[id] = name;
            others_.push_back(id);
            accounts.push_back({{"account_id", id}, {"name", name},
                                {"login", "member" + std::to_string(id) + "@example.com"}, {"password", "member-demo"},
                                {"api_token", "sandbox-api-token-member-" + std::to_string(id)},
                                {"organization_name", "Example Corp."}});
        }
        others_.insert(others_.begin(), {1002, 1003});
        json contacts = json::array({1002, 1003});
        for (std::size_t i = 2; i < std::min<std::size_t>(others_.size(), 22); ++i) contacts.push_back(others_[i]);
        accounts[0]["contacts"] = contacts;

        json rooms = json::array();
        rooms.push_back({{"room_id", 2001}, {"type", "my"}, {"members", json::array({{{"account_id", kAlice}}})},
                         {"messages", json::array({message(2001, kAlice, "自分用メモ📝 Notes to self.", 86400)})}});
        const int others = std::max(0, o_.rooms - 1);
        // Which rooms are unread and mentioned: the long room first, then a shuffle.
        std::vector<int> order(static_cast<std::size_t>(others));
        for (int i = 0; i < others; ++i) order[static_cast<std::size_t>(i)] = i;
        for (std::size_t i = order.size(); i > 2; --i) std::swap(order[i - 1], order[1 + pick(i - 1)]);
        std::vector<int> unread(order.size(), 0), mention(order.size(), 0);
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (static_cast<int>(k) < o_.unread_rooms) unread[static_cast<std::size_t>(order[k])] = 1;
            if (static_cast<int>(k) < std::min(o_.mention_rooms, o_.unread_rooms)) {
                mention[static_cast<std::size_t>(order[k])] = 1;
            }
        }
        int tasks_left = o_.tasks;
        for (int i = 0; i < others; ++i) {
            const std::size_t u = static_cast<std::size_t>(i);
            const int tasks_here = (tasks_left + others - i - 1) / (others - i);  // spread evenly
            rooms.push_back(room(2002 + i, i == 0, unread[u] != 0, mention[u] != 0, tasks_here));
            tasks_left -= tasks_here;
        }
        json doc = {{"roomkey_sandbox_fixture", kFixtureVersion}, {"accounts", accounts}, {"rooms", rooms}};
        return doc;
    }

private:
    std::size_t pick(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }

    json message(std::int64_t room_id, std::int64_t author, std::string body, std::int64_t ago) {
        const std::string id = std::to_string(next_id_++);
        room_messages_[room_id].push_back({id, author});
        return {{"message_id", id}, {"account_id", author}, {"body", std::move(body)}, {"ago", ago}};
    }

    // Lengths around the median: log-normal quantiles (sigma 1.1 puts a
    // hundred of them near 57,000 characters at a median of 340), shuffled,
    // the longest set to longest_chars.
    std::vector<int> lengths(int n, bool with_longest) {
        std::vector<int> out;
        for (int i = 0; i < n; ++i) {
            const double q = (i + 0.5) / n;
            double lo = -8, hi = 8;  // the standard normal's quantile by bisection on erfc
            for (int k = 0; k < 60; ++k) {
                const double mid = (lo + hi) / 2;
                (0.5 * std::erfc(-mid / std::sqrt(2.0)) < q ? lo : hi) = mid;
            }
            const double len = o_.median_chars * std::exp(1.1 * lo);
            out.push_back(std::clamp(static_cast<int>(std::lround(len)), 12, o_.longest_chars));
        }
        if (with_longest && !out.empty()) out.back() = o_.longest_chars;
        for (std::size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[pick(i)]);
        return out;
    }

    // A body of exactly `length` characters: a notation block, then filler.
    std::string body(std::int64_t room_id, int length, bool may_mention_alice, std::int64_t author) {
        const auto& earlier = room_messages_[room_id];
        auto someone = [&] {
            std::int64_t id = others_[pick(others_.size())];
            if (id == author) id = others_[0] == author ? others_[1] : others_[0];
            return id;
        };
        std::int64_t to = may_mention_alice && pick(3) == 0 ? kAlice : someone();
        if (to == author) to = someone();
        std::string head;
        switch (pick(10)) {
            case 0: case 1: case 2: head = "[To:" + std::to_string(to) + "]" + names_[to] + "さん\n"; break;
            case 3: case 4:
                if (!earlier.empty()) {
                    const auto& [mid, aid] = earlier[earlier.size() - 1 - pick(std::min<std::size_t>(earlier.size(), 5))];
                    if (aid != author && (aid != kAlice || may_mention_alice)) {
                        head = "[rp aid=" + std::to_string(aid) + " to=" + std::to_string(room_id) + "-" + mid + "]" +
                               names_[aid] + "さん\n";
                    }
                }
                break;
            case 5:
                head = "[qt][qtmeta aid=" + std::to_string(someone()) + " time=1790000000]" +
                       kSentences[pick(std::size(kSentences))] + "[/qt]\n";
                break;
            case 6:
                head = std::string("[info][title]") + kTopics[pick(std::size(kTopics))] + "[/title]" +
                       kSentences[pick(std::size(kSentences))] + "[/info]\n";
                break;
            case 7: head = std::string("[code]") + kCode[pick(std::size(kCode))] + "\n" + kCode[pick(std::size(kCode))] + "[/code]\n"; break;
            default: break;
        }
        if (static_cast<int>(utf8_length(head)) + 8 > length) head.clear();
        std::string text = head;
        int have = static_cast<int>(utf8_length(text));
        while (have < length) {
            std::string s = kSentences[pick(std::size(kSentences))];
            if (static_cast<unsigned char>(s[0]) < 0x80) s += ' ';  // English sentences end in a space
            if (pick(8) == 0) s += "\n";
            const int n = static_cast<int>(utf8_length(s));
            if (have + n > length) {  // cut at a character boundary
                std::size_t bytes = 0;
                for (int k = 0; k < length - have; ++k) {
                    ++bytes;
                    while (bytes < s.size() && (static_cast<unsigned char>(s[bytes]) & 0xC0) == 0x80) ++bytes;
                }
                s.resize(bytes);
            }
            text += s;
            have += static_cast<int>(utf8_length(s));
        }
        // No trailing space or newline: the API trims none, but a cut may leave one.
        if (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.back() = '.';
        return text;
    }

    json room(std::int64_t room_id, bool is_long, bool unread, bool mention, int tasks) {
        const bool direct = !is_long && pick(10) == 0;
        std::vector<std::int64_t> members{kAlice};
        const std::size_t size = std::min(others_.size(), direct ? 1 : 2 + pick(is_long ? 30 : 20));
        while (members.size() < size + 1) {
            const std::int64_t id = others_[pick(others_.size())];
            if (std::find(members.begin(), members.end(), id) == members.end()) members.push_back(id);
        }
        json room_json = {{"room_id", room_id}};
        if (direct) {
            room_json["type"] = "direct";
            room_json["name"] = names_[members[1]];
        } else {
            room_json["name"] = is_long ? std::string("長い会話 Long conversation")
                                        : std::string(kTopics[pick(std::size(kTopics))]) + " #" + std::to_string(room_id);
            room_json["description"] = kSentences[pick(std::size(kSentences))];
        }
        if (pick(30) == 0 || is_long) room_json["sticky"] = true;
        const int n = is_long ? o_.messages : o_.room_messages;
        const int unread_count = unread ? std::max(1, std::min(n, 1 + static_cast<int>(pick(is_long ? 20 : 8)))) : 0;
        const std::vector<int> sizes = lengths(n, is_long);
        json messages = json::array();
        std::int64_t ago = is_long ? std::int64_t{n} * 900 : 86400 * (1 + static_cast<std::int64_t>(pick(30)));
        for (int i = 0; i < n; ++i) {
            const bool in_unread = i >= n - unread_count;
            // Alice's own messages are never unread to her: the unread tail is the others'.
            std::int64_t author = members[pick(members.size())];
            if (in_unread && author == kAlice) author = members[1];
            const std::string call = mention && i == n - 1 ? "[To:1001]Alice Exampleさん\n" : "";
            const int chars = std::max(12, sizes[static_cast<std::size_t>(i)] - static_cast<int>(utf8_length(call)));
            std::string text = call + body(room_id, chars, !in_unread, author);
            messages.push_back(message(room_id, author, std::move(text), ago));
            ago -= is_long ? 900 : 1 + static_cast<std::int64_t>(pick(3000));
            ago = std::max<std::int64_t>(ago, 0);
        }
        room_json["messages"] = messages;
        json member_list = json::array();
        for (std::size_t i = 0; i < members.size(); ++i) {
            json m = {{"account_id", members[i]}, {"role", i == 0 && !direct && pick(3) == 0 ? "admin" : "member"}};
            if (i == 0 && unread_count) m["unread"] = unread_count;
            member_list.push_back(m);
        }
        room_json["members"] = member_list;
        json task_list = json::array();
        for (int t = 0; t < tasks; ++t) {
            json task = {{"assignee", kAlice}, {"assigned_by", members[members.size() > 1 ? 1 : 0]},
                         {"body", std::string(kSentences[pick(std::size(kSentences))]) + " (" + std::to_string(t + 1) + ")"}};
            if (pick(2) == 0) task["limit_time"] = 1798761600 + 86400 * static_cast<std::int64_t>(pick(60));
            task_list.push_back(task);
        }
        if (!task_list.empty()) room_json["tasks"] = task_list;
        if (is_long || pick(25) == 0) {
            room_json["files"] = json::array({{{"account_id", members.back()}, {"filename", "仕様書_v" + std::to_string(1 + pick(9)) + ".pdf"},
                                               {"filesize", 1000 + static_cast<std::int64_t>(pick(200000))}}});
        }
        return room_json;
    }

    const GenerateOptions& o_;
    std::mt19937_64 rng_;
    std::map<std::int64_t, std::string> names_;
    std::vector<std::int64_t> others_;  // accounts Alice shares rooms with
    std::map<std::int64_t, std::vector<std::pair<std::string, std::int64_t>>> room_messages_;
    std::uint64_t next_id_ = kFirstMessageId;
};

}  // namespace

std::string generate_fixture(const GenerateOptions& options) { return Generator(options).run().dump(1) + "\n"; }

std::string generate_usage() {
    return R"(usage: roomkey-sandbox generate [options]  (writes a fixture for --fixture)

  --rooms N           Alice's rooms, her "my chat" included (default 300)
  --messages N        messages in the long room "長い会話 Long conversation" (default 100)
  --room-messages N   messages in each other room (default 12)
  --unread-rooms N    rooms with unread messages for Alice (default 216)
  --mention-rooms N   of those, rooms whose unread messages mention her (default 52)
  --tasks N           open tasks assigned to Alice (default 101)
  --accounts N        accounts besides the 4 demo ones (default 60)
  --median-chars N    median message length in characters (default 340)
  --longest-chars N   the long room's longest message (default 3000)
  --seed N            the same seed writes the same bytes (default 1)
  --out FILE          write there instead of stdout

Sign in as the demo accounts (alice@example.com / alice-demo, ...).
)";
}

Result<GenerateCommand, std::string> parse_generate_args(const std::vector<std::string>& args) {
    GenerateCommand cmd;
    GenerateOptions& o = cmd.options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--help" || arg == "-h") {
            cmd.action = GenerateAction::help;
            continue;
        }
        if (i + 1 >= args.size()) return Err{"generate: unknown argument '" + arg + "' or it needs a value (try generate --help)"};
        const std::string& v = args[++i];
        if (arg == "--out") {
            o.out = v;
            continue;
        }
        std::uint64_t n = 0;
        const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec != std::errc() || ptr != v.data() + v.size()) return Err{"generate: " + arg + " needs a whole number"};
        const std::pair<const char*, int*> ints[] = {
            {"--rooms", &o.rooms}, {"--messages", &o.messages}, {"--room-messages", &o.room_messages},
            {"--unread-rooms", &o.unread_rooms}, {"--mention-rooms", &o.mention_rooms}, {"--tasks", &o.tasks},
            {"--accounts", &o.accounts}, {"--median-chars", &o.median_chars}, {"--longest-chars", &o.longest_chars}};
        if (arg == "--seed") {
            o.seed = n;
            continue;
        }
        const auto it = std::find_if(std::begin(ints), std::end(ints), [&](const auto& p) { return arg == p.first; });
        if (it == std::end(ints)) return Err{"generate: unknown argument '" + arg + "' (try generate --help)"};
        if (n > 5000) return Err{"generate: " + arg + " must be at most 5000"};
        *it->second = static_cast<int>(n);
    }
    if (o.rooms < 2 || o.rooms > static_cast<int>(kMaxRooms) - o.accounts - 4) {
        return Err{"generate: --rooms must be from 2 to " + std::to_string(kMaxRooms - static_cast<std::size_t>(o.accounts) - 4)};
    }
    if (o.accounts < 2) return Err{std::string("generate: --accounts must be at least 2")};
    if (o.median_chars < 12 || o.longest_chars < o.median_chars || o.longest_chars > 65535) {
        return Err{std::string("generate: --median-chars from 12 up to --longest-chars, at most 65535")};
    }
    if (o.messages < 1 || o.room_messages < 1) return Err{std::string("generate: --messages and --room-messages must be at least 1")};
    return cmd;
}

}  // namespace roomkey::sandbox
