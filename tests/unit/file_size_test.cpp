// file_size_test.cpp: a file's size in words (shared/'s format_file_size):
// as the service writes it in its file_uploaded message, and as its client
// lists files (brief). The message's form is the live service's, from its
// recorded message bodies: "[download:N]report.pdf (12.5 KB)[/download]",
// B / KB / MB with at most two decimals (docs/sandbox.md, the
// file_uploaded message). The brief form is roomkey's own choice for its
// Files list (whole KB, one decimal from MB), not the service's.
#include <gtest/gtest.h>

#include <cstdlib>

#include "roomkey/file_upload.hpp"

namespace roomkey {
namespace file_size_test {
namespace {

TEST(FileSize, AsTheServiceWritesItInItsMessage) {
    EXPECT_EQ(format_file_size(0), "0 B");
    EXPECT_EQ(format_file_size(1023), "1023 B");
    EXPECT_EQ(format_file_size(1024), "1 KB");
    EXPECT_EQ(format_file_size(12800), "12.5 KB");
    EXPECT_EQ(format_file_size(48213), "47.08 KB");
    EXPECT_EQ(format_file_size(2 * 1024 * 1024 + 4321), "2 MB") << "2.004 MB, two decimals at most";
    EXPECT_EQ(format_file_size(1024 * 1024 - 1), "1 MB") << "rounded to 1024.00 KB: one unit up";
}

TEST(FileSize, BriefAsTheClientListsFiles) {
    EXPECT_EQ(format_file_size(512, true), "512 B");
    EXPECT_EQ(format_file_size(48213, true), "47 KB") << "whole kilobytes";
    EXPECT_EQ(format_file_size(1258291, true), "1.2 MB") << "one decimal in megabytes";
    EXPECT_EQ(format_file_size(1024 * 1024 - 100, true), "1 MB") << "never \"1024 KB\"";
    EXPECT_EQ(format_file_size(5LL * 1024 * 1024 * 1024, true), "5 GB");
}

// The preview reads the size back from the message to leave a large image
// alone (app/file_preview.hpp): either form reads as its bytes, as exact as
// its decimals.
TEST(FileSize, ReadBackAsWritten) {
    for (const std::int64_t bytes : {0LL, 3LL, 1023LL, 12800LL, 48213LL, 1258291LL, 4LL * 1024 * 1024 + 1}) {
        for (const bool brief : {false, true}) {
            const std::string written = format_file_size(bytes, brief);
            const std::int64_t read = read_file_size(written);
            EXPECT_LE(std::llabs(read - bytes), bytes / 20 + 1) << written;
        }
    }
    EXPECT_EQ(read_file_size("lots"), -1);
    EXPECT_EQ(read_file_size("3 parsecs"), -1);
}

}  // namespace
}  // namespace file_size_test
}  // namespace roomkey
