// a11y_tree.hpp: the accessibility tree the app publishes beside its canvas
// (the way Flutter's semantics layer or AccessKit do), and the diff that
// turns last frame's tree into this frame's with the fewest DOM operations.
// The nodes are collected from ImGui's item hooks (web/src/a11y_collect.cpp)
// and applied to a visually hidden DOM subtree by shell/a11y.js. Pure: no
// ImGui, no browser, so the diff is tested natively and under Node.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace roomkey::app {

// Image: a drawing described by its name (the rate plot: its axes' labels).
// Log: a live region of items in the order they came (the conversation);
// Article: one of its items, read as its name (the message as drawn), with
// its controls (Reply, Quote, ...) inside. Dialog: a modal question, named
// by its title, its controls inside.
enum class A11yRole {
    Button,
    Checkbox,
    TextField,
    MultilineTextField,
    Heading,
    List,
    ListItem,
    Group,
    Image,
    Log,
    Article,
    Dialog
};

const char* to_string(A11yRole role);

// State bits (ARIA: aria-checked, aria-expanded, aria-disabled, ...).
enum A11yState : std::uint32_t {
    kA11yChecked = 1u << 0,
    kA11yExpandable = 1u << 1,  // has aria-expanded at all
    kA11yExpanded = 1u << 2,
    kA11yDisabled = 1u << 3,
    kA11yPassword = 1u << 4,  // a text field whose value is never published
    kA11yReadOnly = 1u << 5,
};

struct A11yNode {
    std::uint32_t id = 0;      // stable across frames (ImGui's item ID); never 0
    std::uint32_t parent = 0;  // 0: the tree's root; otherwise a List or Group node
    A11yRole role = A11yRole::Button;
    std::string name;           // accessible name
    std::string value;          // a text field's text; a heading's level ("2")
    std::string shortcut;       // aria-keyshortcuts, e.g. "Control+Enter"
    std::uint32_t state = 0;    // A11yState bits
    std::array<int, 4> rect{};  // x, y, width, height in CSS pixels over the canvas

    bool operator==(const A11yNode& other) const;
    bool operator!=(const A11yNode& other) const { return !(*this == other); }
};

struct A11yOp {
    enum class Kind { Add, Update, Move, Remove };
    Kind kind = Kind::Add;
    A11yNode node;            // Add, Update: the whole node; Move, Remove: id (and parent for Move)
    std::uint32_t after = 0;  // Add, Move: the sibling it follows under its parent (0: first)
};

// The operations that turn `before` into `after` (both in document order,
// parents before children): removals first, then additions, updates of
// nodes whose fields changed, and moves of nodes whose order among their
// siblings changed (the fewest: siblings in a longest run that kept its
// order stay put). A node whose parent or role changed is removed and added.
std::vector<A11yOp> diff_a11y_tree(const std::vector<A11yNode>& before, const std::vector<A11yNode>& after);

// [{"op":"add","id":7,"parent":0,"after":3,"role":"button","name":"Sign in",...},...]
std::string a11y_ops_json(const std::vector<A11yOp>& ops);

}  // namespace roomkey::app
