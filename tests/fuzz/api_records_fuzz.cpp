// api_records_fuzz.cpp. Property (invariants + round trip) for every reader
// of api_records.hpp (messages, one message, tasks and my tasks, members,
// files, contacts, incoming requests, an accepted request, unread counts, a
// task status answer):
// - no crash, hang or sanitizer finding on any status and any body;
// - a non-2xx status is always refused as http_status; a list reader reads
//   204 No Content as the empty list;
// - every id a reader returns (the record's own, nested accounts and rooms,
//   message ids) passes is_resource_id; every count and time is >= 0; a task's
//   status is "open" or "done";
// - what a reader accepts, written back as the service would send it
//   (shared/'s to_json, the sandbox's writer), reads again to the same records.
// Input layout: byte 0 picks the reader, byte 1 the status, the rest is the body.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "reader_checks.hpp"
#include "roomkey/api_records.hpp"
#include "roomkey/endpoints.hpp"
#include "same_records.hpp"

namespace {

using namespace roomkey;

constexpr int kStatuses[] = {200, 204, 201, 299, 199, 300, 400, 401, 403, 404, 429, 500, 503, 0};

using fuzz::with_body;

// Short names: the checks below are one line a field.
void id(const std::string& text) {
    fuzz::check_id(text);
}
void id(const std::optional<std::string>& text) {
    fuzz::check_id(text);
}
void count(std::int64_t n) {
    fuzz::check_count(n);
}
void count(const std::optional<std::int64_t>& n) {
    fuzz::check_count(n);
}
void brief(const AccountBrief& a) {
    id(a.account_id);
}
void brief(const std::optional<AccountBrief>& a) {
    if (a) brief(*a);
}

void check(const ChatMessage& m) {
    id(m.message_id);
    brief(m.account);
    count(m.send_time);
    count(m.update_time);
}
void check(const ChatTask& t) {
    id(t.task_id);
    brief(t.account);
    brief(t.assigned_by_account);
    if (t.room) id(t.room->room_id);
    id(t.message_id);
    count(t.limit_time);
    if (t.status != "open" && t.status != "done") std::abort();
}
void check(const RoomMember& m) {
    id(m.account_id);
}
void check(const ChatFile& f) {
    id(f.file_id);
    brief(f.account);
    id(f.message_id);
    count(f.filesize);
    count(f.upload_time);
}
void check(const Contact& c) {
    id(c.account_id);
    id(c.room_id);
}
void check(const ContactRequest& r) {
    id(r.request_id);
    id(r.account_id);
}
void check(const UnreadCounts& c) {
    count(c.unread_num);
    count(c.mention_num);
}

template <class Record>
void list(const HttpResponse& response, Result<std::vector<Record>, ApiReadError> (*reader)(const HttpResponse&)) {
    auto records = reader(response);
    fuzz::check_status_rule(records, response.status);
    if (response.status == 204 && (!records || !records->empty())) std::abort();
    if (!records) return;
    for (const auto& r : *records) check(r);
    auto again = reader(with_body(200, to_json(*records)));
    if (!again || again->size() != records->size()) std::abort();
    for (std::size_t i = 0; i < records->size(); ++i) {
        if (!fuzz::same((*again)[i], (*records)[i])) std::abort();
    }
}

template <class Record>
void one(const HttpResponse& response, Result<Record, ApiReadError> (*reader)(const HttpResponse&)) {
    auto record = reader(response);
    fuzz::check_status_rule(record, response.status);
    if (!record) return;
    check(*record);
    auto again = reader(with_body(200, to_json(*record)));
    if (!again || !fuzz::same(*again, *record)) std::abort();
}

void task_status(const HttpResponse& response) {
    auto task = read_task_status_answer(response);
    fuzz::check_status_rule(task, response.status);
    if (!task) return;
    id(*task);
    auto again = read_task_status_answer(with_body(200, task_status_answer_json(*task)));
    if (!again || *again != *task) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const int status = kStatuses[data[1] % (sizeof kStatuses / sizeof kStatuses[0])];
    const HttpResponse response = with_body(status, std::string(reinterpret_cast<const char*>(data + 2), size - 2));
    switch (data[0] % 10) {
        case 0:
            list(response, read_messages);
            break;
        case 1:
            one(response, read_message);
            break;
        case 2:
            list(response, read_tasks);
            break;
        case 3:
            list(response, read_members);
            break;
        case 4:
            list(response, read_files);
            break;
        case 5:
            list(response, read_contacts);
            break;
        case 6:
            list(response, read_incoming_requests);
            break;
        case 7:
            one(response, read_accepted_request);
            break;
        case 8:
            one(response, read_unread_counts);
            break;
        default:
            task_status(response);
            break;
    }
    return 0;
}
