// console_call_test.cpp: the API console's checks against the endpoint
// catalog before a call is sent.
#include "roomkey/console_call.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace console_call_test {
namespace {

std::string problems_of(const Result<CheckedCall, std::vector<CallProblem>>& r) {
    std::string out;
    if (!r) {
        for (const CallProblem& p : r.error()) out += p.param + ":" + std::string(to_string(p.kind)) + " ";
    }
    return out;
}

const CallProblem* problem_for(const std::vector<CallProblem>& problems, std::string_view param) {
    for (const CallProblem& p : problems) {
        if (p.param == param) return &p;
    }
    return nullptr;
}

TEST(CheckCall, TemplateWithIdsFromParams) {
    const auto r = check_call(Method::Get, "/rooms/{room_id}/messages", {{"room_id", "2100"}, {"force", "1"}});
    ASSERT_TRUE(r) << problems_of(r);
    EXPECT_EQ(r->endpoint->endpoint, Endpoint::room_messages_get);
    EXPECT_EQ(r->path, "/rooms/2100/messages");
    EXPECT_EQ(r->params, (FormFields{{"force", "1"}})) << "path parameters do not go to the query";
}

TEST(CheckCall, ConcretePath) {
    const auto r = check_call(Method::Put, "/rooms/2100/tasks/31/status", {{"body", "done"}});
    ASSERT_TRUE(r) << problems_of(r);
    EXPECT_EQ(r->endpoint->endpoint, Endpoint::room_task_status_put);
    EXPECT_EQ(r->path, "/rooms/2100/tasks/31/status");
    EXPECT_EQ(r->params, (FormFields{{"body", "done"}}));
}

TEST(CheckCall, NamesEveryProblemAtOnce) {
    const auto r = check_call(
        Method::Post, "/rooms/{room_id}/tasks",
        {{"room_id", "0123"}, {"to_ids", "101,,102"}, {"limit", "soon"}, {"limit_type", "week"}, {"colour", "red"}});
    ASSERT_FALSE(r) << "the call with five bad parameters was accepted";
    std::set<std::string> params;
    for (const CallProblem& p : r.error()) params.insert(p.param);
    EXPECT_EQ(params, (std::set<std::string>{"room_id", "to_ids", "limit", "limit_type", "colour", "body"}));
    // Each says its kind and the values its words need (the app words them).
    const std::string text = problems_of(r);
    const CallProblem* body = problem_for(r.error(), "body");
    ASSERT_NE(body, nullptr) << text;
    EXPECT_EQ(body->kind, CallProblemKind::required) << text;
    const CallProblem* limit_type = problem_for(r.error(), "limit_type");
    ASSERT_NE(limit_type, nullptr) << text;
    EXPECT_EQ(limit_type->kind, CallProblemKind::not_choice) << text;
    EXPECT_EQ(limit_type->values, "none, date, time") << text;
    const CallProblem* colour = problem_for(r.error(), "colour");
    ASSERT_NE(colour, nullptr) << text;
    EXPECT_EQ(colour->kind, CallProblemKind::unknown_param) << text;
    EXPECT_EQ(colour->call, "POST /rooms/{room_id}/tasks") << text;
    EXPECT_EQ(colour->values.rfind("room_id, body, to_ids", 0), 0u) << colour->values;
    EXPECT_EQ(problem_for(r.error(), "room_id")->kind, CallProblemKind::not_id) << text;
    EXPECT_EQ(problem_for(r.error(), "to_ids")->kind, CallProblemKind::not_id_list) << text;
    EXPECT_EQ(problem_for(r.error(), "limit")->kind, CallProblemKind::not_unix_time) << text;
}

TEST(CheckCall, ChoiceValuesComeFromTheCatalog) {
    EXPECT_FALSE(check_call(Method::Get, "/rooms/1/messages", {{"force", "2"}}));
    EXPECT_TRUE(check_call(Method::Get, "/rooms/1/messages", {{"force", "0"}}));
    EXPECT_FALSE(check_call(Method::Get, "/my/tasks", {{"status", "closed"}}));
    EXPECT_TRUE(check_call(Method::Get, "/my/tasks", {{"status", "done"}}));
    EXPECT_FALSE(check_call(Method::Delete, "/rooms/5", {}));  // action_type is required
    EXPECT_TRUE(check_call(Method::Delete, "/rooms/5", {{"action_type", "leave"}}));
}

TEST(CheckCall, EmptyOptionalValuesAreNotSent) {
    const auto r =
        check_call(Method::Get, "/rooms/{room_id}/tasks", {{"room_id", "7"}, {"account_id", ""}, {"status", ""}});
    ASSERT_TRUE(r) << problems_of(r);
    EXPECT_TRUE(r->params.empty());
}

TEST(CheckCall, UnknownEndpointAndConflictingIds) {
    const auto unknown = check_call(Method::Get, "/rooms/1/secrets", {});
    ASSERT_FALSE(unknown) << "a path outside the catalog was accepted";
    EXPECT_EQ(unknown.error().size(), 1u);
    EXPECT_EQ(unknown.error()[0].kind, CallProblemKind::not_endpoint);
    EXPECT_EQ(unknown.error()[0].call, "GET /rooms/1/secrets");
    EXPECT_FALSE(check_call(Method::Post, "/me", {}));
    const auto twice = check_call(Method::Get, "/rooms/1/messages", {{"room_id", "2"}});
    ASSERT_FALSE(twice) << "a room_id both in the path and as a parameter was accepted";
    EXPECT_EQ(twice.error()[0].param, "room_id");
    EXPECT_EQ(twice.error()[0].kind, CallProblemKind::given_twice);
    EXPECT_EQ(twice.error()[0].values, "1") << "the id the path holds";
    EXPECT_TRUE(check_call(Method::Get, "/rooms/1/messages", {{"room_id", "1"}}));
}

TEST(CheckCall, FileUploadsAreRefusedWithAReason) {
    const auto r = check_call(Method::Post, "/rooms/1/files", {{"file", "x"}});
    ASSERT_FALSE(r) << "a file upload was accepted";
    ASSERT_EQ(r.error().size(), 1u) << problems_of(r);
    EXPECT_EQ(r.error()[0].kind, CallProblemKind::file_upload);
    EXPECT_EQ(r.error()[0].param, "file");
}

TEST(CheckCall, EveryGetOfTheCatalogPassesWithSampleIds) {
    for (const EndpointInfo& info : endpoint_catalog()) {
        if (info.method != Method::Get) continue;
        FormFields params;
        for (const EndpointParam& p : info.params) {
            if (p.where == ParamWhere::path) params.emplace_back(std::string(p.name), "12");
        }
        const auto r = check_call(info.method, info.path, params);
        EXPECT_TRUE(r) << info.path << ": " << problems_of(r);
    }
}

}  // namespace
}  // namespace console_call_test
}  // namespace roomkey
