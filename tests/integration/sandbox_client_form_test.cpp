// sandbox_client_form_test.cpp: read_client_form, the client creation form's
// fields as the browser posts them (spec 2.1), without a server: the
// textarea's CRLF lines, blank lines, repeated scope checkboxes.
#include <gtest/gtest.h>

#include "sandbox/client_form.hpp"

namespace roomkey::sandbox {
namespace {

TEST(SandboxClientForm, ReadsTheFieldsAsTheBrowserPostsThem_spec2_1) {
    const ClientForm read =
        read_client_form({{"csrf", "x"},
                          {"name", "My App"},
                          {"type", "confidential"},
                          {"redirect_uris", "  https://a.example/cb\r\n\r\n\thttps://b.example/cb \r\n"},
                          {"scope", "rooms.all:read"},
                          {"scope", ""},
                          {"scope", "offline_access"}});
    EXPECT_TRUE(read.problems.empty()) << read.problems.front();
    EXPECT_EQ(read.registration.name, "My App");
    EXPECT_EQ(read.registration.type, ClientType::confidential);
    EXPECT_EQ(read.registration.redirect_uris,
              (std::vector<std::string>{"https://a.example/cb", "https://b.example/cb"}));
    EXPECT_EQ(read.registration.scopes, (std::vector<std::string>{"rooms.all:read", "offline_access"}));
}

TEST(SandboxClientForm, AMissingOrMisspelledTypeIsAProblemToShow_spec2_1) {
    for (const char* type : {"", "Public", "public "}) {
        const ClientForm read = read_client_form({{"name", "A"}, {"type", type}});
        ASSERT_EQ(read.problems.size(), 1u) << type;
        EXPECT_NE(read.problems[0].find("public or confidential"), std::string::npos);
    }
    EXPECT_TRUE(read_client_form({{"type", "public"}}).problems.empty());
}

}  // namespace
}  // namespace roomkey::sandbox
