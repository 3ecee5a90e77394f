// file_upload.hpp: the service's files both ways (RAML /rooms/{room_id}/files):
// POST as multipart/form-data (`file`, optional `message`) built from
// shared/'s multipart builder, and the two answers the app reads: the new
// file_id and a download_url (GET .../files/{file_id}?create_download_url=1,
// valid 30 s).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "roomkey/api.hpp"
#include "roomkey/multipart.hpp"
#include "roomkey/random.hpp"
#include "roomkey/result.hpp"

namespace roomkey {

struct FileToUpload {
    std::string name;     // the file's name, UTF-8
    std::string mime;     // "" or not a usable header value: application/octet-stream
    std::string bytes;    // at most kMaxUploadFileBytes
    std::string message;  // "" = no message part
};

enum class UploadRequestError {
    invalid_room_id,  // not a resource id
    empty_name,       // a file needs a name
    too_large,        // over kMaxUploadFileBytes: nothing is sent
    bad_name,         // the name cannot be written (not UTF-8, a control character)
    build_failed,     // the request could not be built (configuration, credentials, boundary)
};
std::string_view to_string(UploadRequestError error);

// POST {base_url}/rooms/{room_id}/files with the multipart body.
Result<HttpRequest, UploadRequestError> upload_file_request(const ApiConfig& config, const Credentials& credentials,
                                                            std::string_view room_id, const FileToUpload& file,
                                                            const RandomSource& random);

// {"file_id": N} -> the id as digits.
Result<std::string, ApiReadError> read_uploaded_file(const HttpResponse& response);
// Its writer (the sandbox's answer): {"file_id": ...} (api_writers.cpp).
std::string uploaded_file_json(const std::string& file_id);
// The download_url of a file record asked for with create_download_url=1.
Result<std::string, ApiReadError> read_download_url(const HttpResponse& response);

// A file's size in words. As the service writes it in its file_uploaded
// message ("[download:N]a.txt (12.5 KB)"): B, KB, MB, GB of 1024, two
// decimals at most, trailing zeros dropped. `brief`: as its client lists
// files: whole KB, one decimal in MB ("47 KB", "1.2 MB").
std::string format_file_size(std::int64_t bytes, bool brief = false);
// Either form read back ("12.5 KB", "3 B", "1.2 MB"): bytes, as exact as
// its decimals; -1 when it is not a size written so.
std::int64_t read_file_size(std::string_view text);

}  // namespace roomkey
