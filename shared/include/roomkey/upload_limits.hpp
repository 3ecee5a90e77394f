// upload_limits.hpp: the size rules of POST /rooms/{room_id}/files, the one
// endpoint whose body is multipart/form-data (the service's RAML,
// chatwork/api RAML/api-ja.raml: "アップロードするファイル（上限：5MB）"). The
// sandbox refuses a larger file part; the helper and the generated nginx
// front accept that route's body up to the file plus the multipart envelope,
// and keep kMaxRequestBodyBytes everywhere else. One definition, read by all.
#pragma once

#include <cstddef>

namespace roomkey {

// The largest file part the service accepts: 5 MB, counted as 5 MiB.
inline constexpr std::size_t kMaxUploadFileBytes = 5 * 1024 * 1024;  // 5,242,880

// Room for what wraps the file in a multipart body: boundaries, part headers
// (a UTF-8 file name of up to 255 bytes, quoted), and the optional message
// part (a message body is at most 65,535 characters, up to 4 bytes each in
// UTF-8).
inline constexpr std::size_t kMultipartEnvelopeBytes = 300 * 1024;

// The request-body limit of the upload route at the helper and nginx fronts.
inline constexpr std::size_t kMaxUploadRequestBytes = kMaxUploadFileBytes + kMultipartEnvelopeBytes;

// Every other request body at the fronts (413 beyond it).
inline constexpr std::size_t kMaxRequestBodyBytes = 1024 * 1024;

}  // namespace roomkey
