// api_files.cpp: files both ways, as the live service
// does them:
//   POST /rooms/{room_id}/files   multipart/form-data: `file` (at most
//       kMaxUploadFileBytes) and an optional `message`; answers {"file_id"}
//       and writes the service's own file_uploaded message into the room;
//   GET /rooms/{room_id}/files/{file_id}?create_download_url=1  adds a
//       download_url, signed and valid kDownloadUrlLifetimeSeconds;
//   GET /downloads/<file_id>?expires=...&signature=...  serves the bytes as
//       an attachment (outside /v2: the link is the credential, as the live
//       service's download host needs no API token).
// api.cpp runs the /v2 policy first and lets multipart through for the
// upload alone; api_handlers.cpp calls these from its two `case` lines.
#include <algorithm>
#include <charconv>

#include "roomkey/file_upload.hpp"
#include "roomkey/multipart.hpp"
#include "roomkey/upload_limits.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "sandbox/app.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

// A file name inside the service's notation: '[' and ']' become '(' and ')',
// so a name such as "x[/download][toall]" cannot close the download tag and
// mention the whole room (the file's record keeps the name as sent). What the
// live service does with brackets is not published: our choice
// (docs/sandbox.md).
std::string name_in_notation(std::string name) {
    for (char& c : name) {
        if (c == '[') c = '(';
        if (c == ']') c = ')';
    }
    return name;
}

// A room keeps at most this many file records (the oldest go first), like
// its messages: a long-running sandbox's memory stays flat.
constexpr std::size_t kMaxFileRecordsPerRoom = 1000;
constexpr std::size_t kMaxFileNameBytes = 255;

HttpResponse bad_file_param(std::string_view name, std::string_view rule) {
    return api_error(400, "Parameter `" + std::string(name) + "` " + std::string(rule));
}

// What a download link is for a file the sandbox keeps no bytes of (the
// demo data's records): a placeholder of the listed size, so opening one
// works as it would live.
std::string placeholder_bytes(const FileRecord& record) {
    const std::string line = "roomkey-sandbox demo file " + record.filename + "\n";
    std::string bytes;
    bytes.reserve(static_cast<std::size_t>(record.filesize));
    while (bytes.size() < static_cast<std::size_t>(record.filesize)) bytes += line;
    bytes.resize(static_cast<std::size_t>(record.filesize));
    return bytes;
}

}  // namespace

void SandboxApp::seed_demo_files() {
    for (const auto& [id, account] : chat_.accounts()) {
        for (const Room* room : chat_.rooms_of(id)) {
            for (const FileRecord& record : room->files) {
                if (file_store_.find(record.file_id)) continue;
                file_store_.add(StoredFile{record.file_id, room->room_id, record.filename, placeholder_bytes(record)});
            }
        }
    }
}

HttpResponse SandboxApp::upload_file(const RequestContext& ctx, AccountId account, Room& room, bool can_write) {
    if (!can_write) return api_error(403, "Your role in this room does not allow this operation.");
    const auto type = ctx.request.headers.get("Content-Type");
    MultipartLimits limits;
    limits.max_body_bytes = kMaxUploadRequestBytes;
    auto parts = read_multipart(type.value_or(""), ctx.request.body, limits);
    if (!parts) {
        if (parts.error() == MultipartError::not_multipart) {
            return api_error(400, "The request body must be multipart/form-data with a `file` part "
                                  "(and an optional `message` part).");
        }
        return api_error(400, "The multipart/form-data body cannot be read (" + std::string(to_string(parts.error())) +
                                  "): send it as a browser's FormData or curl -F does.");
    }
    const auto files = std::count_if(parts->begin(), parts->end(), [](const MultipartPart& p) { return p.name == "file"; });
    const MultipartPart* file = find_part(*parts, "file");
    if (!file || !file->filename) {
        return bad_file_param("file", "is required: a part named file with a filename (curl -F file=@report.pdf).");
    }
    if (files > 1) return bad_file_param("file", "must be sent once.");
    if (file->data.size() > kMaxUploadFileBytes) {
        return bad_file_param("file", "is larger than the 5 MB limit (" + std::to_string(kMaxUploadFileBytes) +
                                          " bytes): it has " + std::to_string(file->data.size()) + " bytes.");
    }
    if (file->filename->empty() || file->filename->size() > kMaxFileNameBytes) {
        return bad_file_param("file", "needs a file name of 1 to 255 bytes.");
    }
    std::string text;
    if (const MultipartPart* message = find_part(*parts, "message")) {
        // The catalog's rule for the message (RAML: at most 65,535 characters).
        const EndpointParam* rule = find_param(endpoint_info(Endpoint::room_files_post), "message");
        const std::string problem = rule ? param_value_problem(*rule, message->data) : std::string();
        if (!problem.empty()) return api_error(400, problem);
        text = message->data;
    }

    const std::int64_t now = unix_seconds(ctx.now);
    const std::int64_t file_id = file_store_.next_id();
    const std::string filename = *file->filename;
    const auto size = static_cast<std::int64_t>(file->data.size());
    file_store_.add(StoredFile{file_id, room.room_id, filename, file->data});
    // The service's own message (wlg-shinya/chatwork-converter,
    // formatter-interface.ts, records it live); a given message goes first,
    // on a line of its own (docs/sandbox.md: our choice, not documented).
    const std::string id = std::to_string(file_id);
    std::string body = text.empty() ? std::string() : text + "\n";
    body += "[info][title][dtext:file_uploaded][/title][preview id=" + id + " ht=120][download:" + id + "]" +
            name_in_notation(filename) + " (" + format_file_size(size) + ")[/download][/info]";
    const std::string message_id = chat_.post_message(room, account, std::move(body), false, now).message_id;
    if (room.files.size() >= kMaxFileRecordsPerRoom) room.files.erase(room.files.begin());
    room.files.push_back(FileRecord{file_id, account, message_id, filename, size, now});
    return json_text_response(200, uploaded_file_json(std::to_string(file_id)));
}

HttpResponse SandboxApp::file_answer(const RequestContext& ctx, const FileRecord& file, ChatFile record) {
    const auto create = form_get(ctx.query, "create_download_url");
    if (create && *create != "0" && *create != "1") {
        return bad_file_param("create_download_url", "must be 0 or 1.");
    }
    if (create == std::optional<std::string>("1")) {
        const std::int64_t expires = unix_seconds(ctx.now) + kDownloadUrlLifetimeSeconds;
        record.download_url = "https://127.0.0.1:" + std::to_string(port_) + std::string(kDownloadPath) +
                                 std::to_string(file.file_id) + "?" + download_signer_.query(file.file_id, expires);
    }
    return json_text_response(200, to_json(record));
}

HttpResponse SandboxApp::download(const RequestContext& ctx) {
    const std::string_view id_text = std::string_view(ctx.path).substr(kDownloadPath.size());
    std::int64_t file_id = 0;
    const auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), file_id);
    if (ec != std::errc() || end != id_text.data() + id_text.size()) {
        return api_error(404, "No such download: the path is /downloads/<file_id>.");
    }
    const auto expires = form_get(ctx.query, "expires");
    const auto signature = form_get(ctx.query, "signature");
    const DownloadSigner::Check check =
        expires && signature ? download_signer_.check(file_id, *expires, *signature, unix_seconds(ctx.now))
                             : DownloadSigner::Check::malformed;
    const std::string again = " Ask for a new link: GET /v2/rooms/{room_id}/files/" + std::to_string(file_id) +
                              "?create_download_url=1.";
    switch (check) {
        case DownloadSigner::Check::ok:
            break;
        case DownloadSigner::Check::malformed:
            return api_error(403, "The download link is incomplete: it needs expires and signature as the "
                                  "sandbox wrote them." + again);
        case DownloadSigner::Check::bad_signature:
            return api_error(403, "The download link is not valid: its signature does not match (was it changed, "
                                  "or written by an earlier run of the sandbox?)." + again);
        case DownloadSigner::Check::expired:
            return api_error(403, "The download link expired: links live " +
                                      std::to_string(kDownloadUrlLifetimeSeconds) + " seconds." + again);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    const StoredFile* file = file_store_.find(file_id);
    if (!file) {
        return api_error(404, "The sandbox no longer keeps this file's content: it keeps the newest " +
                                  std::to_string(kMaxStoredFileBytes / (1024 * 1024)) + " MiB of uploads.");
    }
    HttpResponse response;
    response.status = 200;
    response.body = file->bytes;
    // Never the uploader's type: a file served from this origin must not run
    // as a page (with nosniff, which every answer carries).
    response.headers.set("Content-Type", "application/octet-stream");
    response.headers.set("Content-Disposition", attachment_disposition(file->filename));
    return response;
}

}  // namespace roomkey::sandbox
