// workspace_layout_test.cpp: panes chosen by width at each breakpoint (web/app/workspace_layout.hpp).
#include "app/workspace_layout.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey::app {
namespace workspace_layout_test {
namespace {

const Navigation kList{false, false};
const Navigation kRoom{true, false};
const Navigation kDetails{true, true};

std::string panes_of(const WorkspaceLayout& layout) {
    std::string out;
    for (const PaneBox& box : layout.panes) {
        if (!out.empty()) out += "|";
        out += box.pane == Pane::room_list ? "list" : box.pane == Pane::conversation ? "conversation" : "details";
    }
    if (layout.back) out += "+back";
    if (layout.to_rooms) out += "+rooms";
    return out;
}

// Panes start at 0, touch, do not overlap, have room, and fill the canvas (so
// nothing lies over the conversation or its composer); the conversation is the widest pane.
::testing::AssertionResult tiles(const WorkspaceLayout& layout, float width) {
    float x = 0.0f;
    const PaneBox* conversation = nullptr;
    for (const PaneBox& box : layout.panes) {
        if (box.x != x) return ::testing::AssertionFailure() << "a pane at " << box.x << ", expected " << x;
        if (box.width <= 0.0f) return ::testing::AssertionFailure() << "a pane " << box.width << " wide";
        if (box.pane == Pane::conversation) conversation = &box;
        x += box.width;
    }
    if (x != width) return ::testing::AssertionFailure() << "panes end at " << x << " of " << width;
    if (conversation) {
        for (const PaneBox& box : layout.panes) {
            if (box.width > conversation->width) return ::testing::AssertionFailure() << "a side pane is wider";
        }
    }
    return ::testing::AssertionSuccess();
}

TEST(WorkspaceLayout, PhonesShowOnePaneAtATimeWithBack) {
    for (float width : {360.0f, 390.0f, 799.0f}) {
        SCOPED_TRACE(width);
        const auto list = workspace_layout(width, 1.0f, kList);
        EXPECT_EQ(list.width_class, WidthClass::compact);
        EXPECT_EQ(panes_of(list), "list");
        EXPECT_TRUE(tiles(list, width));
        EXPECT_EQ(panes_of(workspace_layout(width, 1.0f, kRoom)), "conversation+back");
        EXPECT_EQ(panes_of(workspace_layout(width, 1.0f, kDetails)), "details+back");
        EXPECT_TRUE(tiles(workspace_layout(width, 1.0f, kDetails), width));
    }
}

TEST(WorkspaceLayout, MediumShowsDetailsBesideTheConversationNeverOverIt) {
    for (float width : {800.0f, 1000.0f, 1199.0f}) {
        SCOPED_TRACE(width);
        const auto room = workspace_layout(width, 1.0f, kRoom);
        EXPECT_EQ(room.width_class, WidthClass::medium);
        EXPECT_EQ(panes_of(room), "list|conversation");
        EXPECT_TRUE(tiles(room, width));
        EXPECT_TRUE(tiles(workspace_layout(width, 1.0f, kDetails), width));
        EXPECT_EQ(panes_of(workspace_layout(width, 1.0f, kList)), "list|conversation")
            << "the conversation pane stays, asking to pick a room";
    }
    // From 1000 px the conversation keeps 480 px beside both side panes.
    const auto at_1000 = workspace_layout(1000.0f, 1.0f, kDetails);
    EXPECT_EQ(panes_of(at_1000), "list|conversation|details");
    EXPECT_EQ(at_1000.panes[0].width, 240.0f);
    EXPECT_EQ(at_1000.panes[1].width, 480.0f);
    EXPECT_EQ(at_1000.panes[2].width, 280.0f);
    // Narrower, the room list gives way until the details close.
    for (float width : {800.0f, 999.0f}) {
        const auto narrow = workspace_layout(width, 1.0f, kDetails);
        EXPECT_EQ(panes_of(narrow), "conversation|details+rooms") << width;
        EXPECT_EQ(narrow.panes[1].width, 280.0f) << width;
    }
}

TEST(WorkspaceLayout, ExpandedShowsThreePanesWhileDetailsAreOpen) {
    for (float width : {1200.0f, 1366.0f, 1920.0f, 3840.0f}) {
        SCOPED_TRACE(width);
        const auto details = workspace_layout(width, 1.0f, kDetails);
        EXPECT_EQ(details.width_class, WidthClass::expanded);
        EXPECT_EQ(panes_of(details), "list|conversation|details");
        EXPECT_TRUE(tiles(details, width));
        EXPECT_EQ(panes_of(workspace_layout(width, 1.0f, kRoom)), "list|conversation");
        EXPECT_TRUE(tiles(workspace_layout(width, 1.0f, kRoom), width));
    }
    const auto at_1366 = workspace_layout(1366.0f, 1.0f, kDetails);
    EXPECT_EQ(at_1366.panes[0].width, 301.0f);  // 22 % of 1366, rounded
    EXPECT_EQ(at_1366.panes[2].width, 328.0f);  // 24 %
    EXPECT_EQ(at_1366.panes[1].width, 737.0f);
}

TEST(WorkspaceLayout, TheUiScaleCountsAsANarrowerWindow) {
    EXPECT_EQ(width_class(1366.0f, 1.0f), WidthClass::expanded);
    EXPECT_EQ(width_class(1366.0f, 1.5f), WidthClass::medium);
    EXPECT_EQ(width_class(1366.0f, 2.0f), WidthClass::compact);
    EXPECT_EQ(width_class(1366.0f, 0.0f), WidthClass::expanded) << "no scale counts as 100 %";
    const auto scaled = workspace_layout(1366.0f, 1.5f, kDetails);
    EXPECT_EQ(panes_of(scaled), "conversation|details+rooms") << "910 layout px: the list gives way";
    EXPECT_EQ(scaled.panes[1].width, 420.0f) << "280 layout px at 150 %";
    EXPECT_EQ(panes_of(workspace_layout(1366.0f, 1.5f, kRoom)), "list|conversation");
    EXPECT_EQ(workspace_layout(1366.0f, 1.5f, kRoom).panes[0].width, 360.0f) << "240 layout px at 150 %";
    EXPECT_TRUE(tiles(scaled, 1366.0f));
    for (float scale : {0.75f, 1.0f, 1.25f, 1.5f, 2.0f, 3.0f}) {
        for (float width = 360.0f; width <= 2600.0f; width += 7.0f) {
            EXPECT_TRUE(tiles(workspace_layout(width, scale, kDetails), width)) << width << " at " << scale;
            EXPECT_TRUE(tiles(workspace_layout(width, scale, kRoom), width)) << width << " at " << scale;
        }
    }
}

TEST(WorkspaceLayout, BackGoesDetailsConversationList) {
    const Navigation from_details = navigate_back(kDetails);
    EXPECT_TRUE(from_details.room_open);
    EXPECT_FALSE(from_details.details_open);
    const Navigation from_room = navigate_back(from_details);
    EXPECT_FALSE(from_room.room_open);
    EXPECT_EQ(panes_of(workspace_layout(390.0f, 1.0f, from_room)), "list");
}

// Issue 35: at 800-1023 px the room list gave way to the details with no
// control to it (only closing the details brought it back). Wherever the list
// is not shown beside an open room, there is one control to it: Back on a
// phone, "< Rooms" (to_rooms) beside the details, and that one step shows the list.
TEST(WorkspaceLayout, TheRoomsAreOneStepAwayWheneverTheListGivesWay) {
    for (float scale : {1.0f, 1.25f, 1.5f, 2.0f}) {
        for (float width = 360.0f; width <= 2600.0f; width += 7.0f) {
            for (const Navigation& nav : {kRoom, kDetails}) {
                const WorkspaceLayout layout = workspace_layout(width, scale, nav);
                const bool list = panes_of(layout).rfind("list", 0) == 0;
                if (list) {
                    EXPECT_FALSE(layout.to_rooms) << width << " at " << scale;
                    continue;
                }
                EXPECT_NE(layout.back, layout.to_rooms) << "one control to the rooms: " << width << " at " << scale;
                if (!layout.to_rooms) continue;
                EXPECT_EQ(layout.width_class, WidthClass::medium);
                EXPECT_EQ(panes_of(workspace_layout(width, scale, navigate_back(nav))), "list|conversation")
                    << width << " at " << scale;
            }
        }
    }
    EXPECT_TRUE(workspace_layout(800.0f, 1.0f, kDetails).to_rooms);
    EXPECT_TRUE(workspace_layout(1000.0f - 24.0f, 1.0f, kDetails).to_rooms) << "a 1000-px window's workspace";
    EXPECT_FALSE(workspace_layout(1000.0f, 1.0f, kDetails).to_rooms);
}

}  // namespace
}  // namespace workspace_layout_test
}  // namespace roomkey::app
