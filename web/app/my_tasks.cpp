// my_tasks.cpp: the "my tasks" view (see my_tasks.hpp).
#include "app/my_tasks.hpp"

#include "app/app_detail.hpp"
#include "app/i18n.hpp"
#include "app/view_answer.hpp"

namespace roomkey::app {

namespace {
std::string my_tasks_words() { return tr("views.my_tasks"); }
}  // namespace

void MyTasks::load(Instant now) {
    if (reading_) return;
    tasks_.loading = true;
    Outgoing out;
    out.label = my_tasks_words();
    out.request = built(api_request(host_.api_config(), HeldByHelper{}, Method::Get, "/my/tasks"));
    out.options = view_options();
    reading_ = host_.new_tag();
    host_.submit(*this, std::move(out), now, *reading_);
}

void MyTasks::set_status(const std::string& task_id, const std::string& status) {
    if (!tasks_.value) return;
    for (ChatTask& task : *tasks_.value) {
        if (task.task_id == task_id) task.status = status;
    }
}

void MyTasks::drop_all() {
    reading_.reset();
    tasks_.loading = false;
}

void MyTasks::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    if (reading_ == waiting.tag) host_.notice_words(rate_limited({"views.my_tasks"}, host_, now));
}

void MyTasks::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    if (reading_ != tag) return;
    reading_.reset();
    const std::string what = tr("views.reading", {{"what", my_tasks_words()}});
    const bool ok = answer.response && detail::is_success(answer.response->status);
    std::string failure = view_failure(host_, what, answer, ok, Method::Get, "/my/tasks", ErrorSource::my_tasks);
    tasks_.loading = false;
    if (failure.empty()) {
        auto tasks = read_tasks(*answer.response);
        if (tasks) {
            tasks_.value = std::move(*tasks);
            tasks_.loaded_at = now;
        } else {
            failure = unreadable_failure(host_, what, to_string(tasks.error()), ErrorSource::my_tasks);
        }
    }
    tasks_.error = failure;
    if (failure.empty()) host_.clear_error(ErrorSource::my_tasks);
}

}  // namespace roomkey::app
