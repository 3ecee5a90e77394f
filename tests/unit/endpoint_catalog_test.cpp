// endpoint_catalog_test.cpp: the endpoint catalog and the matcher agree both
// ways, every entry needs a spec 5.5 scope, and its parameters are consistent
// with its template and method.
#include "roomkey/endpoint_catalog.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "roomkey/scopes.hpp"

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace endpoint_catalog_test {
namespace {

// Distinct valid ids per placeholder, so a swapped room/item id would show.
std::string sample_id(std::string_view name) {
    if (name == "room_id") return "2100";
    if (name == "message_id") return "9007199254740993123";  // above 2^53 on purpose
    return "42";
}

std::string instantiate(const EndpointInfo& info) {
    return fill_path_template(info.path, sample_id);
}

TEST(EndpointCatalog, HasExactlyOneEntryPerEndpoint) {
    std::map<Endpoint, int> seen;
    for (const EndpointInfo& info : endpoint_catalog()) ++seen[info.endpoint];
    for (Endpoint e : kAllEndpoints) {
        EXPECT_EQ(seen[e], 1) << to_string(e);
        EXPECT_EQ(endpoint_info(e).endpoint, e) << to_string(e);
    }
    EXPECT_EQ(endpoint_catalog().size(), std::size(kAllEndpoints));
}

TEST(EndpointCatalog, EveryEntryInstantiatedMatchesToThatEntryOnly) {
    for (const EndpointInfo& info : endpoint_catalog()) {
        const std::string path = instantiate(info);
        const auto match = match_endpoint(info.method, path);
        ASSERT_TRUE(match) << to_string(info.method) << " " << path;
        EXPECT_EQ(match->endpoint, info.endpoint) << path;
        const bool has_room = info.path.find("{room_id}") != std::string_view::npos;
        EXPECT_EQ(match->room_id, has_room ? "2100" : "") << path;
        // No other entry of the same method accepts that path: one matched endpoint, one entry.
        int matching = 0;
        for (const EndpointInfo& other : endpoint_catalog()) {
            if (other.method == info.method && match_path_template(other.path, path)) ++matching;
        }
        EXPECT_EQ(matching, 1) << to_string(info.method) << " " << path;
    }
}

TEST(EndpointCatalog, EveryMatchedEndpointIsTheEntryWhoseTemplateFits) {
    // The other way round: whatever the matcher accepts, across methods and a
    // set of paths built from every template and a few near misses, is the
    // catalog entry with that method whose template the path fills.
    std::set<std::string> paths;
    for (const EndpointInfo& info : endpoint_catalog()) {
        paths.insert(instantiate(info));
        paths.insert(instantiate(info) + "/");
        paths.insert(instantiate(info) + "/status");
        paths.insert(fill_path_template(info.path, [](std::string_view) { return std::string("read"); }));
        paths.insert(fill_path_template(info.path, [](std::string_view) { return std::string("007"); }));
    }
    int matched = 0;
    for (const std::string& path : paths) {
        for (Method m : {Method::Get, Method::Post, Method::Put, Method::Delete}) {
            const auto match = match_endpoint(m, path);
            const EndpointInfo* fitting = nullptr;
            for (const EndpointInfo& info : endpoint_catalog()) {
                if (info.method == m && match_path_template(info.path, path)) fitting = &info;
            }
            if (!match) {
                EXPECT_EQ(fitting, nullptr) << to_string(m) << " " << path;
                continue;
            }
            ++matched;
            ASSERT_NE(fitting, nullptr) << to_string(m) << " " << path;
            EXPECT_EQ(match->endpoint, fitting->endpoint) << to_string(m) << " " << path;
            EXPECT_EQ(method_of(match->endpoint), m);
        }
    }
    EXPECT_GE(matched, static_cast<int>(std::size(kAllEndpoints)));
}

TEST(EndpointCatalog, EveryScopeIsASpecScopeAndAggregatesGrantIt) {
    std::set<std::string> leaves_used;
    for (const EndpointInfo& info : endpoint_catalog()) {
        const ScopeInfo* scope = find_scope(info.scope);
        ASSERT_NE(scope, nullptr) << to_string(info.endpoint) << " needs unknown scope " << info.scope;
        EXPECT_FALSE(scope->aggregate()) << to_string(info.endpoint) << ": name the leaf scope";
        EXPECT_EQ(required_scope(info.endpoint), info.scope);
        leaves_used.insert(std::string(info.scope));
        // The aggregates of spec 5.5 grant it; the opposite direction does not.
        const bool room = info.scope.substr(0, 5) == "rooms";
        const bool read = info.scope.find(":read") != std::string_view::npos;
        const std::string aggregate = room ? (read ? "rooms.all:read" : "rooms.all:write")
                                      : info.scope.substr(0, 5) == "users" ? "users.all:read"
                                                                           : std::string(info.scope);
        EXPECT_TRUE(grant_allows({aggregate}, info.endpoint)) << aggregate << " " << to_string(info.endpoint);
        if (room) {
            EXPECT_TRUE(grant_allows({"rooms.all:read_write"}, info.endpoint));
        }
        EXPECT_FALSE(grant_allows({std::string(kOfflineAccessScope)}, info.endpoint));
    }
    // Every leaf scope of spec 5.5 opens at least one endpoint (or the catalog misses one).
    for (const ScopeInfo& scope : scope_catalog()) {
        if (scope.aggregate() || scope.name == kOfflineAccessScope) continue;
        EXPECT_TRUE(leaves_used.count(std::string(scope.name))) << scope.name << " opens no endpoint";
    }
}

TEST(EndpointCatalog, ParametersFitTheTemplateAndTheMethod) {
    for (const EndpointInfo& info : endpoint_catalog()) {
        std::set<std::string> names;
        std::string path_params;
        for (const EndpointParam& p : info.params) {
            EXPECT_TRUE(names.insert(std::string(p.name)).second) << to_string(info.endpoint) << " repeats " << p.name;
            if (p.where == ParamWhere::path) {
                EXPECT_TRUE(p.required && p.type == ParamType::id) << p.name;
                path_params += "{" + std::string(p.name) + "}";
            }
            // Query for GET and DELETE, form for POST and PUT (the console relies on it).
            if (p.where == ParamWhere::query) {
                EXPECT_TRUE(info.method == Method::Get || info.method == Method::Delete) << to_string(info.endpoint);
            }
            if (p.where == ParamWhere::form) {
                EXPECT_TRUE(info.method == Method::Post || info.method == Method::Put || info.method == Method::Delete)
                    << to_string(info.endpoint) << " " << p.name;
            }
            EXPECT_EQ(p.type == ParamType::choice, !p.allowed.empty()) << to_string(info.endpoint) << " " << p.name;
            EXPECT_EQ(find_param(info, p.name), &p);
        }
        std::string in_template;
        for (std::size_t open = info.path.find('{'); open != std::string_view::npos;
             open = info.path.find('{', open + 1)) {
            in_template += std::string(info.path.substr(open, info.path.find('}', open) - open + 1));
        }
        EXPECT_EQ(path_params, in_template) << to_string(info.endpoint) << ": path parameters in path order";
    }
}

TEST(EndpointCatalog, RoomPostsAreTheTwoSpecPosts) {
    for (const EndpointInfo& info : endpoint_catalog()) {
        const bool expected =
            info.endpoint == Endpoint::room_messages_post || info.endpoint == Endpoint::room_tasks_post;
        EXPECT_EQ(info.room_post, expected) << to_string(info.endpoint);
        EXPECT_EQ(is_room_post(info.endpoint), expected);
    }
}

TEST(EndpointCatalog, EveryDeleteIsDestructiveAndNoGetIs) {
    for (const EndpointInfo& info : endpoint_catalog()) {
        if (info.method == Method::Delete) {
            EXPECT_TRUE(info.destructive) << to_string(info.endpoint);
        }
        if (info.method == Method::Get) {
            EXPECT_FALSE(info.destructive) << to_string(info.endpoint);
        }
    }
    EXPECT_TRUE(endpoint_info(Endpoint::room_members_put).destructive) << "replaces the whole member list";
    EXPECT_FALSE(endpoint_info(Endpoint::room_messages_read_put).destructive);
}

TEST(EndpointCatalog, ChoiceValuesAreTheSandboxs) {
    const EndpointParam* force = find_param(endpoint_info(Endpoint::room_messages_get), "force");
    ASSERT_NE(force, nullptr);
    EXPECT_EQ(force->where, ParamWhere::query);
    EXPECT_TRUE(is_allowed_value(*force, "0"));
    EXPECT_TRUE(is_allowed_value(*force, "1"));
    EXPECT_FALSE(is_allowed_value(*force, "2"));
    EXPECT_FALSE(is_allowed_value(*force, ""));
    EXPECT_FALSE(is_allowed_value(*force, "0|1"));
    const EndpointParam* status = find_param(endpoint_info(Endpoint::room_task_status_put), "body");
    ASSERT_NE(status, nullptr);
    EXPECT_EQ(status->where, ParamWhere::form);
    EXPECT_TRUE(status->required);
    EXPECT_TRUE(is_allowed_value(*status, "done"));
    EXPECT_TRUE(is_allowed_value(*status, "open"));
    EXPECT_FALSE(is_allowed_value(*status, "Done"));
    EXPECT_EQ(find_param(endpoint_info(Endpoint::me), "force"), nullptr);
}

TEST(EndpointCatalog, FindEndpointByTemplate) {
    const EndpointInfo* info = find_endpoint(Method::Put, "/rooms/{room_id}/tasks/{task_id}/status");
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->endpoint, Endpoint::room_task_status_put);
    EXPECT_EQ(find_endpoint(Method::Get, "/rooms/{room_id}/tasks/{task_id}/status"), nullptr);
    EXPECT_EQ(find_endpoint(Method::Get, "/rooms/2100"), nullptr) << "a template, not a concrete path";
}

TEST(MatchPathTemplate, RefusesWhatTheAllowlistRefuses) {
    const std::string_view t = "/rooms/{room_id}/messages";
    EXPECT_TRUE(match_path_template(t, "/rooms/1/messages"));
    for (const char* path : {"/rooms/1/messages/", "/rooms//messages", "/rooms/01/messages", "/rooms/1/messages?x=1",
                             "/rooms/%31/messages", "/rooms/../messages", "rooms/1/messages", "/rooms/1",
                             "/rooms/1/messages/2", "/rooms/123456789012345678901/messages", ""}) {
        EXPECT_FALSE(match_path_template(t, path)) << path;
    }
    const auto ids = match_path_template("/rooms/{room_id}/tasks/{task_id}/status", "/rooms/7/tasks/8/status");
    ASSERT_TRUE(ids) << "the path does not match its template";
    EXPECT_EQ(ids->room_id, "7");
    EXPECT_EQ(ids->item_id, "8");
}

// The one value rule (console and sandbox): the RAML's enums and lengths.
TEST(ParamValueProblem, IconPresetIsOneOfTheRamlsSeventeen) {
    const EndpointParam* icon = find_param(endpoint_info(Endpoint::rooms_create), "icon_preset");
    ASSERT_NE(icon, nullptr);
    for (const char* preset : {"group", "check", "document", "meeting", "event", "project", "business", "study",
                               "security", "star", "idea", "heart", "magcup", "beer", "music", "sports", "travel"}) {
        EXPECT_EQ(param_value_problem(*icon, preset), "") << preset;
    }
    EXPECT_NE(param_value_problem(*icon, "cafe"), "");
    EXPECT_EQ(endpoint_info(Endpoint::room_update).params.size(), 4u);
    EXPECT_NE(param_value_problem(*find_param(endpoint_info(Endpoint::room_update), "icon_preset"), "cafe"), "");
}

TEST(ParamValueProblem, LengthsCountCharactersNotBytes) {
    const EndpointParam* name = find_param(endpoint_info(Endpoint::rooms_create), "name");
    ASSERT_NE(name, nullptr);
    std::string japanese;
    for (int i = 0; i < 255; ++i) japanese += "\xE4\xBC\x9A";  // 会: 3 bytes, 1 character
    EXPECT_EQ(param_value_problem(*name, japanese), "");
    EXPECT_EQ(param_value_problem(*name, japanese + "x"), "name must be 1 to 255 characters (it has 256).");
    EXPECT_NE(param_value_problem(*name, ""), "");
    const EndpointParam* body = find_param(endpoint_info(Endpoint::room_messages_post), "body");
    ASSERT_NE(body, nullptr);
    EXPECT_EQ(param_value_problem(*body, std::string(65535, 'a')), "");
    EXPECT_NE(param_value_problem(*body, std::string(65536, 'a')), "");
    EXPECT_EQ(utf8_length("\xF0\x9F\x98\x80" "a"), 2u);
}

TEST(ParamValueProblem, LinkCodesAreUpTo50OfLettersDigitsUnderscoreAndDash) {
    const EndpointParam* code = find_param(endpoint_info(Endpoint::rooms_create), "link_code");
    ASSERT_NE(code, nullptr);
    EXPECT_EQ(code->type, ParamType::url_code);
    EXPECT_EQ(param_value_problem(*code, "Team_room-2"), "");
    EXPECT_NE(param_value_problem(*code, "no spaces"), "");
    EXPECT_NE(param_value_problem(*code, "sl/ash"), "");
    EXPECT_EQ(param_value_problem(*code, std::string(50, 'a')), "");
    EXPECT_NE(param_value_problem(*code, std::string(51, 'a')), "");
    EXPECT_NE(param_value_problem(*code, ""), "");
    EXPECT_NE(find_param(endpoint_info(Endpoint::room_link_put), "code"), nullptr);
}

TEST(EndpointCatalog, MarkReadTakesAnOptionalMessageIdAndUnreadARequiredOne) {
    const EndpointParam* read = find_param(endpoint_info(Endpoint::room_messages_read_put), "message_id");
    ASSERT_NE(read, nullptr);
    EXPECT_FALSE(read->required);
    const EndpointParam* unread = find_param(endpoint_info(Endpoint::room_messages_unread_put), "message_id");
    ASSERT_NE(unread, nullptr);
    EXPECT_TRUE(unread->required);
}

TEST(EndpointCatalog, OnlyTheUploadIsMultipart) {
    for (const EndpointInfo& info : endpoint_catalog()) {
        EXPECT_EQ(takes_file_part(info), info.endpoint == Endpoint::room_files_post) << to_string(info.endpoint);
    }
    const EndpointParam* file = find_param(endpoint_info(Endpoint::room_files_post), "file");
    ASSERT_NE(file, nullptr);
    EXPECT_EQ(file->type, ParamType::file);
    EXPECT_TRUE(file->required);
}

}  // namespace
}  // namespace endpoint_catalog_test
}  // namespace roomkey
