// posting_waiting.cpp: the posting feature's posts a session left unsent:
// kept with the account that wrote them, restored from the tab's storage,
// offered to that account only (posting.hpp, waiting_posts.hpp).
#include <algorithm>

#include "app/i18n.hpp"
#include "app/posting.hpp"

namespace roomkey::app {

void Posting::keep_open_posts() {
    const std::string me = my_id();
    for (auto it = posts_.begin(); it != posts_.end();) {
        if (it->kind != PostKind::message || !is_open(it->stage)) {
            ++it;
            continue;
        }
        if (host_.pending(it->id) && !host_.cancel(it->id)) host_.release(it->id);
        waiting_.push_back(WaitingPost{it->local_id, it->room_id, it->body, me});
        it = posts_.erase(it);
    }
    settles_.clear();
    ++revision_;
}

void Posting::discard_open() {
    for (PostJob& job : posts_) {
        if (is_open(job.stage)) job.stage = PostStage::cancelled;
    }
    const std::string me = my_id();
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                  [&](const WaitingPost& p) { return !me.empty() && p.account_id == me; }),
                   waiting_.end());
    ++revision_;
}

void Posting::restore_waiting(std::vector<WaitingPost> posts) {
    for (WaitingPost& p : posts) {
        if (id_of(p.local_id) == 0) waiting_.push_back(std::move(p));
    }
    ++revision_;
}

std::vector<WaitingPost> Posting::waiting_for_me() const {
    std::vector<WaitingPost> mine;
    const std::string me = my_id();
    for (const WaitingPost& p : waiting_) {
        if (!me.empty() && p.account_id == me) mine.push_back(p);
    }
    return mine;
}

void Posting::send_waiting(Instant now) {
    for (const WaitingPost& p : waiting_for_me()) retry_local(p.local_id, std::nullopt, now);
}

void Posting::review_waiting(Instant now) {
    const std::string me = my_id();
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        if (me.empty() || it->account_id != me) {
            ++it;
            continue;
        }
        PostJob job;
        job.local_id = it->local_id;
        job.room_id = it->room_id;
        job.body = it->body;
        job.stage = PostStage::refused;
        job.done_at = now;
        job.note = tr("pending.waited");
        add_job(std::move(job), now);
        it = waiting_.erase(it);
    }
    ++revision_;
}

void Posting::discard_waiting() {
    const std::string me = my_id();
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                  [&](const WaitingPost& p) { return !me.empty() && p.account_id == me; }),
                   waiting_.end());
    ++revision_;
}

RequestId Posting::id_of(const std::string& local_id) const {
    for (const PostJob& job : posts_) {
        if (job.local_id == local_id) return job.id;
    }
    return 0;
}

void Posting::retry_local(const std::string& local_id, std::optional<std::string> body, Instant now) {
    if (const RequestId id = id_of(local_id)) {
        retry(id, std::move(body), now);
        return;
    }
    const std::string me = my_id();
    const auto it = std::find_if(waiting_.begin(), waiting_.end(), [&](const WaitingPost& p) {
        return p.local_id == local_id && !me.empty() && p.account_id == me;
    });
    if (it == waiting_.end()) return;  // another account's: never sent as this one
    PostJob job;
    job.local_id = it->local_id;
    job.room_id = it->room_id;
    job.body = body && !body->empty() ? *body : it->body;
    waiting_.erase(it);
    add_job(std::move(job), now);
}

void Posting::discard_local(const std::string& local_id) {
    if (const RequestId id = id_of(local_id)) {
        discard(id);
        return;
    }
    const std::string me = my_id();
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                  [&](const WaitingPost& p) { return p.local_id == local_id && p.account_id == me; }),
                   waiting_.end());
    ++revision_;
}

std::string Posting::storage_record() const {
    std::vector<WaitingPost> kept = waiting_;
    const std::string me = my_id();
    for (const PostJob& job : posts_) {
        if (job.kind == PostKind::message && is_open(job.stage))
            kept.push_back(WaitingPost{job.local_id, job.room_id, job.body, me});
    }
    return waiting_posts_record(kept);
}

void Posting::apply(const intent::WaitingPosts& i, Instant now) {
    if (i.what == intent::WaitingPosts::send) send_waiting(now);
    if (i.what == intent::WaitingPosts::review) review_waiting(now);
    if (i.what == intent::WaitingPosts::discard) discard_waiting();
}

}  // namespace roomkey::app
