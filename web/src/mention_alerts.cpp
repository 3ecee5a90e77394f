// mention_alerts.cpp: see mention_alerts.hpp.
#include "mention_alerts.hpp"

#include <string>

#include "browser.hpp"

namespace roomkey::web {

namespace {

struct Alerts {
    DeliverIntents deliver = nullptr;
    std::string title;
    bool enabled = false;
    // The rooms of the notifications shown: a click names one by its index.
    std::vector<std::string> rooms;
};

Alerts& alerts() {
    static Alerts instance;
    return instance;
}

void on_click(int tag) {
    Alerts& a = alerts();
    if (!a.deliver || tag < 0 || static_cast<std::size_t>(tag) >= a.rooms.size()) return;
    const std::string& room = a.rooms[static_cast<std::size_t>(tag)];
    a.deliver({app::intent::ShowView{false}, app::intent::SelectRoom{room}, app::intent::OpenRoom{room}});
}

void on_permission(int) {
    Alerts& a = alerts();
    if (a.deliver) a.deliver({app::intent::NotificationPermission{notification_permission()}});
}

}  // namespace

void install_mention_alerts(app::App& app, DeliverIntents deliver, Instant now) {
    alerts().deliver = deliver;
    app.apply(app::intent::NotificationPermission{notification_permission()}, now);
}

void show_mention_alerts(app::App& app) {
    Alerts& a = alerts();
    const app::Workspace& ws = app.workspace();
    if (ws.notifications_enabled() && !a.enabled && ws.permission() != "granted") {
        request_notification_permission(on_permission);
    }
    a.enabled = ws.notifications_enabled();
    if (ws.title() != a.title) {
        a.title = ws.title();
        set_title(a.title);
    }
    for (const app::MentionAlert& alert : app.take_alerts()) {
        a.rooms.push_back(alert.room_id);
        show_notification(alert.title, alert.text, static_cast<int>(a.rooms.size() - 1), on_click);
    }
}

}  // namespace roomkey::web
