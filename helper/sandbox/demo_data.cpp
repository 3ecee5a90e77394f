// demo_data.cpp: the sandbox's seeded demo data set (documented in
// docs/sandbox.md). Passwords and API tokens here are demo values only.
#include "sandbox/chat_model.hpp"

namespace roomkey::sandbox {

namespace {

Account demo_account(AccountId id, std::string name, std::string mail, std::string password, std::string token,
                     std::string title) {
    Account a;
    a.account_id = id;
    a.name = std::move(name);
    a.login_mail = std::move(mail);
    a.password = std::move(password);
    a.api_token = std::move(token);
    a.chatwork_id = "";
    a.organization_name = "Example Corp.";
    a.department = "Engineering";
    a.title = std::move(title);
    a.introduction = "Demo account of the roomkey sandbox.";
    a.my_room_id = 2000 + (id - 1000) * 10 - 9;  // 2001, 2011, 2021, 2031
    return a;
}

Room my_room(const Account& a) {
    Room r;
    r.room_id = a.my_room_id;
    r.name = "My Chat";
    r.type = RoomType::my;
    r.icon_preset = "meeting";
    r.members[a.account_id] = Membership{RoomRole::admin, 0, 0};
    return r;
}

}  // namespace

ChatModel ChatModel::demo(std::int64_t now) {
    ChatModel m;
    m.add_account(demo_account(1001, "Alice Example", "alice@example.com", "alice-demo",
                               "sandbox-api-token-alice-1001", "Team lead"));
    m.add_account(demo_account(1002, "Bob Example", "bob@example.com", "bob-demo",
                               "sandbox-api-token-bob-1002", "Developer"));
    m.add_account(demo_account(1003, "Carol Example", "carol@example.com", "carol-demo",
                               "sandbox-api-token-carol-1003", "Designer"));
    m.add_account(demo_account(1004, "Dave Outsider", "dave@example.com", "dave-demo",
                               "sandbox-api-token-dave-1004", "Consultant"));
    for (const auto& [id, a] : m.accounts()) {
        Room r = my_room(a);
        r.last_update_time = now - 86400;
        m.add_room(std::move(r));
    }
    m.add_contact(1001, 1002);
    m.add_contact(1001, 1003);
    m.add_contact(1002, 1003);
    m.add_incoming_request(1004, 1001, "Hello Alice, I would like to add you as a contact.");

    Room project;
    project.room_id = 2100;
    project.name = "Roomkey project";
    project.type = RoomType::group;
    project.description = "Planning and status of the roomkey project.";
    project.icon_preset = "group";
    project.sticky = true;
    project.members[1001] = Membership{RoomRole::admin, 0, 0};
    project.members[1002] = Membership{RoomRole::member, 0, 0};
    project.members[1003] = Membership{RoomRole::readonly, 0, 0};
    Room& p = m.add_room(std::move(project));
    m.post_message(p, 1001, "Welcome to the roomkey project room.", false, now - 7200);
    m.post_message(p, 1002, "[To:1001] Alice, the sandbox is up. Can you review the consent screen?", false,
                   now - 3600);
    m.post_message(p, 1002, "The build is green on both targets.", false, now - 1800);
    m.mark_read(p, 1002);
    m.mark_read(p, 1003);
    p.files.push_back(FileRecord{9001, 1002, p.messages.back().message_id, "design-notes.pdf", 48213, now - 1800});
    const auto ids = m.add_tasks(p, 1002, {1001}, "Review the consent screen wording", now + 86400, "date",
                                 now - 1700);
    (void)ids;
    const auto done = m.add_tasks(p, 1001, {1002}, "Set up the CI pipeline", 0, "none", now - 1600);
    for (auto id : done) {
        if (Task* t = m.task(id)) t->done = true;
    }

    Room random;
    random.room_id = 2101;
    random.name = "Random";
    random.type = RoomType::group;
    random.description = "Anything goes.";
    random.icon_preset = "magcup";  // one of the RAML's 17 presets (there is no "cafe")
    random.members[1001] = Membership{RoomRole::member, 0, 0};
    random.members[1002] = Membership{RoomRole::admin, 0, 0};
    Room& r = m.add_room(std::move(random));
    m.post_message(r, 1002, "Lunch at noon?", false, now - 600);

    Room direct;
    direct.room_id = 2200;
    direct.name = "Bob Example";
    direct.type = RoomType::direct;
    direct.icon_preset = "";
    direct.members[1001] = Membership{RoomRole::member, 0, 0};
    direct.members[1002] = Membership{RoomRole::member, 0, 0};
    Room& d = m.add_room(std::move(direct));
    m.post_message(d, 1001, "Hi Bob!", false, now - 5000);
    m.post_message(d, 1002, "Hi Alice, welcome to the sandbox.", false, now - 4900);
    m.mark_read(d, 1001);
    return m;
}

}  // namespace roomkey::sandbox
