// mention_alerts.hpp: mentions in the browser: the tab's title with
// the mention count, the notification permission asked for when the user
// turns notifications on, a desktop notification per mention that rose
// (app/workspace.hpp decides which), and its click opening the room. The
// browser calls (browser.hpp) stay here, out of main.cpp's frame runner.
#pragma once

#include <vector>

#include "app/app.hpp"

namespace roomkey::web {

// What the browser answers later (a notification clicked, the permission
// given or refused) reaches the app through `deliver`, which applies the
// intents and lets the app settle (main.cpp).
using DeliverIntents = void (*)(const std::vector<app::Intent>& intents);

// At start: the permission the browser holds now goes to the app.
void install_mention_alerts(app::App& app, DeliverIntents deliver, Instant now);

// After the app changed: the title follows, a switch turned on asks for the
// permission, and each new alert becomes a notification.
void show_mention_alerts(app::App& app);

}  // namespace roomkey::web
