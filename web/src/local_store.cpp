// local_store.cpp: see local_store.hpp.
#include "local_store.hpp"

#include <emscripten.h>

#include <cstdint>
#include <string>

#include "page_bridge.hpp"

namespace {

// clang-format off
EM_JS(int, roomkey_js_local_stage, (const char* key), {
    var text = null;
    try { text = window.localStorage.getItem(UTF8ToString(key)); } catch (e) {}
    return lengthBytesUTF8(window['roomkey']['_stageText'](text || ""));
});

EM_JS(void, roomkey_js_local_write, (const char* key, const char* value), {
    try {
        var text = UTF8ToString(value);
        if (text.length === 0 || text === "{}") window.localStorage.removeItem(UTF8ToString(key));
        else window.localStorage.setItem(UTF8ToString(key), text);
    } catch (e) {
        // Storage off (a private mode) or full: drafts last until the reload.
    }
});
// clang-format on

std::string read(const std::string& key) {
    return roomkey::web::detail::read_staged(roomkey_js_local_stage(key.c_str()));
}

constexpr const char* kSettingsKey = "roomkey.settings";
std::string drafts_key(const std::string& account) {
    return "roomkey.drafts." + account;
}

struct Seen {
    bool settings_read = false;
    std::uint64_t settings = 0;
    std::string account;
    bool drafts_read = false;
    std::uint64_t drafts = 0;
};
Seen g_seen;

}  // namespace

namespace roomkey::web {

std::vector<app::Intent> sync_local_store(const app::App& app) {
    std::vector<app::Intent> out;
    const app::Workspace& ws = app.workspace();
    if (!g_seen.settings_read) {
        g_seen.settings_read = true;
        out.push_back(app::intent::RestoreSettings{read(kSettingsKey)});
    } else if (ws.settings().revision() != g_seen.settings) {
        g_seen.settings = ws.settings().revision();
        roomkey_js_local_write(kSettingsKey, ws.settings().stored().c_str());
    }
    const auto& account = app.dashboard().account().value;
    const std::string id = account ? account->account_id : std::string();
    if (id != g_seen.account || !g_seen.drafts_read) {
        g_seen.account = id;
        g_seen.drafts_read = true;
        out.push_back(app::intent::RestoreDrafts{id, id.empty() ? std::string() : read(drafts_key(id))});
    } else if (ws.drafts().revision() != g_seen.drafts) {
        g_seen.drafts = ws.drafts().revision();
        if (!id.empty() && ws.drafts().account() == id) {
            roomkey_js_local_write(drafts_key(id).c_str(), ws.drafts().stored().c_str());
        }
    }
    return out;
}

}  // namespace roomkey::web
