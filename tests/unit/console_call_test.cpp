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
    return r ? std::string() : describe(r.error());
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
    const std::string text = describe(r.error());
    EXPECT_NE(text.find("body is required."), std::string::npos) << text;
    EXPECT_NE(text.find("limit_type must be one of: none, date, time."), std::string::npos) << text;
    EXPECT_NE(text.find("colour is not a parameter of POST /rooms/{room_id}/tasks (it takes: room_id, body, to_ids"),
              std::string::npos)
        << text;
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
    EXPECT_NE(describe(unknown.error()).find("not an endpoint of the catalog"), std::string::npos);
    EXPECT_FALSE(check_call(Method::Post, "/me", {}));
    const auto twice = check_call(Method::Get, "/rooms/1/messages", {{"room_id", "2"}});
    ASSERT_FALSE(twice) << "a room_id both in the path and as a parameter was accepted";
    EXPECT_EQ(twice.error()[0].param, "room_id");
    EXPECT_TRUE(check_call(Method::Get, "/rooms/1/messages", {{"room_id", "1"}}));
}

TEST(CheckCall, FileUploadsAreRefusedWithAReason) {
    const auto r = check_call(Method::Post, "/rooms/1/files", {{"file", "x"}});
    ASSERT_FALSE(r) << "a file upload was accepted";
    EXPECT_NE(describe(r.error()).find("file upload"), std::string::npos);
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
