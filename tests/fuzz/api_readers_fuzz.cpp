// api_readers_fuzz.cpp. Property (invariants + round trip) for every reader of
// service data in api.hpp (read_account, read_status, read_rooms,
// read_posted_message, read_posted_tasks, read_api_error):
// - no crash, hang or sanitizer finding on any status and any body;
// - a non-2xx status is always refused as http_status (read_api_error aside,
//   which reads error bodies of any status);
// - every id a reader returns passes is_resource_id, every count is >= 0;
// - what a reader accepts, written back as the service would send it
//   (shared/'s to_json, the sandbox's writer), reads again to the same record (nothing is invented,
//   dropped or re-spelled on the way in).
// Input layout: byte 0 picks the reader, byte 1 the status, the rest is the body.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "reader_checks.hpp"
#include "roomkey/api.hpp"
#include "roomkey/endpoints.hpp"
#include "same_records.hpp"

namespace {

using namespace roomkey;

constexpr int kStatuses[] = {200, 201, 204, 299, 199, 300, 400, 401, 403, 404, 429, 500, 503, 0};

using fuzz::check_count;
using fuzz::check_id;
using fuzz::check_status_rule;
using fuzz::with_body;

void fuzz_account(const HttpResponse& response) {
    auto account = read_account(response);
    check_status_rule(account, response.status);
    if (!account) return;
    check_id(account->account_id);
    check_id(account->room_id);
    check_id(account->organization_id);
    auto again = read_account(with_body(200, to_json(*account)));
    if (!again || !fuzz::same(*again, *account)) std::abort();
}

void fuzz_status(const HttpResponse& response) {
    auto status = read_status(response);
    check_status_rule(status, response.status);
    if (!status) return;
    const MyStatus& s = *status;
    for (auto n :
         {s.unread_room_num, s.mention_room_num, s.mytask_room_num, s.unread_num, s.mention_num, s.mytask_num}) {
        check_count(n);
    }
    auto again = read_status(with_body(200, to_json(s)));
    if (!again || !fuzz::same(*again, s)) std::abort();
}

void fuzz_rooms(const HttpResponse& response) {
    auto rooms = read_rooms(response);
    check_status_rule(rooms, response.status);
    if (!rooms) return;
    for (const Room& r : *rooms) {
        check_id(r.room_id);
        for (const auto* n : {&r.unread_num, &r.mention_num, &r.mytask_num, &r.message_num, &r.file_num, &r.task_num,
                              &r.last_update_time}) {
            check_count(*n);
        }
    }
    auto again = read_rooms(with_body(200, to_json(*rooms)));
    if (!again || again->size() != rooms->size()) std::abort();
    for (std::size_t i = 0; i < rooms->size(); ++i) {
        if (!fuzz::same((*again)[i], (*rooms)[i])) std::abort();
    }
}

void fuzz_posted_message(const HttpResponse& response) {
    auto id = read_posted_message(response);
    check_status_rule(id, response.status);
    if (!id) return;
    check_id(*id);
    auto again = read_posted_message(with_body(200, posted_message_json(*id)));
    if (!again || *again != *id) std::abort();
}

void fuzz_posted_tasks(const HttpResponse& response) {
    auto ids = read_posted_tasks(response);
    check_status_rule(ids, response.status);
    if (!ids) return;
    for (const auto& id : *ids) check_id(id);
    auto again = read_posted_tasks(with_body(200, posted_tasks_json(*ids)));
    if (!again || *again != *ids) std::abort();
}

void fuzz_api_error(const HttpResponse& response) {
    auto body = read_api_error(response);
    if (!body) {
        if (body.error().kind == ApiReadErrorKind::http_status) std::abort();  // any status carries errors
        return;
    }
    // to_json is the sandbox's writer: it must read back to the same messages.
    auto again = read_api_error(with_body(response.status, to_json(*body)));
    if (!again || again->errors != body->errors) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const int status = kStatuses[data[1] % (sizeof kStatuses / sizeof kStatuses[0])];
    const HttpResponse response = with_body(status, std::string(reinterpret_cast<const char*>(data + 2), size - 2));
    switch (data[0] % 6) {
        case 0:
            fuzz_account(response);
            break;
        case 1:
            fuzz_status(response);
            break;
        case 2:
            fuzz_rooms(response);
            break;
        case 3:
            fuzz_posted_message(response);
            break;
        case 4:
            fuzz_posted_tasks(response);
            break;
        default:
            fuzz_api_error(response);
            break;
    }
    return 0;
}
