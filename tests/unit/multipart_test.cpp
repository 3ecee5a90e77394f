// multipart_test.cpp: the multipart/form-data builder (boundary from the
// random source and never in the content, names escaped as browsers do,
// UTF-8 kept) and the strict reader (typed errors, limits), and the round
// trip build -> read that the sandbox relies on.
#include "roomkey/multipart.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "roomkey/upload_limits.hpp"

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace multipart_test {
namespace {

// Fills every request with `byte`, then byte+1, ...: each call differs.
struct CountingRandom {
    std::shared_ptr<int> calls = std::make_shared<int>(0);
    void operator()(unsigned char* out, std::size_t size) const {
        const auto fill = static_cast<unsigned char>(0x41 + *calls);
        ++*calls;
        for (std::size_t i = 0; i < size; ++i) out[i] = fill;
    }
};

// The same bytes on every call.
void constant_random(unsigned char* out, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) out[i] = 0x41;
}

MultipartPart file_part(std::string filename, std::string data, std::string type = "") {
    return MultipartPart{"file", std::move(filename), std::move(type), std::move(data)};
}

MultipartPart field(std::string name, std::string value) {
    return MultipartPart{std::move(name), std::nullopt, "", std::move(value)};
}

MultipartBody build_ok(const std::vector<MultipartPart>& parts) {
    auto built = build_multipart(parts, CountingRandom{});
    EXPECT_TRUE(built) << to_string(built.error());
    return built ? *built : MultipartBody{};
}

TEST(Multipart, BuildsTheWireFormatBrowsersSend) {
    const auto built = build_ok({file_part("report.pdf", "%PDF-1.4", "application/pdf"), field("message", "Hi")});
    const std::string b = built.boundary;
    EXPECT_EQ(built.content_type, "multipart/form-data; boundary=" + b);
    EXPECT_EQ(built.body, "--" + b + "\r\n" +
                              "Content-Disposition: form-data; name=\"file\"; filename=\"report.pdf\"\r\n"
                              "Content-Type: application/pdf\r\n\r\n"
                              "%PDF-1.4\r\n"
                              "--" + b + "\r\n" +
                              "Content-Disposition: form-data; name=\"message\"\r\n\r\n"
                              "Hi\r\n"
                              "--" + b + "--\r\n");
}

TEST(Multipart, BoundaryComesFromTheRandomSource) {
    // 18 bytes of 0x41 in base64url: "QUFB" six times.
    auto built = build_multipart({field("a", "b")}, constant_random);
    ASSERT_TRUE(built) << to_string(built.error());
    EXPECT_EQ(built->boundary, "roomkey-QUFBQUFBQUFBQUFBQUFBQUFB");
    EXPECT_LE(built->boundary.size(), 70u) << "RFC 2046 5.1.1: at most 70 characters";
}

TEST(Multipart, ABoundaryFoundInTheContentIsDrawnAgain) {
    // The first draw (all 0x41) is planted in the file; the second differs.
    const std::string planted = "roomkey-QUFBQUFBQUFBQUFBQUFBQUFB";
    CountingRandom random;
    auto built = build_multipart({file_part("x.bin", "before " + planted + " after")}, random);
    ASSERT_TRUE(built) << to_string(built.error());
    EXPECT_NE(built->boundary, planted);
    EXPECT_EQ(*random.calls, 2);
    EXPECT_EQ(built->body.find(planted + "\r\n"), std::string::npos);
}

TEST(Multipart, ARandomSourceThatKeepsCollidingIsAnError) {
    const std::string planted = "roomkey-QUFBQUFBQUFBQUFBQUFBQUFB";
    auto built = build_multipart({file_part("x.bin", planted)}, constant_random);
    ASSERT_FALSE(built) << "a body was built though every boundary collides with the content";
    EXPECT_EQ(built.error(), MultipartBuildError::boundary_collision);
}

TEST(Multipart, FileNamesAreEscapedAsTheWhatwgAlgorithmSays) {
    EXPECT_EQ(content_disposition("file", std::string("a\"b\\c\r\nd.txt")),
              "form-data; name=\"file\"; filename=\"a%22b%5Cc%0D%0Ad.txt\"");
    // UTF-8 stays UTF-8 (no filename*=, RFC 7578 4.2).
    EXPECT_EQ(content_disposition("file", std::string("報告 ☃.pdf")),
              "form-data; name=\"file\"; filename=\"報告 ☃.pdf\"");
    const auto built = build_ok({file_part("報告 \"1\".pdf", "x")});
    EXPECT_EQ(built.body.find("filename*"), std::string::npos);
    EXPECT_NE(built.body.find("filename=\"報告 %221%22.pdf\""), std::string::npos);
}

TEST(Multipart, NoRawCrOrLfEverReachesAHeaderLine) {
    const auto built = build_ok({file_part("evil\r\nContent-Type: text/html\r\n\r\n.txt", "x"),
                                 field("na\nme", "v")});
    // The only line breaks are the format's own: each header line is one line.
    EXPECT_EQ(built.body.find("\r\nContent-Type: text/html"), std::string::npos);
    auto read = read_multipart(built.content_type, built.body);
    ASSERT_TRUE(read) << to_string(read.error());
    ASSERT_EQ(read->size(), 2u);
    EXPECT_EQ((*read)[0].filename, std::string("evil\r\nContent-Type: text/html\r\n\r\n.txt"));
    EXPECT_EQ((*read)[1].name, "na\nme");
}

TEST(Multipart, RefusesWhatItCannotWriteSafely) {
    EXPECT_EQ(build_multipart({}, constant_random).error(), MultipartBuildError::no_parts);
    EXPECT_EQ(build_multipart({field("", "x")}, constant_random).error(), MultipartBuildError::empty_name);
    EXPECT_EQ(build_multipart({file_part("bad\xff.txt", "x")}, constant_random).error(),
              MultipartBuildError::name_not_utf8);
    EXPECT_EQ(build_multipart({file_part(std::string("nul\0.txt", 8), "x")}, constant_random).error(),
              MultipartBuildError::control_in_name);
    EXPECT_EQ(build_multipart({file_part("a.txt", "x", "text/plain\r\nX-Evil: 1")}, constant_random).error(),
              MultipartBuildError::invalid_content_type);
}

TEST(Multipart, AFileWithoutATypeIsOctetStream) {
    const auto built = build_ok({file_part("a", "x")});
    EXPECT_NE(built.body.find("Content-Type: application/octet-stream\r\n"), std::string::npos);
}

TEST(Multipart, RoundTripKeepsEveryByte) {
    std::string binary;
    for (int i = 0; i < 256; ++i) binary += static_cast<char>(i);
    binary += "\r\n--\r\n--roomkey-\r\n\r\n";
    const std::vector<MultipartPart> parts = {file_part("日本語 名前.bin", binary, "application/x-thing"),
                                              field("message", "メッセージ\r\nline 2"), field("empty", "")};
    const auto built = build_ok(parts);
    auto read = read_multipart(built.content_type, built.body);
    ASSERT_TRUE(read) << to_string(read.error());
    std::vector<MultipartPart> expected = parts;
    EXPECT_EQ(*read, expected);
    ASSERT_NE(find_part(*read, "message"), nullptr);
    EXPECT_EQ(find_part(*read, "nope"), nullptr);
}

TEST(Multipart, AFileOfTheServicesLimitRoundTrips) {
    const std::string big(kMaxUploadFileBytes, 'z');
    const auto built = build_ok({file_part("big.bin", big), field("message", std::string(1000, 'm'))});
    EXPECT_LE(built.body.size(), kMaxUploadRequestBytes) << "the envelope constant must cover what we build";
    MultipartLimits limits;
    limits.max_body_bytes = kMaxUploadRequestBytes;
    auto read = read_multipart(built.content_type, built.body, limits);
    ASSERT_TRUE(read) << to_string(read.error());
    EXPECT_EQ((*read)[0].data.size(), kMaxUploadFileBytes);
}

// ---- the reader's refusals ----

constexpr const char* kType = "multipart/form-data; boundary=XyZ";

MultipartError read_error(std::string_view type, std::string_view body, const MultipartLimits& limits = {}) {
    auto read = read_multipart(type, body, limits);
    EXPECT_FALSE(read) << "read " << read->size() << " parts from: " << body;
    return read ? MultipartError::not_multipart : read.error();
}

TEST(MultipartReader, AcceptsAQuotedBoundaryAndAnyCaseInTheType) {
    auto read = read_multipart("Multipart/Form-Data; boundary=\"a b:c\"",
                               "--a b:c\r\nContent-Disposition: form-data; name=x\r\n\r\nv\r\n--a b:c--");
    ASSERT_TRUE(read) << to_string(read.error());
    EXPECT_EQ((*read)[0].name, "x");
    EXPECT_EQ((*read)[0].data, "v");
}

TEST(MultipartReader, TypedErrors) {
    const std::string part = "Content-Disposition: form-data; name=\"f\"\r\n\r\nv\r\n";
    EXPECT_EQ(read_error("application/x-www-form-urlencoded", "a=b"), MultipartError::not_multipart);
    EXPECT_EQ(read_error("multipart/form-data", "--x"), MultipartError::bad_boundary);
    EXPECT_EQ(read_error("multipart/form-data; boundary=" + std::string(71, 'a'), "--"), MultipartError::bad_boundary);
    EXPECT_EQ(read_error("multipart/form-data; boundary=a;boundary=b", "--a"), MultipartError::not_multipart);
    EXPECT_EQ(read_error("multipart/form-data; boundary=\"a\x01\"", "--a"), MultipartError::bad_boundary);
    EXPECT_EQ(read_error(kType, "preamble\r\n--XyZ\r\n" + part + "--XyZ--"), MultipartError::missing_first_boundary);
    EXPECT_EQ(read_error(kType, "--XyZ  \r\n" + part + "--XyZ--"), MultipartError::bad_delimiter);
    EXPECT_EQ(read_error(kType, "--XyZ\r\n" + part), MultipartError::unterminated);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nno end"),
              MultipartError::unterminated);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Disposition: form-data; name=\"f\"\r\n"),
              MultipartError::header_too_large);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nno colon here\r\n\r\nv\r\n--XyZ--"), MultipartError::bad_header);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Type: text/plain\r\n\r\nv\r\n--XyZ--"),
              MultipartError::missing_disposition);
    EXPECT_EQ(read_error(kType, "--XyZ\r\n\r\nv\r\n--XyZ--"), MultipartError::missing_disposition);
    EXPECT_EQ(read_error(kType, "--XyZ--"), MultipartError::missing_disposition);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Disposition: attachment; name=\"f\"\r\n\r\nv\r\n--XyZ--"),
              MultipartError::bad_disposition);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Disposition: form-data; filename=\"f\"\r\n\r\nv\r\n--XyZ--"),
              MultipartError::bad_disposition);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Disposition: form-data; name=\"f\r\n\r\nv\r\n--XyZ--"),
              MultipartError::bad_disposition);
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\nv\r\n--XyZ--"),
              MultipartError::bad_disposition);
    EXPECT_EQ(read_error(kType, "--XyZ\r\n" + part + "--XyZ--\r\nepilogue"), MultipartError::trailing_data);
}

TEST(MultipartReader, LimitsAreEnforced) {
    MultipartLimits limits;
    limits.max_body_bytes = 50;
    EXPECT_EQ(read_error(kType, std::string(51, 'a'), limits), MultipartError::too_large);
    limits = {};
    limits.max_parts = 2;
    std::string three = "--XyZ";
    for (int i = 0; i < 3; ++i) three += "\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\nv\r\n--XyZ";
    EXPECT_EQ(read_error(kType, three + "--", limits), MultipartError::too_many_parts);
    limits = {};
    limits.max_header_bytes = 64;
    EXPECT_EQ(read_error(kType, "--XyZ\r\nContent-Disposition: form-data; name=\"" + std::string(100, 'n') +
                                    "\"\r\n\r\nv\r\n--XyZ--",
                         limits),
              MultipartError::header_too_large);
}

TEST(MultipartReader, ErrorsHaveStableNames) {
    EXPECT_EQ(to_string(MultipartError::unterminated), "unterminated");
    EXPECT_EQ(to_string(MultipartBuildError::boundary_collision), "boundary_collision");
}

}  // namespace
}  // namespace multipart_test
}  // namespace roomkey
