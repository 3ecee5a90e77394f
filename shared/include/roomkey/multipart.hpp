// multipart.hpp: multipart/form-data (RFC 7578) as the service's one
// multipart endpoint, POST /rooms/{room_id}/files, takes it: a builder for
// the browser app and a strict, bounded reader for the sandbox. No I/O; the
// boundary's randomness is passed in (random.hpp).
//
// Names on the wire (the `name` and `filename` parameters of
// Content-Disposition) follow the WHATWG HTML "multipart/form-data encoding
// algorithm", which is what browsers send and so what the live service
// reads: UTF-8 kept as UTF-8 bytes inside the quotes, with LF, CR and `"`
// written as %0A, %0D and %22. roomkey also writes `\` as %5C: a reader that
// takes the quotes as an RFC 9110 quoted-string would otherwise drop it as an
// escape character. There is no `filename*=` (RFC 5987): RFC 7578 4.2 says
// it MUST NOT be used in multipart/form-data, and receivers that follow the
// HTML standard ignore it. `%` itself is not escaped (as in browsers), so a
// name holding a literal "%22" reads back as `"`: the price of matching what
// browsers send.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/random.hpp"
#include "roomkey/result.hpp"

namespace roomkey {

// One part of a multipart/form-data body: a plain field (`filename` unset)
// or a file.
struct MultipartPart {
    std::string name;                     // the form field's name (UTF-8)
    std::optional<std::string> filename;  // set for a file part (UTF-8)
    std::string content_type;             // the part's Content-Type; "" = none given
    std::string data;                     // the content, any bytes

    bool operator==(const MultipartPart& other) const {
        return name == other.name && filename == other.filename && content_type == other.content_type &&
               data == other.data;
    }
};

// A built body and the Content-Type header that names its boundary.
struct MultipartBody {
    std::string content_type;  // multipart/form-data; boundary=...
    std::string boundary;
    std::string body;
};

// Why a body could not be built (we were given something unusable).
enum class MultipartBuildError {
    no_parts,              // at least one part is needed
    empty_name,            // a part without a field name
    name_not_utf8,         // a field name or file name that is not valid UTF-8
    control_in_name,       // a control character other than CR/LF (NUL, TAB, ESC, DEL, ...) in a name
    invalid_content_type,  // a part Content-Type with characters a header value cannot carry
    boundary_collision,    // every boundary drawn from the random source occurred in the content
};
std::string_view to_string(MultipartBuildError error);

// Draws a boundary from `random` (18 bytes, base64url: 144 bits), checks
// that it occurs nowhere in the parts, and writes the body. A file part
// without content_type is sent as application/octet-stream; a plain field
// gets no Content-Type (RFC 7578 4.4: text/plain is implied).
Result<MultipartBody, MultipartBuildError> build_multipart(const std::vector<MultipartPart>& parts,
                                                           const RandomSource& random);

// The Content-Disposition value the builder writes for a part (tests, and
// the reader's round trip).
std::string content_disposition(std::string_view name, const std::optional<std::string>& filename);

// Why a body was refused (the peer sent something the reader does not take).
enum class MultipartError {
    not_multipart,         // Content-Type is not multipart/form-data
    bad_boundary,          // no boundary parameter, or one RFC 2046 does not allow (1-70 chars)
    too_large,             // the body is over the reader's limit
    missing_first_boundary,// the body does not start with --boundary (no preamble is accepted)
    bad_delimiter,         // a boundary line not followed by CRLF or "--"
    header_too_large,      // a part's header section over the limit, or never ended by an empty line
    bad_header,            // a header line without "name:" or with a bare CR/LF
    missing_disposition,   // a part without Content-Disposition
    bad_disposition,       // not form-data, no name, an unterminated quote, a duplicate parameter
    unterminated,          // the closing --boundary-- never came
    too_many_parts,        // more parts than the reader's limit
    trailing_data,         // bytes after the closing boundary other than one CRLF
};
std::string_view to_string(MultipartError error);

struct MultipartLimits {
    std::size_t max_body_bytes = 8 * 1024 * 1024;
    std::size_t max_parts = 16;
    std::size_t max_header_bytes = 8 * 1024;  // one part's header section
};

// Reads a multipart/form-data body strictly: the boundary from
// `content_type_header`, no preamble, CRLF line ends, a Content-Disposition
// form-data with a name on every part; %22, %0D, %0A and %5C in names
// decoded (case-insensitive hex). Other part headers than Content-Type are
// ignored. Never reads past `body` and stops at the first violation.
Result<std::vector<MultipartPart>, MultipartError> read_multipart(std::string_view content_type_header,
                                                                  std::string_view body,
                                                                  const MultipartLimits& limits = {});

// The first part named `name`, or nullptr.
const MultipartPart* find_part(const std::vector<MultipartPart>& parts, std::string_view name);

}  // namespace roomkey
