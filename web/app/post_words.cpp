// post_words.cpp: a pending post in words (see post_words.hpp).
#include "app/post_words.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {

namespace {
// PostDoubt's words, in its order.
constexpr const char* kDoubts[] = {"pending.doubt.answer_lost", "pending.doubt.timeout", "pending.doubt.connection",
                                   "pending.doubt.not_in_room"};
// PostRefusal's words, in its order: what happened, then what to do.
constexpr const char* kRefusals[] = {"pending.refusal.other", "pending.refusal.invalid", "pending.refusal.forbidden",
                                     "pending.refusal.not_found"};
}  // namespace

std::string doubt_words(PostDoubt doubt) { return tr(kDoubts[static_cast<int>(doubt)]); }

std::string refusal_words(PostRefusal refusal) {
    return tr("pending.refused", {{"note", tr(kRefusals[static_cast<int>(refusal)])}});
}

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
            const char* why = starts("503")   ? tr("pending.unavailable")
                              : starts("429") ? tr("pending.rate_limited")
                                              : tr("pending.unreachable");
            std::string line = tr("pending.not_sent", {{"why", why}});
            if (job.retry_at) line += " " + tr("pending.retrying_at", {{"time", clock_seconds_text(unix_ms(*job.retry_at), user)}});
            return line;
        }
        case PostStage::checking:
            return tr("pending.checking");
        case PostStage::unknown:
            // By its cause, not the note's wire words (the note stays the page API's and the developer view's).
            return tr("pending.maybe_not_sent", {{"note", doubt_words(job.doubt)}});
        case PostStage::refused:
            // By its cause too: the note's "HTTP 400: ..." is the page API's and the developer view's.
            return refusal_words(job.refusal);
        default:
            return tr("pending.sending");
    }
}

}  // namespace roomkey::app
