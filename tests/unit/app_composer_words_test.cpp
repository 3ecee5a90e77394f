// app_composer_words_test.cpp: status lines and questions name things by
// their words (web/app/words.hpp): a room by its name, a task and a file by
// what the user wrote, never by an id; long text is cut on a character.
#include "app/words.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
namespace {

TEST(Words, LongTextIsCutOnACharacterWithAnEllipsis) {
    EXPECT_EQ(cut_short("Alice, the sandbox is up again and every room reads", 20), "Alice, the sandbox i\u2026");
    EXPECT_EQ(cut_short("short", 20), "short");
    EXPECT_EQ(cut_short("line one\nline two", 40), "line one line two");
    EXPECT_EQ(cut_short("\u3042\u3044\u3046\u3048\u304a", 3), "\u3042\u3044\u3046\u2026");
}

TEST(Words, RoomsTasksAndFilesByNameNeverById) {
    Room launch;
    launch.room_id = "2100";
    launch.name = "Launch";
    const std::vector<Room> rooms{launch};
    EXPECT_EQ(room_words(&rooms, "2100"), "Launch");
    EXPECT_EQ(room_words(&rooms, "2200").find("2200"), std::string::npos);
    ChatTask task;
    task.task_id = "5000";
    task.body = "Review the consent screen wording";
    const std::vector<ChatTask> tasks{task};
    EXPECT_EQ(task_words({nullptr, &tasks}, "5000"), "'Review the consent screen wording'");
    EXPECT_EQ(task_words({&tasks}, "5001").find("5001"), std::string::npos);
    ChatFile file;
    file.file_id = "9100";
    file.filename = "ux-note.txt";
    EXPECT_EQ(file_words({file}, "9100"), "ux-note.txt");
    EXPECT_EQ(file_words({file}, "9101").find("9101"), std::string::npos);
}

}  // namespace
}  // namespace roomkey::app
