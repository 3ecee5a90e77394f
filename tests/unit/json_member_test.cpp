// json_member_test.cpp: the one rule by which roomkey reads a member of a
// JSON object (json_text.hpp), used by the helper's BFF reports, the sealed
// BFF session, the service's records and the page API's actions: a missing
// member and a null one are the same (absent), a member of another type is
// wrong (never taken as absent), and `out` changes only when it is read.
#include "roomkey/json_text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace roomkey {
namespace json_member_test {
namespace {

const nlohmann::json kObject = parse_json_text(
    R"({"text":"hello","empty":"","count":42,"negative":-7,"flag":true,"null":null,)"
    R"("half":1.5,"whole_float":3.0,"huge":18446744073709551615,"most":9223372036854775807,"list":[1]})");

TEST(JsonMember, MissingAndNullAreTheSameAbsentAndLeaveTheValue) {
    for (const char* name : {"absent", "null"}) {
        std::string text = "kept";
        std::int64_t number = 5;
        bool flag = true;
        EXPECT_EQ(read_member(kObject, name, text), JsonMember::absent) << name;
        EXPECT_EQ(read_member(kObject, name, number), JsonMember::absent) << name;
        EXPECT_EQ(read_member(kObject, name, flag), JsonMember::absent) << name;
        EXPECT_EQ(text, "kept");
        EXPECT_EQ(number, 5);
        EXPECT_TRUE(flag);
        EXPECT_EQ(json_member(kObject, name), nullptr) << name;
        EXPECT_FALSE(read_required(kObject, name, text)) << "a required member must be there: " << name;
        EXPECT_TRUE(read_optional(kObject, name, text)) << "an optional one may be absent: " << name;
    }
}

TEST(JsonMember, TheRightTypeIsRead) {
    std::string text;
    EXPECT_EQ(read_member(kObject, "text", text), JsonMember::read);
    EXPECT_EQ(text, "hello");
    text = "x";
    EXPECT_EQ(read_member(kObject, "empty", text), JsonMember::read) << "empty text is text, not absent";
    EXPECT_EQ(text, "");
    std::int64_t number = 0;
    EXPECT_EQ(read_member(kObject, "count", number), JsonMember::read);
    EXPECT_EQ(number, 42);
    EXPECT_EQ(read_member(kObject, "negative", number), JsonMember::read);
    EXPECT_EQ(number, -7);
    EXPECT_EQ(read_member(kObject, "most", number), JsonMember::read);
    EXPECT_EQ(number, INT64_MAX);
    bool flag = false;
    EXPECT_EQ(read_member(kObject, "flag", flag), JsonMember::read);
    EXPECT_TRUE(flag);
    EXPECT_TRUE(read_required(kObject, "text", text));
    EXPECT_TRUE(read_optional(kObject, "flag", flag));
    ASSERT_NE(json_member(kObject, "list"), nullptr);
    EXPECT_TRUE(json_member(kObject, "list")->is_array());
}

TEST(JsonMember, AnotherTypeIsWrongNeverAbsentAndLeavesTheValue) {
    std::string text = "kept";
    for (const char* name : {"count", "flag", "list"}) {
        EXPECT_EQ(read_member(kObject, name, text), JsonMember::wrong) << name;
        EXPECT_FALSE(read_optional(kObject, name, text)) << "an optional member may be absent, not wrong: " << name;
    }
    EXPECT_EQ(text, "kept");
    std::int64_t number = 5;
    for (const char* name : {"text", "flag", "half", "whole_float", "huge", "list"}) {
        EXPECT_EQ(read_member(kObject, name, number), JsonMember::wrong)
            << name << ": an integer is a JSON integer that fits int64";
    }
    EXPECT_EQ(number, 5);
    bool flag = true;
    for (const char* name : {"text", "count"}) EXPECT_EQ(read_member(kObject, name, flag), JsonMember::wrong) << name;
    EXPECT_TRUE(flag);
}

TEST(JsonMember, ANonObjectHasNoMembers) {
    std::string text = "kept";
    for (const char* json : {"[1,2]", "\"text\"", "null", "not json"}) {
        EXPECT_EQ(read_member(parse_json_text(json), "text", text), JsonMember::absent) << json;
        EXPECT_EQ(json_member(parse_json_text(json), "text"), nullptr) << json;
    }
    EXPECT_EQ(text, "kept");
}

}  // namespace
}  // namespace json_member_test
}  // namespace roomkey
