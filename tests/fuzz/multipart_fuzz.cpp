// multipart_fuzz.cpp: property: read_multipart never crashes or reads out of
// bounds on any Content-Type and body (input: the header value up to the
// first '\n', then the body), never returns more parts than its limit or a
// part without a name; the parts it accepts, built again by build_multipart,
// read back equal (names holding '%' excepted: the builder, as browsers do,
// does not escape a literal "%22"); and any bytes sent as a file's content
// and name come back exactly (build -> read round trip).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "roomkey/multipart.hpp"

namespace {

// A different fill each call, so a boundary that collides is drawn again.
struct CountingRandom {
    std::shared_ptr<int> calls = std::make_shared<int>(0);
    void operator()(unsigned char* out, std::size_t size) const {
        const int n = (*calls)++;
        for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<unsigned char>(n * 31 + i * 7);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string_view type = input.substr(0, newline);
    const std::string_view body = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

    roomkey::MultipartLimits limits;
    limits.max_parts = 8;
    limits.max_header_bytes = 512;
    limits.max_body_bytes = 64 * 1024;
    auto parts = roomkey::read_multipart(type, body, limits);
    if (parts) {
        if (parts->empty() || parts->size() > limits.max_parts) std::abort();
        bool percent = false;
        for (const auto& part : *parts) {
            if (part.name.empty()) std::abort();
            percent = percent || part.name.find('%') != std::string::npos ||
                      (part.filename && part.filename->find('%') != std::string::npos);
        }
        auto rebuilt = roomkey::build_multipart(*parts, CountingRandom{});
        if (rebuilt && !percent) {
            auto again = roomkey::read_multipart(rebuilt->content_type, rebuilt->body);
            if (!again) std::abort();
            auto expected = *parts;
            for (auto& part : expected) {
                if (part.filename && part.content_type.empty()) part.content_type = "application/octet-stream";
            }
            if (*again != expected) std::abort();
        }
    }

    // The raw input as a file's content (and, when it is a name the builder
    // takes, as its file name) comes back byte for byte.
    const roomkey::MultipartPart file{"file", std::string(input), "", std::string(input)};
    auto built = roomkey::build_multipart({file}, CountingRandom{});
    if (!built) {
        const roomkey::MultipartPart plain{"file", std::string("f.bin"), "", std::string(input)};
        built = roomkey::build_multipart({plain}, CountingRandom{});
        if (!built) std::abort();
    }
    auto back = roomkey::read_multipart(built->content_type, built->body);
    if (!back || back->size() != 1 || (*back)[0].data != input) std::abort();
    return 0;
}
