// post_words.cpp: a pending post in words (see post_words.hpp).
#include "app/post_words.hpp"

#include <cstdio>

namespace roomkey::app {

std::string_view pending_name(PostStage stage) {
    switch (stage) {
        case PostStage::waiting:
        case PostStage::sending:
        case PostStage::checking:
            return "sending";
        case PostStage::retrying:
            return "waiting";
        case PostStage::unknown:
        case PostStage::refused:
            return "failed";
        case PostStage::delivered:
        case PostStage::failed:
        case PostStage::cancelled:
            break;
    }
    return "";
}

std::string pending_words(const PostJob& job, const UserTime& user) {
    const auto starts = [&](std::string_view prefix) { return job.note.rfind(prefix, 0) == 0; };
    switch (job.stage) {
        case PostStage::retrying: {
            const std::string why = starts("503")   ? "the service is unavailable"
                                    : starts("429") ? "too many posts at once"
                                                    : "the service can't be reached";
            std::string line = "Not sent: " + why + ".";
            if (job.retry_at) {
                const std::int64_t at = (unix_ms(*job.retry_at) + 999) / 1000;
                const LocalTime t = local_time(at, user);
                char clock[16];
                std::snprintf(clock, sizeof clock, "%02u:%02u:%02u", t.hour, t.minute,
                              static_cast<unsigned>(((at % 60) + 60) % 60));
                line += " Retrying at " + std::string(clock);
            }
            return line;
        }
        case PostStage::checking:
            return "Sending... (checking whether it arrived)";
        case PostStage::unknown:
            return "May not have been sent: " + job.note + ".";
        case PostStage::refused:
            return "Not sent: " + job.note;
        default:
            return "Sending...";
    }
}

}  // namespace roomkey::app
