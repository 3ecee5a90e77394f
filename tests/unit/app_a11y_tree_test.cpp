// The accessibility tree's diff: only what changed reaches the DOM
// (web/app/a11y_tree.hpp).
#include "app/a11y_tree.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

namespace roomkey::app {

// Readable failures (found by GoogleTest through ADL).
void PrintTo(const A11yNode& n, std::ostream* out) {
    *out << "{" << n.id << " " << to_string(n.role) << " '" << n.name << "' parent " << n.parent << "}";
}

namespace {

A11yNode node(std::uint32_t id, A11yRole role, std::string name, std::uint32_t parent = 0) {
    A11yNode n;
    n.id = id;
    n.role = role;
    n.name = std::move(name);
    n.parent = parent;
    n.rect = {10, static_cast<int>(id) * 20, 100, 18};
    return n;
}

// Applies ops to a model of the DOM: per parent, an ordered list of nodes.
// The diff is right when applying it to `before` yields `after` exactly.
std::vector<A11yNode> apply_ops(std::vector<A11yNode> tree, const std::vector<A11yOp>& ops) {
    const auto find = [&](std::uint32_t id) {
        return std::find_if(tree.begin(), tree.end(), [&](const A11yNode& n) { return n.id == id; });
    };
    const auto remove_subtree = [&](std::uint32_t id) {
        std::vector<std::uint32_t> doomed{id};
        for (std::size_t i = 0; i < doomed.size(); ++i) {
            for (const A11yNode& n : tree) {
                if (n.parent == doomed[i]) doomed.push_back(n.id);
            }
        }
        for (std::uint32_t d : doomed) tree.erase(find(d));
    };
    const auto insert = [&](A11yNode n, std::uint32_t after_id) {
        // Right after `after_id` and its descendants, or first under the parent.
        auto position = tree.begin();
        if (after_id != 0) {
            position = find(after_id);
            EXPECT_NE(position, tree.end()) << "after " << after_id << " is not in the tree";
            if (position == tree.end()) return;
            ++position;
            while (position != tree.end() && position->parent == after_id) ++position;  // its children
        } else {
            position = n.parent == 0 ? tree.begin() : find(n.parent) + 1;
        }
        tree.insert(position, std::move(n));
    };
    for (const A11yOp& op : ops) {
        switch (op.kind) {
            case A11yOp::Kind::Remove:
                remove_subtree(op.node.id);
                break;
            case A11yOp::Kind::Add:
                insert(op.node, op.after);
                break;
            case A11yOp::Kind::Update:
                *find(op.node.id) = op.node;
                break;
            case A11yOp::Kind::Move: {  // the element with its children
                auto from = find(op.node.id), to = from + 1;
                while (to != tree.end() && to->parent == op.node.id) ++to;
                std::vector<A11yNode> moved(from, to);
                tree.erase(from, to);
                insert(moved[0], op.after);
                auto at = find(op.node.id) + 1;
                tree.insert(at, moved.begin() + 1, moved.end());
                break;
            }
        }
    }
    return tree;
}

TEST(A11yTree, AnUnchangedTreeNeedsNoOperation) {
    const std::vector<A11yNode> tree = {node(1, A11yRole::Heading, "roomkey"), node(2, A11yRole::Button, "Sign in")};
    EXPECT_TRUE(diff_a11y_tree(tree, tree).empty());
}

TEST(A11yTree, TheFirstFrameAddsEveryNodeInOrder) {
    const std::vector<A11yNode> tree = {node(1, A11yRole::Heading, "roomkey"), node(2, A11yRole::Button, "Sign in"),
                                        node(3, A11yRole::Checkbox, "rooms.all:read")};
    const std::vector<A11yOp> ops = diff_a11y_tree({}, tree);
    ASSERT_EQ(ops.size(), 3u);
    EXPECT_EQ(ops[0].after, 0u);
    EXPECT_EQ(ops[1].after, 1u);
    EXPECT_EQ(ops[2].after, 2u);
    EXPECT_EQ(apply_ops({}, ops), tree);
}

TEST(A11yTree, OnlyTheChangedControlIsUpdated) {
    std::vector<A11yNode> before = {node(1, A11yRole::Button, "Sign in"), node(2, A11yRole::Checkbox, "users"),
                                    node(3, A11yRole::TextField, "Message")};
    std::vector<A11yNode> after = before;
    after[1].state |= kA11yChecked;
    after[2].value = "hello";
    const std::vector<A11yOp> ops = diff_a11y_tree(before, after);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].kind, A11yOp::Kind::Update);
    EXPECT_EQ(ops[0].node.id, 2u);
    EXPECT_EQ(ops[1].kind, A11yOp::Kind::Update);
    EXPECT_EQ(ops[1].node.value, "hello");
    EXPECT_EQ(apply_ops(before, ops), after);
}

TEST(A11yTree, SignInToSignedInRemovesAndAddsOnlyTheDifference) {
    const std::vector<A11yNode> before = {node(1, A11yRole::Heading, "roomkey"), node(2, A11yRole::Button, "Sign in"),
                                          node(9, A11yRole::Button, "Text size")};
    const std::vector<A11yNode> after = {node(1, A11yRole::Heading, "roomkey"), node(5, A11yRole::Button, "Sign out"),
                                         node(6, A11yRole::TextField, "Message"),
                                         node(9, A11yRole::Button, "Text size")};
    const std::vector<A11yOp> ops = diff_a11y_tree(before, after);
    ASSERT_EQ(ops.size(), 3u);
    EXPECT_EQ(ops[0].kind, A11yOp::Kind::Remove);
    EXPECT_EQ(ops[0].node.id, 2u);
    EXPECT_EQ(ops[1].kind, A11yOp::Kind::Add);
    EXPECT_EQ(ops[1].after, 1u);
    EXPECT_EQ(ops[2].kind, A11yOp::Kind::Add);
    EXPECT_EQ(ops[2].after, 5u);
    EXPECT_EQ(apply_ops(before, ops), after);
}

TEST(A11yTree, AReorderMovesTheFewestNodes) {
    std::vector<A11yNode> before;
    for (std::uint32_t id = 1; id <= 6; ++id) before.push_back(node(id, A11yRole::ListItem, "room", 0));
    std::vector<A11yNode> after = before;
    std::rotate(after.begin(), after.begin() + 5, after.end());  // 6 1 2 3 4 5
    const std::vector<A11yOp> ops = diff_a11y_tree(before, after);
    ASSERT_EQ(ops.size(), 1u) << "one node moved; five kept their order";
    EXPECT_EQ(ops[0].kind, A11yOp::Kind::Move);
    EXPECT_EQ(ops[0].node.id, 6u);
    EXPECT_EQ(ops[0].after, 0u);
    EXPECT_EQ(apply_ops(before, ops), after);
}

TEST(A11yTree, ListsKeepTheirItemsAndARemovedListTakesThemAlong) {
    const std::vector<A11yNode> before = {node(1, A11yRole::List, "Rooms"), node(2, A11yRole::ListItem, "開発", 1),
                                          node(3, A11yRole::ListItem, "Привет", 1),
                                          node(4, A11yRole::Button, "Sign out")};
    std::vector<A11yNode> after = before;
    after.insert(after.begin() + 3, node(7, A11yRole::ListItem, "🚀", 1));
    std::vector<A11yOp> ops = diff_a11y_tree(before, after);
    ASSERT_EQ(ops.size(), 1u);
    EXPECT_EQ(ops[0].kind, A11yOp::Kind::Add);
    EXPECT_EQ(ops[0].node.parent, 1u);
    EXPECT_EQ(ops[0].after, 3u);
    EXPECT_EQ(apply_ops(before, ops), after);

    const std::vector<A11yNode> gone = {node(4, A11yRole::Button, "Sign out")};
    ops = diff_a11y_tree(after, gone);
    ASSERT_EQ(ops.size(), 1u) << "the list's removal removes its items";
    EXPECT_EQ(ops[0].node.id, 1u);
    EXPECT_EQ(apply_ops(after, ops), gone);
}

// A screen reader follows the conversation as a log of messages, each an article that
// reads as the message is drawn, holding its own controls. A message that
// arrives is one addition at the log's end (what a live log announces);
// the messages before it are not touched.
TEST(A11yTree, ANewMessageIsOneArticleAddedAtTheLogsEnd) {
    const std::vector<A11yNode> before = {node(1, A11yRole::Log, "Conversation"),
                                          node(2, A11yRole::Article, "Bob, 10:00: To Alice hi", 1),
                                          node(3, A11yRole::Button, "Reply", 2)};
    std::vector<A11yNode> after = before;
    after.push_back(node(4, A11yRole::Article, "Carol, 10:01: lunch?", 1));
    after.push_back(node(5, A11yRole::Button, "Reply", 4));
    const std::vector<A11yOp> ops = diff_a11y_tree(before, after);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].node.id, 4u);
    EXPECT_EQ(ops[0].after, 2u) << "after the last message";
    EXPECT_EQ(apply_ops(before, ops), after);
    const nlohmann::json parsed = nlohmann::json::parse(a11y_ops_json(diff_a11y_tree({}, before)));
    EXPECT_EQ(parsed[0]["role"], "log");
    EXPECT_EQ(parsed[1]["role"], "article");
    EXPECT_EQ(parsed[1]["name"], "Bob, 10:00: To Alice hi");
    EXPECT_EQ(parsed[2]["parent"], 2) << "the message's own Reply";
}

// A question over the page is a dialog named by its title, its buttons
// inside; its title in another language is one update of the same node
// (the buttons stay where they are).
TEST(A11yTree, ADialogIsNamedByItsTitleAndHoldsItsButtons) {
    const std::vector<A11yNode> english = {node(1, A11yRole::Dialog, "Delete this message?"),
                                           node(2, A11yRole::Button, "Delete", 1),
                                           node(3, A11yRole::Button, "Cancel", 1)};
    const nlohmann::json parsed = nlohmann::json::parse(a11y_ops_json(diff_a11y_tree({}, english)));
    EXPECT_EQ(parsed[0]["role"], "dialog");
    EXPECT_EQ(parsed[0]["name"], "Delete this message?");
    EXPECT_EQ(parsed[1]["parent"], 1) << "its buttons are inside it";
    std::vector<A11yNode> japanese = {node(1, A11yRole::Dialog, "このメッセージを削除しますか？"),
                                      node(2, A11yRole::Button, "削除", 1), node(3, A11yRole::Button, "キャンセル", 1)};
    const std::vector<A11yOp> ops = diff_a11y_tree(english, japanese);
    ASSERT_EQ(ops.size(), 3u);
    for (const A11yOp& op : ops) EXPECT_EQ(op.kind, A11yOp::Kind::Update) << op.node.name;
    EXPECT_EQ(apply_ops(english, ops), japanese);
}

TEST(A11yTree, ARoleChangeReplacesTheElement) {
    const std::vector<A11yNode> before = {node(1, A11yRole::Button, "x")};
    const std::vector<A11yNode> after = {node(1, A11yRole::Checkbox, "x")};
    const std::vector<A11yOp> ops = diff_a11y_tree(before, after);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].kind, A11yOp::Kind::Remove);
    EXPECT_EQ(ops[1].kind, A11yOp::Kind::Add);
    EXPECT_EQ(apply_ops(before, ops), after);
}

// The diff keeps its lookups in flat tables reused from one frame to the
// next: frames of any size, one after another, each turn their tree into
// the next exactly (lists that gain, lose and reorder items, controls that
// change role or move between lists, a frame with nothing).
TEST(A11yTree, FramesOneAfterAnotherEachBecomeTheNextTree) {
    std::mt19937 random(36);
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
    struct Control {
        std::uint32_t id;
        A11yRole role;
        std::vector<std::uint32_t> items;  // a list's
    };
    std::vector<Control> screen;
    std::uint32_t next_id = 1;
    std::vector<A11yNode> before;
    for (int step = 0; step < 400; ++step) {
        // A few edits of last frame's screen: a control added, removed,
        // swapped with another, given another role; a list's item added,
        // removed or moved to the list's top.
        for (std::size_t edits = 1 + pick(3); edits > 0; --edits) {
            const std::size_t at = screen.empty() ? 0 : pick(screen.size());
            switch (screen.empty() ? 0 : pick(6)) {
                case 0:
                    screen.insert(screen.begin() + static_cast<long>(at),
                                  {next_id++, pick(2) ? A11yRole::List : A11yRole::Button, {}});
                    break;
                case 1:
                    screen.erase(screen.begin() + static_cast<long>(at));
                    break;
                case 2:
                    std::swap(screen[at], screen[pick(screen.size())]);
                    break;
                case 3:
                    if (screen[at].items.empty()) screen[at].role = screen[at].role == A11yRole::Button ? A11yRole::Checkbox : A11yRole::Button;
                    break;
                default: {
                    std::vector<std::uint32_t>& items = screen[at].items;
                    if (screen[at].role != A11yRole::List) break;
                    if (items.empty() || pick(2)) {
                        items.insert(items.begin() + static_cast<long>(pick(items.size() + 1)), next_id++);
                    } else if (pick(2)) {
                        items.erase(items.begin() + static_cast<long>(pick(items.size())));
                    } else {
                        std::rotate(items.begin(), items.begin() + static_cast<long>(pick(items.size())), items.end());
                    }
                }
            }
        }
        if (step % 100 == 99) screen.clear();
        std::vector<A11yNode> after;
        for (const Control& c : screen) {
            after.push_back(node(c.id, c.role, pick(8) ? "same" : "changed"));
            for (std::uint32_t item : c.items) after.push_back(node(item, A11yRole::ListItem, "item", c.id));
        }
        ASSERT_EQ(apply_ops(before, diff_a11y_tree(before, after)), after) << "frame " << step;
        before = after;
    }
}

TEST(A11yTree, JsonCarriesNamesStatesAndNeverAPasswordValue) {
    A11yNode field = node(3, A11yRole::TextField, "API token");
    field.state = kA11yPassword;
    field.value = "secret-token";
    A11yNode send = node(4, A11yRole::Button, "Queue message");
    send.shortcut = "Control+Enter";
    const std::string json = a11y_ops_json(diff_a11y_tree({}, {field, send}));
    EXPECT_EQ(json.find("secret-token"), std::string::npos);
    const nlohmann::json parsed = nlohmann::json::parse(json);
    ASSERT_EQ(parsed.size(), 2u);
    EXPECT_EQ(parsed[0]["op"], "add");
    EXPECT_EQ(parsed[0]["role"], "textbox");
    EXPECT_EQ(parsed[0]["name"], "API token");
    EXPECT_EQ(parsed[1]["shortcut"], "Control+Enter");
    EXPECT_EQ(parsed[1]["after"], 3);
    EXPECT_EQ(parsed[1]["rect"][1], 80);
}

}  // namespace
}  // namespace roomkey::app
