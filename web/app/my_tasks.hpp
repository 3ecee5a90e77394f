// my_tasks.hpp: the "my tasks" view (GET /my/tasks): its list, kept in step
// with a task done or reopened in the open room.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/feature.hpp"
#include "roomkey/api_records.hpp"

namespace roomkey::app {

class MyTasks final : public Feature {
public:
    explicit MyTasks(FeatureHost& host) : host_(host) {}

    void load(Instant now);
    // A task's status changed at the service (done, or open again).
    void set_status(const std::string& task_id, const std::string& status);
    // Signed out: the read under way was dropped.
    void drop_all();
    void clear() { tasks_ = {}; }

    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;
    void on_rate_limited(const rest::RateLimited& waiting, Instant now) override;

    const Loadable<std::vector<ChatTask>>& tasks() const { return tasks_; }

private:
    FeatureHost& host_;
    Loadable<std::vector<ChatTask>> tasks_;
    std::optional<RequestTag> reading_;
};

}  // namespace roomkey::app
