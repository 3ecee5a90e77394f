// file_upload.cpp: the upload request and the two readers (see file_upload.hpp).
#include "roomkey/file_upload.hpp"

#include <cstdio>
#include <cstdlib>

#include "api_json.hpp"
#include "roomkey/upload_limits.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

std::string_view to_string(UploadRequestError error) {
    switch (error) {
        case UploadRequestError::invalid_room_id: return "upload.invalid_room_id";
        case UploadRequestError::empty_name: return "upload.empty_name";
        case UploadRequestError::too_large: return "upload.too_large";
        case UploadRequestError::bad_name: return "upload.bad_name";
        case UploadRequestError::build_failed: return "upload.build_failed";
    }
    return "upload.unknown";
}

Result<HttpRequest, UploadRequestError> upload_file_request(const ApiConfig& config, const Credentials& credentials,
                                                            std::string_view room_id, const FileToUpload& file,
                                                            const RandomSource& random) {
    if (!is_resource_id(room_id)) return Err{UploadRequestError::invalid_room_id};
    if (file.name.empty()) return Err{UploadRequestError::empty_name};
    if (file.bytes.size() > kMaxUploadFileBytes) return Err{UploadRequestError::too_large};
    // The credentials, the accept header and the catalog check as every call has them.
    auto request = api_request(config, credentials, Method::Post, "/rooms/" + std::string(room_id) + "/files");
    if (!request) return Err{UploadRequestError::build_failed};
    std::vector<MultipartPart> parts;
    parts.push_back(MultipartPart{"file", file.name, file.mime, file.bytes});
    if (!file.message.empty()) parts.push_back(MultipartPart{"message", std::nullopt, "", file.message});
    auto body = build_multipart(parts, random);
    if (!body && body.error() == MultipartBuildError::invalid_content_type) {
        parts[0].content_type.clear();  // a browser's odd type: send the bytes as what they surely are
        body = build_multipart(parts, random);
    }
    if (!body) {
        const bool name = body.error() == MultipartBuildError::name_not_utf8 ||
                          body.error() == MultipartBuildError::control_in_name;
        return Err{name ? UploadRequestError::bad_name : UploadRequestError::build_failed};
    }
    request->headers.set("content-type", body->content_type);
    request->body = std::move(body->body);
    return std::move(*request);
}

Result<std::string, ApiReadError> read_uploaded_file(const HttpResponse& response) {
    auto parsed = detail::parse_object(response);
    if (!parsed) return Err{parsed.error()};
    return detail::required_id(*parsed, "file_id", "");
}

Result<std::string, ApiReadError> read_download_url(const HttpResponse& response) {
    auto parsed = detail::parse_object(response);
    if (!parsed) return Err{parsed.error()};
    auto url = detail::optional_string(*parsed, "download_url", "");
    if (!url) return Err{url.error()};
    if (!*url) return Err{detail::read_error(ApiReadErrorKind::missing_field, "download_url")};
    // Only an https URL is opened: anything else would be a navigation the
    // service never meant (javascript:, data:, http:).
    if ((*url)->rfind("https://", 0) != 0) {
        return Err{detail::read_error(ApiReadErrorKind::invalid_value, "download_url")};
    }
    return **url;
}

std::string format_file_size(std::int64_t bytes, bool brief) {
    if (bytes < 1024) return std::to_string(bytes) + " B";
    static const char* const units[] = {"KB", "MB", "GB"};
    double value = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    const auto decimals = [&] { return !brief ? 2 : unit == 0 ? 0 : 1; };
    const auto rounded = [&] {  // the value as it will be written: 1023.996 KB is "1 MB", never "1024 KB"
        const double scale = decimals() == 0 ? 1.0 : decimals() == 1 ? 10.0 : 100.0;
        return static_cast<double>(static_cast<std::int64_t>(value * scale + 0.5)) / scale;
    };
    while (rounded() >= 1024.0 && unit < 2) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals(), rounded());
    std::string out = text;
    if (out.find('.') != std::string::npos) {
        while (out.back() == '0') out.pop_back();
        if (out.back() == '.') out.pop_back();
    }
    return out + " " + units[unit];
}

std::int64_t read_file_size(std::string_view text) {
    const std::string s(text);
    char* end = nullptr;
    const double n = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || n < 0) return -1;
    std::string unit(end);
    unit.erase(0, unit.find_first_not_of(' '));
    double scale = 0;
    if (unit == "B") scale = 1;
    if (unit == "KB") scale = 1024.0;
    if (unit == "MB") scale = 1024.0 * 1024;
    if (unit == "GB") scale = 1024.0 * 1024 * 1024;
    return scale > 0 ? static_cast<std::int64_t>(n * scale) : -1;
}

}  // namespace roomkey
