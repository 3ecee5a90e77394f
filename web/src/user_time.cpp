// user_time.cpp: the user's time zone and locale from the browser,
// as app/time_text.hpp's UserTime: the zone's offset at each
// instant from Date, and times written by Intl.DateTimeFormat with the
// browser's own locale and zone ("14:07" or "2:07 PM", "2024/03/05",
// "05.03.2024"). Declared in browser.hpp. Emscripten-only.
#include <emscripten.h>

#include <cstdint>
#include <string>
#include <map>

#include "browser.hpp"
#include "page_bridge.hpp"

namespace {

// clang-format off
EM_JS(int, roomkey_js_utc_offset_at, (double unix_seconds), {
    return -new Date(unix_seconds * 1000).getTimezoneOffset();
});

// One formatter per TimeStyle (clock, date, date_clock, date_weekday), made
// once: the locale and zone are the browser's (undefined: its default).
// Narrow and no-break spaces ("2:07 PM" in en-US) become plain spaces, which
// every font of the app has. "" when the browser has no Intl.
EM_JS(int, roomkey_js_stage_time_text, (double unix_seconds, int style), {
    var api = window['roomkey'];
    var formats = api['_timeFormats'];
    if (!formats) {
        var make = function(options) {
            try { return new Intl.DateTimeFormat(undefined, options); } catch (e) { return null; }
        };
        formats = api['_timeFormats'] = [
            make({'hour': 'numeric', 'minute': '2-digit'}),
            make({'year': 'numeric', 'month': '2-digit', 'day': '2-digit'}),
            make({'year': 'numeric', 'month': '2-digit', 'day': '2-digit', 'hour': 'numeric', 'minute': '2-digit'}),
            make({'year': 'numeric', 'month': '2-digit', 'day': '2-digit', 'weekday': 'short'})
        ];
    }
    var format = formats[style];
    var spaces = new RegExp('[' + String.fromCharCode(0xa0, 0x2009, 0x202f) + ']', 'g');
    var text = format ? format.format(new Date(unix_seconds * 1000)).replace(spaces, ' ') : "";
    return lengthBytesUTF8(api['_stageText'](text));
});
// clang-format on

int offset_at(std::int64_t unix_seconds) {
    return roomkey_js_utc_offset_at(static_cast<double>(unix_seconds));
}

// The conversation writes each visible time every frame it draws: the
// texts are kept (a few thousand at most, then started again).
std::string write_time(std::int64_t unix_seconds, roomkey::app::TimeStyle style) {
    static std::map<std::int64_t, std::string> written;
    const std::int64_t key = unix_seconds * 4 + static_cast<int>(style);
    auto it = written.find(key);
    if (it != written.end()) return it->second;
    if (written.size() > 4096) written.clear();
    std::string text = roomkey::web::detail::read_staged(
        roomkey_js_stage_time_text(static_cast<double>(unix_seconds), static_cast<int>(style)));
    // Without Intl: digits, year first, in the zone's local time.
    if (text.empty()) text = roomkey::app::written_time(unix_seconds, style, roomkey::app::UserTime(offset_at));
    return written.emplace(key, std::move(text)).first->second;
}

}  // namespace

namespace roomkey::web {

app::UserTime browser_user_time() {
    return app::UserTime(offset_at, write_time);
}

}  // namespace roomkey::web
