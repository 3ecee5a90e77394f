// bff_redis_store_test.cpp: logout means logout for helpers on several
// machines (--bff-store redis://HOST:PORT, bff_redis_store.hpp): two helpers
// with their own state directories, sharing only the cookie key and a real
// redis-server on loopback. A copy of a cookie kept from before POST
// /bff/logout at one is refused by the other; a helper that shares the key
// but not the store still takes it (what the store is for). When Redis
// cannot be reached, a cookie is neither taken nor thrown away: 503, and the
// cookie stays.
#include <gtest/gtest.h>

#include <filesystem>

#include "helper/bff_keys.hpp"
#include "helper/bff_redis_store.hpp"
#include "helper/bff_revocations.hpp"
#include "helper/options.hpp"
#include "support/bff_fixture.hpp"
#include "support/redis_process.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace bff_redis_store_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;
using bff_testing::parse_json;
using integration::RedisProcess;

class BffSharedStore : public BffTest {
protected:
    void SetUp() override { start_sandbox(3); }

    // Helper `index` on its own state dir ("machine" index), the key copied
    // from machine 0's, signed-out sessions in `store` ("" = its state dir).
    std::unique_ptr<testing::RunningHelper> start_on_machine(std::size_t index, const std::string& store) {
        const std::string dir = dir_ / ("machine-" + std::to_string(index));
        if (index != 0) {
            std::filesystem::create_directories(dir);
            std::filesystem::copy_file(dir_ / "machine-0/" + kBffKeyFile, dir + "/" + kBffKeyFile,
                                       std::filesystem::copy_options::overwrite_existing);
        }
        HelperConfig config = bff_config(index, dir);
        config.bff_store = store;
        return std::make_unique<testing::RunningHelper>(config);
    }

    // Signed in at `helper`, a copy of the cookie kept, then signed out there.
    CookieJar sign_in_keep_a_copy_and_log_out(testing::RunningHelper& helper) {
        auto done = sign_in(helper, jar_);
        EXPECT_TRUE(done) << why_no_answer(done);
        CookieJar copy = jar_;
        auto out = bff_post(helper, jar_, "/bff/logout");
        EXPECT_TRUE(out) << why_no_answer(out);
        if (out) {
            EXPECT_EQ(out->status, 200) << out->body;
        }
        return copy;
    }

    RedisProcess redis_;
};

TEST_F(BffSharedStore, ASignedOutCookieIsRefusedByAHelperOnAnotherMachine) {
    ASSERT_TRUE(redis_.ready()) << "redis-server did not start (./scripts/setup.sh installs it)";
    auto first = start_on_machine(0, redis_.url());
    ASSERT_TRUE(first->ok()) << first->error();
    EXPECT_NE(first->wait_for_log("shared in " + redis_.url()).find("shared in " + redis_.url()), std::string::npos);
    auto second = start_on_machine(1, redis_.url());
    ASSERT_TRUE(second->ok()) << second->error();
    auto unshared = start_on_machine(2, "");  // the key, not the store
    ASSERT_TRUE(unshared->ok()) << unshared->error();

    const CookieJar copy = sign_in_keep_a_copy_and_log_out(*first);
    ASSERT_FALSE(copy.session().empty());
    const std::size_t refreshes = refresh_tokens_issued();

    CookieJar at_second = copy;
    auto me = api_get(*second, at_second, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401) << me->body;
    CookieJar session_copy = copy;
    auto session = bff_get(*second, session_copy, "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    EXPECT_EQ(parse_json(session->body)["signed_in"], false) << session->body;
    CookieJar refresh_copy = copy;
    auto refreshed = bff_post(*second, refresh_copy, "/bff/refresh");
    ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
    EXPECT_EQ(refreshed->status, 401) << refreshed->body;
    EXPECT_TRUE(refresh_copy.session().empty()) << "refreshed into a new cookie";
    EXPECT_EQ(refresh_tokens_issued(), refreshes) << "a token request was made for a signed-out session";

    // The same copy at a helper that shares the key but not the store.
    CookieJar at_unshared = copy;
    auto taken = api_get(*unshared, at_unshared, "/me");
    ASSERT_TRUE(taken) << why_no_answer(taken);
    EXPECT_EQ(taken->status, 200) << "without the shared store the copy still works there: " << taken->body;
}

TEST_F(BffSharedStore, ASignedOutCookieStaysRefusedAfterTheHelperRestartsWithAnEmptyStateDir) {
    ASSERT_TRUE(redis_.ready());
    auto first = start_on_machine(0, redis_.url());
    ASSERT_TRUE(first->ok()) << first->error();
    const CookieJar copy = sign_in_keep_a_copy_and_log_out(*first);
    first.reset();
    // The host was rebuilt: a new state dir holding only the key.
    std::filesystem::remove_all(dir_ / "machine-1");
    auto again = start_on_machine(1, redis_.url());
    ASSERT_TRUE(again->ok()) << again->error();
    ASSERT_FALSE(std::filesystem::exists(dir_ / ("machine-1/" + std::string(kBffRevokedFile))));
    CookieJar at_again = copy;
    auto me = api_get(*again, at_again, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401) << me->body;
}

TEST_F(BffSharedStore, AnotherSessionIsNotAffected) {
    ASSERT_TRUE(redis_.ready());
    auto first = start_on_machine(0, redis_.url());
    ASSERT_TRUE(first->ok()) << first->error();
    auto second = start_on_machine(1, redis_.url());
    ASSERT_TRUE(second->ok()) << second->error();
    CookieJar other;
    auto done = sign_in(*second, other);
    ASSERT_TRUE(done) << why_no_answer(done);
    sign_in_keep_a_copy_and_log_out(*first);
    auto me = api_get(*first, other, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
}

TEST_F(BffSharedStore, AnUnreachableStoreNeitherTakesNorDropsTheCookie) {
    ASSERT_TRUE(redis_.ready());
    auto helper = start_on_machine(0, redis_.url());
    ASSERT_TRUE(helper->ok()) << helper->error();
    auto done = sign_in(*helper, jar_);
    ASSERT_TRUE(done) << why_no_answer(done);
    const std::string cookie = jar_.session();
    ASSERT_FALSE(cookie.empty());

    redis_.kill();
    auto me = api_get(*helper, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 503) << me->body;
    EXPECT_NE(me->body.find("shared session store cannot be reached"), std::string::npos) << me->body;
    EXPECT_EQ(jar_.session(), cookie) << "the cookie was not cleared";
    auto session = bff_get(*helper, jar_, "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    EXPECT_EQ(session->status, 503) << session->body;
    auto out = bff_post(*helper, jar_, "/bff/logout");
    ASSERT_TRUE(out) << why_no_answer(out);
    EXPECT_EQ(out->status, 503) << "a sign-out the other helpers cannot see is not reported as done: " << out->body;
    EXPECT_EQ(jar_.session(), cookie);
}

TEST_F(BffSharedStore, AHungStoreGets503AndTheSessionWorksAgainOnceItAnswers) {
    ASSERT_TRUE(redis_.ready());
    auto helper = start_on_machine(0, redis_.url());
    ASSERT_TRUE(helper->ok()) << helper->error();
    auto done = sign_in(*helper, jar_);
    ASSERT_TRUE(done) << why_no_answer(done);
    const std::string cookie = jar_.session();

    redis_.pause();
    for (int i = 0; i < 3; ++i) {
        auto me = api_get(*helper, jar_, "/me");
        ASSERT_TRUE(me) << "request " << i << " got no answer while the store hung: " << why_no_answer(me);
        EXPECT_EQ(me->status, 503) << me->body;
    }
    EXPECT_EQ(jar_.session(), cookie);

    redis_.resume();
    // Within the back-off the helper does not ask yet: wait for the answer.
    int status = 0;
    for (int waited = 0; waited < 10000 && status != 200; waited += 100) {
        auto me = api_get(*helper, jar_, "/me");
        ASSERT_TRUE(me) << why_no_answer(me);
        status = me->status;
        if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(status, 200) << "the session did not work again once the store answered";
}

TEST_F(BffSharedStore, AHelperWhoseStoreDoesNotAnswerDoesNotStart) {
    const int nothing = integration::free_port();
    auto helper = start_on_machine(0, "redis://127.0.0.1:" + std::to_string(nothing));
    ASSERT_FALSE(helper->ok());
    EXPECT_NE(helper->error().find("--bff-store: cannot reach redis://127.0.0.1:" + std::to_string(nothing)),
              std::string::npos)
        << helper->error();
    EXPECT_NE(helper->error().find("start redis-server"), std::string::npos) << helper->error();
}

TEST(BffStoreOption, TheStoreComesFromAFlagTheEnvironmentOrTheConfigFileInTheBffModeOnly) {
    integration::TempDir dir;
    testing::write_file(dir / "secret", "s3cr3t\n");
    const std::vector<std::string> bff = {"--session", "bff", "--base-url", "https://127.0.0.1:9000/v2",
                                          "--auth-url", "https://127.0.0.1:9000/oauth", "--consent-url",
                                          "https://127.0.0.1:9000/consent", "--client-id", "bff-app",
                                          "--client-type", "confidential", "--client-secret-file", dir / "secret"};
    auto by_default = parse_command_line(bff, testing::env_of({}));
    ASSERT_TRUE(by_default) << by_default.error();
    EXPECT_EQ(by_default->serve.bff_store, "") << "the state directory";
    auto flag = bff;
    flag.insert(flag.end(), {"--bff-store", "redis://10.0.0.5:6379"});
    auto from_flag = parse_command_line(flag, testing::env_of({}));
    ASSERT_TRUE(from_flag) << from_flag.error();
    EXPECT_EQ(from_flag->serve.bff_store, "redis://10.0.0.5:6379");
    auto from_env = parse_command_line(bff, testing::env_of({{"ROOMKEY_BFF_STORE", "redis://10.0.0.6:6379"}}));
    ASSERT_TRUE(from_env) << from_env.error();
    EXPECT_EQ(from_env->serve.bff_store, "redis://10.0.0.6:6379");
    testing::write_file(dir / "c.json", R"({"bff_store": "redis://10.0.0.7:6379"})");
    auto file_args = bff;
    file_args.insert(file_args.end(), {"--config", dir / "c.json"});
    auto from_file = parse_command_line(file_args, testing::env_of({}));
    ASSERT_TRUE(from_file) << from_file.error();
    EXPECT_EQ(from_file->serve.bff_store, "redis://10.0.0.7:6379");

    auto bad = bff;
    bad.insert(bad.end(), {"--bff-store", "memcached://10.0.0.5:11211"});
    auto refused = parse_command_line(bad, testing::env_of({}));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("redis://HOST:PORT"), std::string::npos) << refused.error();
    auto browser_mode = parse_command_line({"--bff-store", "redis://10.0.0.5:6379"}, testing::env_of({}));
    ASSERT_FALSE(browser_mode);
    EXPECT_NE(browser_mode.error().find("only with --session bff"), std::string::npos) << browser_mode.error();
}

TEST(BffStoreOption, OnlyRedisUrlsAreTaken) {
    for (const std::string bad : {"redis://", "redis://host", "redis://host:0", "redis://host:6379/x",
                                  "http://host:6379", "redis://:secret@host:6379"}) {
        EXPECT_FALSE(parse_redis_url(bad)) << bad;
    }
    auto address = parse_redis_url("redis://10.0.0.5:6380/2");
    ASSERT_TRUE(address) << address.error();
    EXPECT_EQ(address->host, "10.0.0.5");
    EXPECT_EQ(address->port, 6380);
    EXPECT_EQ(address->db, 2);
    auto v6 = parse_redis_url("redis://[::1]:6379");
    ASSERT_TRUE(v6) << v6.error();
    EXPECT_EQ(v6->host, "::1");
}

}  // namespace
}  // namespace bff_redis_store_test
}  // namespace roomkey::helper
