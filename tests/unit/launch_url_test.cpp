// launch_url_test.cpp: what the address the page was opened at holds, and
// the address shown in its place (spec 4.2; docs/bff.md's #bff_error).
#include "roomkey/launch_url.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace launch_url_test {
namespace {

constexpr const char* kOrigin = "https://127.0.0.1:8443";

std::string at(const std::string& target) {
    return kOrigin + target;
}

const char* to_text(LaunchHolds holds) {
    switch (holds) {
        case LaunchHolds::nothing:
            return "nothing";
        case LaunchHolds::authorization_answer:
            return "authorization_answer";
        case LaunchHolds::bff_error:
            return "bff_error";
    }
    return "?";
}

// Every shape of launch URL the page meets. shell/page.js strips the address
// bar by the same rule before the wasm loads; the e2e test "every shape of
// launch URL" (tests/e2e/app_signin.e2e.mjs) loads these same rows in
// Chromium and checks the address page.js leaves.
struct Row {
    const char* target;
    LaunchHolds holds;
    const char* clean;
};
const Row kRows[] = {
    {"/", LaunchHolds::nothing, "/"},
    {"/?lang=de#room=7", LaunchHolds::nothing, "/?lang=de#room=7"},
    {"/callback?code=c0de&state=st4te", LaunchHolds::authorization_answer, "/"},
    {"/callback?error=access_denied&error_description=no&state=st4te&error_code=3001",
     LaunchHolds::authorization_answer, "/"},
    {"/callback?code=c0de&state=st4te&iss=https%3A%2F%2Fauth.example&lang=de#room=7", LaunchHolds::authorization_answer,
     "/?lang=de#room=7"},
    {"/#bff_error=access_denied&bff_error_description=The%20user%20denied", LaunchHolds::bff_error, "/"},
    {"/callback", LaunchHolds::nothing, "/"},
    {"/?codes=x&xcode=y", LaunchHolds::nothing, "/?codes=x&xcode=y"},
    {"/callback?code=%zz&state=st4te", LaunchHolds::authorization_answer, "/"},
    {"/?co%64e=x", LaunchHolds::authorization_answer, "/"},
    {"/index.html?state=st4te", LaunchHolds::authorization_answer, "/index.html"},
    {"/?iss=https%3A%2F%2Fauth.example", LaunchHolds::nothing, "/"},
};

TEST(LaunchUrl, EveryShapeHoldsWhatItCarriesAndCleansToTheSameAddressAsThePage) {
    for (const Row& row : kRows) {
        const LaunchUrl read = read_launch_url(at(row.target));
        EXPECT_EQ(to_text(read.holds), std::string(to_text(row.holds))) << row.target;
        EXPECT_EQ(read.clean_address, row.clean) << row.target;
        EXPECT_EQ(read.address_changes, std::string(row.target) != row.clean) << row.target;
    }
}

TEST(LaunchUrl, CodeAndStateNeverSurviveInTheCleanAddress) {  // spec 4.2; RFC 9700 4.2.4
    for (const Row& row : kRows) {
        const std::string clean = read_launch_url(at(row.target)).clean_address;
        for (const char* field : {"?code=", "&code=", "?state=", "&state=", "bff_error"}) {
            EXPECT_EQ(clean.find(field), std::string::npos) << row.target << " -> " << clean;
        }
    }
}

TEST(LaunchUrl, AnAnswerWithACodeSaysSoADenialDoesNot) {
    EXPECT_TRUE(read_launch_url(at("/callback?code=c0de&state=st4te")).has_code);
    const LaunchUrl denial = read_launch_url(at("/callback?error=access_denied&state=st4te"));
    EXPECT_EQ(denial.holds, LaunchHolds::authorization_answer);
    EXPECT_FALSE(denial.has_code) << "a denial asks for no token request";
    EXPECT_FALSE(read_launch_url(at("/callback?code=%zz&state=st4te")).has_code)
        << "not a valid form: validate_callback refuses it, so no token request follows";
    EXPECT_FALSE(read_launch_url(at("/?codes=x&xcode=y")).has_code);
}

TEST(LaunchUrl, ARequestTargetOrABareQueryReadsLikeTheWholeUrl) {
    const LaunchUrl target = read_launch_url("/callback?code=c0de&state=st4te#x");
    EXPECT_EQ(target.holds, LaunchHolds::authorization_answer);
    EXPECT_TRUE(target.has_code);
    EXPECT_EQ(target.clean_address, "/#x");
    const LaunchUrl query = read_launch_url("?code=c0de&state=st4te");
    EXPECT_EQ(query.holds, LaunchHolds::authorization_answer);
    EXPECT_TRUE(query.has_code);
    EXPECT_EQ(query.clean_address, "/");
}

TEST(LaunchUrl, TheBffFragmentGivesItsCodeAndDescription) {
    const LaunchUrl read =
        read_launch_url(at("/#bff_error=state_mismatch&bff_error_description=the%20state%20did%20not%20match"));
    ASSERT_EQ(read.holds, LaunchHolds::bff_error) << to_text(read.holds);
    ASSERT_TRUE(read.bff_error.has_value()) << "it holds a bff_error, but none was read";
    EXPECT_EQ(read.bff_error->code, "state_mismatch");
    EXPECT_EQ(read.bff_error->description, "the state did not match");

    const LaunchUrl nameless = read_launch_url(at("/#bff_error=&bff_error_description=x"));
    ASSERT_TRUE(nameless.bff_error.has_value()) << "an empty bff_error code was not read as an error";
    EXPECT_EQ(nameless.bff_error->code, "unknown") << "an empty code is still an error to show";

    const LaunchUrl later = read_launch_url(at("/#room=7&bff_error=login_expired"));
    ASSERT_TRUE(later.bff_error.has_value()) << "the field need not come first";
    EXPECT_EQ(later.bff_error->code, "login_expired");
    EXPECT_EQ(later.bff_error->description, "");

    EXPECT_FALSE(read_launch_url(at("/#room=7")).bff_error);
    EXPECT_FALSE(read_launch_url(at("/?bff_error=x")).bff_error) << "only the fragment carries it";
}

TEST(LaunchUrl, TheHelpersBffErrorAddressReadsBackAsWritten) {
    const std::string address = bff_error_address("access_denied", "The user denied access & left");
    EXPECT_EQ(address, "/#bff_error=access_denied&bff_error_description=The%20user%20denied%20access%20%26%20left");
    const LaunchUrl read = read_launch_url(at(address));
    ASSERT_EQ(read.holds, LaunchHolds::bff_error) << to_text(read.holds);
    ASSERT_TRUE(read.bff_error.has_value()) << "it holds a bff_error, but none was read";
    EXPECT_EQ(read.bff_error->code, "access_denied");
    EXPECT_EQ(read.bff_error->description, "The user denied access & left");
    EXPECT_EQ(read.clean_address, "/");
}

TEST(LaunchUrl, JunkHoldsNothingAndKeepsItsAddress) {
    for (const char* junk : {"", "not a url", "https://127.0.0.1:8443", "https://127.0.0.1:8443?", "#", "?&&=&"}) {
        const LaunchUrl read = read_launch_url(junk);
        EXPECT_EQ(read.holds, LaunchHolds::nothing) << junk;
        EXPECT_FALSE(read.has_code) << junk;
        EXPECT_FALSE(read.bff_error) << junk;
        EXPECT_FALSE(read.address_changes) << junk;
    }
    EXPECT_EQ(read_launch_url("https://127.0.0.1:8443").clean_address, "/");
}

TEST(LaunchUrl, AnAnswerInBothPlacesIsAnAnswerAndBothAreCleaned) {
    const LaunchUrl read = read_launch_url(at("/callback?code=c0de&state=st4te#bff_error=x"));
    EXPECT_EQ(read.holds, LaunchHolds::authorization_answer);
    EXPECT_FALSE(read.bff_error) << "the answer is read; the fragment is only removed";
    EXPECT_EQ(read.clean_address, "/");
}

}  // namespace
}  // namespace launch_url_test
}  // namespace roomkey
