// posting_feature_test.cpp: the posting feature on its own, against a fake
// host: a post's request is built once, without credentials, and handed to
// the REST client in its room's order; a fault keeps the room's turn until
// the post is decided.
#include "app/posting.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together.
namespace posting_feature_test {
namespace {

const Instant t0 = instant_from_unix_seconds(1'700'000'000);

class FakeHost final : public FeatureHost {
public:
    struct Submitted {
        RequestTag tag = 0;
        Outgoing outgoing;
    };
    std::vector<Submitted> submitted;
    std::vector<RequestTag> released;
    std::vector<RequestTag> resent;
    std::map<RequestTag, bool> held;  // tags the client would still hold
    std::vector<UserError> errors;
    PacingScheduler pacer;

    RequestTag new_tag() override { return next_++; }
    RequestTag submit(Feature&, Outgoing outgoing, Instant, RequestTag tag) override {
        if (tag == 0) tag = new_tag();
        held[tag] = true;
        submitted.push_back(Submitted{tag, std::move(outgoing)});
        return tag;
    }
    bool pending(RequestTag tag) const override { return held.count(tag) > 0; }
    bool in_flight(RequestTag) const override { return false; }
    void release(RequestTag tag) override {
        held.erase(tag);
        released.push_back(tag);
    }
    void resend(RequestTag tag) override { resent.push_back(tag); }
    bool cancel(RequestTag tag) override { return held.erase(tag) > 0; }
    ApiConfig api_config() const override { return ApiConfig{"/api", "x-servicetoken"}; }
    const PacingScheduler& scheduler() const override { return pacer; }
    std::optional<ScopeSet> granted_scopes() const override { return std::nullopt; }
    void set_error(UserError error, ErrorSource) override { errors.push_back(std::move(error)); }
    void clear_error(ErrorSource) override {}
    void notice(std::string) override {}
    void offer_scope(std::string) override {}
    bool can_send() const override { return true; }
    void open_url(std::string) override {}

private:
    RequestTag next_ = 1;
};

TEST(PostingFeature, APostIsBuiltOnceWithoutCredentialsInItsRoomsOrder) {
    FakeHost host;
    Loadable<Account> account;
    Posting posting(host, account);
    posting.queue_message(intent::QueueMessage{"7", "hello", 1}, t0);
    ASSERT_EQ(host.submitted.size(), 1u) << "one request for one post";
    const Outgoing& out = host.submitted[0].outgoing;
    ASSERT_TRUE(out.request) << out.request.error();
    EXPECT_EQ(out.request->url, "/api/rooms/7/messages");
    EXPECT_FALSE(out.request->headers.has("authorization")) << "the REST client attaches the credentials";
    EXPECT_FALSE(out.request->headers.has("x-servicetoken")) << "the REST client attaches the credentials";
    EXPECT_TRUE(out.options.in_room_order) << "a room's posts go one at a time";
    ASSERT_TRUE(out.options.room_for_post) << "a post was submitted without its room";
    EXPECT_EQ(*out.options.room_for_post, "7");
    EXPECT_EQ(out.label, "message (spec 4.6)");
    ASSERT_EQ(posting.posts().size(), 1u);
    EXPECT_EQ(posting.posts()[0].id, host.submitted[0].tag) << "a post's id is its request's tag";
}

TEST(PostingFeature, AnInvalidPostIsRefusedBeforeAnythingIsSubmitted) {
    FakeHost host;
    Loadable<Account> account;
    Posting posting(host, account);
    posting.queue_message(intent::QueueMessage{"not-a-room", "hello", 3}, t0);
    EXPECT_TRUE(host.submitted.empty());
    EXPECT_TRUE(posting.posts().empty());
    ASSERT_EQ(host.errors.size(), 1u);
    EXPECT_EQ(host.errors[0].title, "This message cannot be posted");
}

TEST(PostingFeature, AFaultKeepsTheRoomsTurnUntilTheRetryGoes) {
    FakeHost host;
    Loadable<Account> account;
    Posting posting(host, account);
    posting.queue_message(intent::QueueMessage{"7", "hello", 1}, t0);
    ASSERT_EQ(host.submitted.size(), 1u);
    const RequestTag tag = host.submitted[0].tag;
    posting.on_sent(tag, t0);
    posting.on_answer(tag, Answer{HttpResponse{503, {}, ""}, {}, std::nullopt}, t0);
    ASSERT_EQ(posting.posts()[0].stage, PostStage::retrying);
    EXPECT_TRUE(host.released.empty()) << "a retrying post keeps its room's turn";
    ASSERT_TRUE(posting.next_timer()) << "no timer set to retry the post";
    posting.run_timers(*posting.next_timer());
    ASSERT_EQ(host.resent.size(), 1u) << "the same request goes again";
    EXPECT_EQ(host.resent[0], tag);
    EXPECT_EQ(host.submitted.size(), 1u) << "it is not built again";
    posting.on_answer(tag, Answer{HttpResponse{200, {}, R"({"message_id":"5"})"}, {}, std::nullopt}, t0);
    EXPECT_EQ(posting.posts()[0].stage, PostStage::delivered);
    ASSERT_EQ(host.released.size(), 1u) << "delivered: the room's next post may go";
    EXPECT_EQ(host.released[0], tag);
}

}  // namespace
}  // namespace posting_feature_test
}  // namespace roomkey::app
