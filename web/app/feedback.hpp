// feedback.hpp: what the user is told, apart from what a feature shows in
// its own panel: the error (and the action it belongs to, so that action's
// success clears it), the one-line notice, the form's own error and the
// question a sign-out asks while posts are still open. One owner, so the
// sign-in, the BFF panel and the features cannot each keep their own.
#pragma once

#include <optional>
#include <string>

#include "app/effects.hpp"
#include "app/feature.hpp"
#include "app/user_errors.hpp"

namespace roomkey::app {

// An action's outcome for the user: text for the clipboard or a file to
// save, and what to tell them.
struct Told {
    Words notice;
    std::optional<std::string> copy;
    std::optional<effect::SaveFile> file;
};

class Feedback {
public:
    const std::optional<UserError>& error() const { return error_; }
    // In the language of now (a notice kept as Words).
    std::string notice() const { return notice_.text(); }
    const std::string& form_error() const { return form_error_; }
    // Sign-out was asked while posts are still open: how many would be lost.
    std::optional<long> sign_out_confirm() const { return sign_out_confirm_; }

    // Each source's error as the box says it ("" when none or cleared):
    // the text mirror's per-view lines (state().error_words).
    const std::string& said(ErrorSource source) const { return said_[static_cast<int>(source)]; }

    void set_error(UserError error, ErrorSource source) {
        said_[static_cast<int>(source)] = error.said();
        error_ = std::move(error);
        source_ = source;
    }
    // The action `source` stands for succeeded: its error, if shown, goes.
    void clear_error(ErrorSource source) {
        said_[static_cast<int>(source)].clear();
        if (error_ && source_ == source) error_.reset();
    }
    void reset_error() { error_.reset(); }
    void set_notice(std::string text) { notice_ = Words::as_written(std::move(text)); }
    // Kept as words (catalog keys and their arguments), put in words when read.
    void set_notice(Words words) { notice_ = std::move(words); }
    void set_form_error(std::string text) { form_error_ = std::move(text); }
    // The error and the notice go (signed out, trying again).
    void clear() {
        error_.reset();
        notice_ = {};
    }
    // A sign-out with `open` posts still open: true when it may go now;
    // otherwise the question is asked first (the posts are the user's text,
    // not yet anywhere else).
    bool sign_out_may_go(long open, bool discard) {
        if (open > 0 && !discard) {
            sign_out_confirm_ = open;
            return false;
        }
        sign_out_confirm_.reset();
        return true;
    }
    void cancel_sign_out() { sign_out_confirm_.reset(); }

private:
    std::optional<UserError> error_;
    ErrorSource source_ = ErrorSource::other;
    std::string said_[static_cast<int>(ErrorSource::contacts) + 1];
    Words notice_;
    std::string form_error_;
    std::optional<long> sign_out_confirm_;
};

}  // namespace roomkey::app
