// dashboard.cpp: the dashboard feature (see dashboard.hpp).
#include "app/dashboard.hpp"

#include <algorithm>

#include "app/app_detail.hpp"
#include "app/i18n.hpp"
#include "app/view_answer.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/errors.hpp"

namespace roomkey::app {

using detail::is_success;
using detail::kNoAnswer;

namespace {

// Every failure of a read is in its loadable (error) and in the app's error
// (state() and the mirror); the read's next success clears both.
// The failures are the same whatever is read: one copy out of line for
// every read (noinline: inlined into each fill<T>, they were three copies
// of the same error paths in Dashboard::on_answer).
// The response to read, or nullptr when the answer is a failure (then told).
[[gnu::noinline]] const HttpResponse* answered(FeatureHost& host, std::string& error_text, const Answer& answer,
                                               std::string_view what, Endpoint endpoint, ErrorSource source) {
    const std::optional<HttpResponse>& response = answer.response;
    if (!response) {
        error_text = answer.reason;
        if (answer.reason.rfind(kNoAnswer, 0) == 0) {
            UserError error = transport_error(what, answer.reason.substr(kNoAnswer.size()));
            error_text = error.message;
            host.set_error(std::move(error), source);
        } else {
            // The session gave the request up (e.g. still 401 after the
            // one refresh and retry, spec 5.2.2).
            UserError error = given_up_error(what, answer.reason);
            error.offers_try_again = true;
            host.set_error(std::move(error), source);
        }
        return nullptr;
    }
    if (!is_success(response->status)) {
        UserError error = api_error(what, *response, endpoint);
        error_text = error.code + ": " + error.message;
        host.set_error(std::move(error), source);
        return nullptr;
    }
    return &*response;
}

// A 2xx whose body cannot be read (cut off, not JSON, wrong types): the
// last good value stays on screen, marked by this.
[[gnu::noinline]] void unreadable(FeatureHost& host, std::string& error_text, std::string_view what,
                                  std::string_view detail, ErrorSource source) {
    UserError error = unreadable_answer_error(what, detail);
    error_text = error.message;
    host.set_error(std::move(error), source);
}

template <class T, class Reader>
void fill(FeatureHost& host, Loadable<T>& loadable, const Answer& answer, Reader read, std::string_view what,
          Endpoint endpoint, ErrorSource source, Instant now) {
    loadable.loading = false;
    loadable.note.clear();
    const HttpResponse* response = answered(host, loadable.error, answer, what, endpoint, source);
    if (!response) return;
    auto value = read(*response);
    if (!value) {
        unreadable(host, loadable.error, what, to_string(value.error()), source);
        return;
    }
    loadable.value = std::move(*value);
    loadable.error.clear();
    loadable.loaded_at = now;
    host.clear_error(source);
}

}  // namespace

// shared/'s kDashboardReads, all at once: the helper opens as many upstream
// connections when a sign-in comes back to it.
void Dashboard::load(Instant now) {
    for (const Endpoint endpoint : kDashboardReads) {
        switch (endpoint) {
            case Endpoint::me:
                if (!reading(Read::me)) read(Read::me, now);
                break;
            case Endpoint::my_status:
                if (!reading(Read::my_status)) read(Read::my_status, now);
                break;
            case Endpoint::rooms_list:
                if (!reading(Read::rooms)) read(Read::rooms, now);
                break;
            default:
                break;  // no panel of the dashboard shows it
        }
    }
}

void Dashboard::reload_account(Instant now) {
    if (!reading(Read::me)) read(Read::me, now);
    reload_status(now);
}

void Dashboard::reload_status(Instant now) {
    if (!reading(Read::my_status)) read(Read::my_status, now);
}

void Dashboard::reload_rooms(Instant now) {
    if (!reading(Read::rooms)) read(Read::rooms, now);
}

bool Dashboard::reading(Read which) const {
    return std::any_of(reads_.begin(), reads_.end(), [&](const auto& entry) { return entry.second == which; });
}

void Dashboard::read(Read which, Instant now) {
    const ApiConfig config = host_.api_config();
    Outgoing out;
    out.options = view_options();
    switch (which) {
        case Read::me:
            account_.loading = true;
            out.label = tr("views.call.account");
            out.request = built(get_me(config, HeldByHelper{}));
            break;
        case Read::my_status:
            status_.loading = true;
            out.label = tr("views.call.status");
            out.request = built(get_my_status(config, HeldByHelper{}));
            break;
        case Read::rooms:
            rooms_.loading = true;
            out.label = tr("views.call.rooms");
            out.request = built(get_rooms(config, HeldByHelper{}));
            break;
    }
    const RequestTag tag = host_.new_tag();
    reads_[tag] = which;
    host_.submit(*this, std::move(out), now, tag);
}

void Dashboard::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    const auto it = reads_.find(waiting.tag);
    if (it == reads_.end()) return;
    const std::string note = rate_limit_note(host_, now);
    switch (it->second) {
        case Read::me:
            account_.note = note;
            host_.notice_words(rate_limited({"views.reading", "what", "", "views.your_account"}, host_, now));
            break;
        case Read::my_status:
            status_.note = note;
            host_.notice_words(rate_limited({"views.reading", "what", "", "views.your_status"}, host_, now));
            break;
        case Read::rooms:
            rooms_.note = note;
            host_.notice_words(rate_limited({"views.reading", "what", "", "views.the_room_list"}, host_, now));
            break;
    }
}

void Dashboard::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    const auto it = reads_.find(tag);
    if (it == reads_.end()) return;
    const Read which = it->second;
    reads_.erase(it);
    switch (which) {
        case Read::me:
            fill(host_, account_, answer, read_account, tr("views.reading", {{"what", tr("views.your_account")}}), Endpoint::me, ErrorSource::account,
                 now);
            break;
        case Read::my_status:
            fill(host_, status_, answer, read_status, tr("views.reading", {{"what", tr("views.your_status")}}), Endpoint::my_status, ErrorSource::status,
                 now);
            break;
        case Read::rooms:
            ++rooms_version_;
            fill(host_, rooms_, answer, read_rooms, tr("views.reading", {{"what", tr("views.the_room_list")}}), Endpoint::rooms_list, ErrorSource::rooms,
                 now);
            if (rooms_.value && !rooms_.value->empty()) {
                const auto& list = *rooms_.value;
                const bool known = std::any_of(list.begin(), list.end(),
                                               [&](const Room& room) { return room.room_id == selected_room_; });
                if (!known) selected_room_ = list.front().room_id;
            }
            if (on_rooms_read_) on_rooms_read_(now);
            break;
    }
}

void Dashboard::set_room_counts(const std::string& room_id, std::int64_t unread, std::int64_t mentions) {
    if (!rooms_.value) return;
    ++rooms_version_;
    for (Room& room : *rooms_.value) {
        if (room.room_id == room_id) {
            room.unread_num = unread;
            room.mention_num = mentions;
        }
    }
}

std::string Dashboard::room_name(const std::string& room_id) const {
    std::string name;
    if (rooms_.value) {
        for (const Room& room : *rooms_.value) {
            if (room.room_id == room_id) name = room.name;
        }
    }
    return name;
}

void Dashboard::drop_all() {
    reads_.clear();
    account_.loading = status_.loading = rooms_.loading = false;
    account_.note.clear();
    status_.note.clear();
    rooms_.note.clear();
}

void Dashboard::clear() {
    account_ = {};
    status_ = {};
    rooms_ = {};
    ++rooms_version_;
    selected_room_.clear();
}

}  // namespace roomkey::app
