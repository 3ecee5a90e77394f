// posting.hpp: the posting feature: messages and tasks the user queues
// (spec 4.6, 4.7), each room's posts one at a time in order (the REST
// client keeps that order), and their recovery after a fault
// (post_outcome.hpp decides what a failure means; this acts on it):
//   - certainly not acted on: the post waits (backoff 1 s, 2 s, ... 30 s)
//     and goes again through the same pacer, holding its room's order;
//   - unknown: never resent by itself; the room's latest messages are read
//     to settle it (found: delivered), else the user retries or discards;
//   - refused (4xx): kept with its text; the user edits, retries or discards.
// A post's request is built once, when it is queued (or edited), without
// credentials: shared/ decides there whether it is well-formed.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/feature.hpp"
#include "app/intents.hpp"
#include "app/waiting_posts.hpp"
#include "roomkey/api_records.hpp"

namespace roomkey::app {

enum class PostKind { message, task };
// waiting -> sending -> delivered, or after a fault (post_outcome.hpp):
//   retrying  certainly not acted on: goes again by itself after a backoff;
//   checking  outcome unknown: the room's latest messages are being read;
//   unknown   still unknown after that: the user retries or discards;
//   refused   the service said no (4xx): the user edits, retries or discards.
// cancelled: dropped before it was sent (or discarded by the user).
enum class PostStage { waiting, sending, delivered, failed, cancelled, retrying, checking, unknown, refused };
// Why a post may not have arrived (stages checking and unknown), for its words.
enum class PostDoubt : unsigned char { answer_lost, timeout, connection, not_in_room };
// Why a post was not taken (stage refused), for its words: the service's 400,
// 403 or 404, or anything else (another 4xx; the session did not send it).
enum class PostRefusal : unsigned char { other, invalid, forbidden, not_found };
std::string_view to_string(PostStage stage);
// Not yet delivered, cancelled or discarded: the post is still the user's to lose.
bool is_open(PostStage stage);

// One queued POST /rooms/{room_id}/messages or /tasks (spec 4.6, 4.7).
struct PostJob {
    RequestId id = 0;
    std::string local_id;    // the page API's name for it, kept across a reload
    std::string message_id;  // the service's, once delivered
    PostKind kind = PostKind::message;
    std::string room_id;
    std::string body;
    std::vector<std::string> to_ids;
    std::optional<std::int64_t> limit;
    TaskLimitType limit_type = TaskLimitType::none;
    PostStage stage = PostStage::waiting;
    int rate_limited = 0;             // 429 answers it got (spec 7.3)
    int attempts = 0;                 // automatic retries after a certain "not acted on"
    std::optional<Instant> retry_at;  // stage retrying: when it goes again
    int checks = 0;                   // stage checking: reads of the room so far
    std::string why;                  // stage checking/unknown: what made the outcome unknown
    PostDoubt doubt = PostDoubt::answer_lost;  // the same, as a cause (post_words.cpp)
    PostRefusal refusal = PostRefusal::other;  // stage refused: why, as a cause (post_words.cpp)
    std::string note;                 // "message_id 123", the error, or why it waits
    Instant queued_at;
    std::optional<Instant> sent_at;
    std::optional<Instant> done_at;
};

// The posts since the queue was last empty (progress and duration).
struct PostBatch {
    long total = 0;
    long delivered = 0;
    long failed = 0;
    std::optional<Instant> first_sent;
    std::optional<Instant> last_done;
};

// A post that still gets 429 is retried after the wait, at most this often.
inline constexpr int kMaxRateLimitedRetries = 3;
inline constexpr std::size_t kMaxFinishedPosts = 200;

class Posting final : public Feature {
public:
    // `account`: who is signed in (a lost post is looked for under that id).
    Posting(FeatureHost& host, const Loadable<Account>& account) : host_(host), account_(account) {}

    // ---- intents ----
    void queue_message(const intent::QueueMessage& message, Instant now);
    void queue_task(const intent::QueueTask& task, Instant now);
    void cancel_queued();
    // Retry (and Edit: with a new body) a post the user decides on.
    void retry(RequestId id, std::optional<std::string> body, Instant now);
    void discard(RequestId id);
    void clear_finished();
    // The page's intents (the App forwards them): a post by its id, or by the page API's local_id.
    void apply(const intent::RetryPost& i, Instant now) {
        i.local_id.empty() ? retry(i.id, std::nullopt, now) : retry_local(i.local_id, {}, now);
    }
    void apply(const intent::EditPost& i, Instant now) {
        i.local_id.empty() ? retry(i.id, i.body, now) : retry_local(i.local_id, i.body, now);
    }
    void apply(const intent::DiscardPost& i, Instant) { i.local_id.empty() ? discard(i.id) : discard_local(i.local_id); }
    void apply(const intent::WaitingPosts& i, Instant now);
    void apply(const intent::QueueMessage& i, Instant now) { queue_message(i, now); }
    void apply(const intent::QueueTask& i, Instant now) { queue_task(i, now); }
    void apply(const intent::CancelQueued&, Instant) { cancel_queued(); }
    void apply(const intent::ClearFinishedPosts&, Instant) { clear_finished(); }

    // ---- time ----
    // Automatic retries and room checks that came due.
    void run_timers(Instant now);
    // The earliest of those, nullopt when none waits.
    std::optional<Instant> next_timer() const;

    // ---- the session ----
    // Signed out: every open post is cancelled with `reason` (its request was dropped).
    void drop_all(const std::string& reason);
    // The session is gone: its posts (their texts) go too.
    void clear();

    // ---- posts a session left unsent (waiting_posts.hpp) ----
    // The session ends: its open messages wait, with the account that wrote them.
    void keep_open_posts();
    // Sign-out with "discard them": the open posts go.
    void discard_open();
    // What the tab's storage held at load.
    void restore_waiting(std::vector<WaitingPost> posts);
    // The waiting posts of the account signed in (none when none is).
    std::vector<WaitingPost> waiting_for_me() const;
    // Send them all, or show them in their rooms as not sent (Retry, Edit,
    // Discard each), or drop them: only the account that wrote them.
    void send_waiting(Instant now);
    void review_waiting(Instant now);
    void discard_waiting();
    // By the page API's local_id: a post, or a waiting post (0: none).
    RequestId id_of(const std::string& local_id) const;
    void retry_local(const std::string& local_id, std::optional<std::string> body, Instant now);
    void discard_local(const std::string& local_id);
    // The record the tab keeps: the waiting posts and the open messages; the
    // revision changes whenever it may have.
    std::string storage_record() const;
    unsigned revision() const { return revision_; }
    // A message was delivered (its message_id known): the conversation shows it at once.
    void on_delivered(std::function<void(const PostJob&)> delivered) { delivered_ = std::move(delivered); }

    // ---- answers ----
    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;
    void on_sent(RequestTag tag, Instant now) override;
    void on_rate_limited(const rest::RateLimited& waiting, Instant now) override;

    // ---- read-only views ----
    const std::deque<PostJob>& posts() const { return posts_; }
    const PostBatch& batch() const { return batch_; }
    const std::string& error() const { return error_; }
    // Posts not delivered, discarded or cancelled.
    long open_posts() const;

private:
    void enqueue(PostJob& job, Result<HttpRequest, std::string> request, Instant now);
    PostJob* find(RequestId id);
    void prune();
    void on_post_answer(PostJob& job, const Answer& answer, Instant now);
    void on_failed(PostJob& job, const Answer& answer, Instant now);
    void on_settle_answer(RequestTag tag, const Answer& answer, Instant now);
    void decided(PostJob& job, Instant now);

    FeatureHost& host_;
    const Loadable<Account>& account_;
    std::deque<PostJob> posts_;
    PostBatch batch_;
    std::string error_;
    std::map<RequestTag, RequestId> settles_;  // a read of a room, for the post it looks for
    std::vector<WaitingPost> waiting_;
    unsigned revision_ = 0;
    std::function<void(const PostJob&)> delivered_;
    std::string my_id() const { return account_.value ? account_.value->account_id : std::string(); }
    void add_job(PostJob job, Instant now);
};

}  // namespace roomkey::app
