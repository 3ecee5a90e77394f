// a11y_tree.cpp: see a11y_tree.hpp.
#include "app/a11y_tree.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include "app/stable_order.hpp"

namespace roomkey::app {

const char* to_string(A11yRole role) {
    switch (role) {
        case A11yRole::Button:
            return "button";
        case A11yRole::Checkbox:
            return "checkbox";
        case A11yRole::TextField:
            return "textbox";
        case A11yRole::MultilineTextField:
            return "textarea";
        case A11yRole::Heading:
            return "heading";
        case A11yRole::List:
            return "list";
        case A11yRole::ListItem:
            return "listitem";
        case A11yRole::Group:
            return "group";
        case A11yRole::Image:
            return "img";
        case A11yRole::Log:
            return "log";
        case A11yRole::Article:
            return "article";
        case A11yRole::Dialog:
            return "dialog";
    }
    return "group";
}

bool A11yNode::operator==(const A11yNode& other) const {
    return id == other.id && parent == other.parent && role == other.role && name == other.name &&
           value == other.value && shortcut == other.shortcut && state == other.state && rect == other.rect;
}

namespace {

// Indices (into `seq`) of one longest strictly increasing subsequence.
std::vector<std::size_t> longest_increasing(const std::vector<std::size_t>& seq) {
    std::vector<std::size_t> tails;  // index into seq of the smallest tail of each length
    std::vector<std::size_t> prev(seq.size(), SIZE_MAX);
    for (std::size_t i = 0; i < seq.size(); ++i) {
        auto it = std::lower_bound(tails.begin(), tails.end(), seq[i],
                                   [&](std::size_t t, std::size_t value) { return seq[t] < value; });
        if (it != tails.begin()) prev[i] = *(it - 1);
        if (it == tails.end()) {
            tails.push_back(i);
        } else {
            *it = i;
        }
    }
    std::vector<std::size_t> result;
    for (std::size_t i = tails.empty() ? SIZE_MAX : tails.back(); i != SIZE_MAX; i = prev[i]) result.push_back(i);
    std::reverse(result.begin(), result.end());
    return result;
}

}  // namespace

std::vector<A11yOp> diff_a11y_tree(const std::vector<A11yNode>& before, const std::vector<A11yNode>& after) {
    std::map<std::uint32_t, const A11yNode*> old_nodes;
    std::map<std::uint32_t, std::size_t> old_position;  // among its siblings
    std::map<std::uint32_t, std::size_t> sibling_count;
    for (const A11yNode& node : before) {
        old_nodes[node.id] = &node;
        old_position[node.id] = sibling_count[node.parent]++;
    }
    std::map<std::uint32_t, const A11yNode*> new_nodes;
    for (const A11yNode& node : after) new_nodes[node.id] = &node;

    // A node kept in place: same id, parent and role (the DOM element's tag
    // follows the role, so a role change is a new element).
    const auto kept = [&](const A11yNode& node) {
        auto it = old_nodes.find(node.id);
        return it != old_nodes.end() && it->second->parent == node.parent && it->second->role == node.role;
    };

    std::vector<A11yOp> ops;
    std::map<std::uint32_t, bool> removed;
    for (const A11yNode& node : before) {
        auto it = new_nodes.find(node.id);
        const bool gone = it == new_nodes.end() || it->second->parent != node.parent || it->second->role != node.role;
        // A removed parent takes its children with it: one operation.
        const bool parent_removed = node.parent != 0 && removed.count(node.parent) != 0;
        if (gone) removed[node.id] = true;
        if (gone && !parent_removed) {
            A11yOp op;
            op.kind = A11yOp::Kind::Remove;
            op.node.id = node.id;
            ops.push_back(op);
        }
        if (!gone && parent_removed) {
            // Kept, but its parent element went away: re-added below.
            removed[node.id] = true;
        }
    }

    // Per parent, the kept siblings in their new order; those outside a
    // longest run that kept the old order move.
    std::map<std::uint32_t, std::vector<const A11yNode*>> children;
    for (const A11yNode& node : after) children[node.parent].push_back(&node);
    std::map<std::uint32_t, bool> stays;
    for (const auto& [parent, list] : children) {
        std::vector<std::size_t> positions;
        std::vector<std::uint32_t> ids;
        for (const A11yNode* node : list) {
            if (kept(*node) && !removed.count(node->id)) {
                positions.push_back(old_position[node->id]);
                ids.push_back(node->id);
            }
        }
        for (std::size_t i : longest_increasing(positions)) stays[ids[i]] = true;
    }

    for (const auto& [parent, list] : children) {
        (void)parent;
        std::uint32_t previous = 0;
        for (const A11yNode* node : list) {
            const bool existing = kept(*node) && !removed.count(node->id);
            if (!existing) {
                A11yOp op;
                op.kind = A11yOp::Kind::Add;
                op.node = *node;
                op.after = previous;
                ops.push_back(op);
            } else {
                if (!stays.count(node->id)) {
                    A11yOp op;
                    op.kind = A11yOp::Kind::Move;
                    op.node.id = node->id;
                    op.node.parent = node->parent;
                    op.after = previous;
                    ops.push_back(op);
                }
                if (*old_nodes[node->id] != *node) {
                    A11yOp op;
                    op.kind = A11yOp::Kind::Update;
                    op.node = *node;
                    ops.push_back(op);
                }
            }
            previous = node->id;
        }
    }
    // Parents' operations must come before their children's: `after` is in
    // document order, so sort adds/moves by the position of the node there.
    std::map<std::uint32_t, std::size_t> order;
    for (std::size_t i = 0; i < after.size(); ++i) order[after[i].id] = i;
    const std::vector<std::size_t> sorted = stable_order(ops.size(), [&](std::size_t i, std::size_t j) {
        const A11yOp& a = ops[i];
        const A11yOp& b = ops[j];
        const bool a_remove = a.kind == A11yOp::Kind::Remove;
        const bool b_remove = b.kind == A11yOp::Kind::Remove;
        if (a_remove || b_remove) return a_remove && !b_remove;
        return order[a.node.id] < order[b.node.id];
    });
    return in_order(std::move(ops), sorted);
}

std::string a11y_ops_json(const std::vector<A11yOp>& ops) {
    nlohmann::json list = nlohmann::json::array();
    for (const A11yOp& op : ops) {
        nlohmann::json item;
        item["id"] = op.node.id;
        switch (op.kind) {
            case A11yOp::Kind::Remove:
                item["op"] = "remove";
                list.push_back(std::move(item));
                continue;
            case A11yOp::Kind::Move:
                item["op"] = "move";
                item["parent"] = op.node.parent;
                item["after"] = op.after;
                list.push_back(std::move(item));
                continue;
            case A11yOp::Kind::Add:
                item["op"] = "add";
                item["parent"] = op.node.parent;
                item["after"] = op.after;
                break;
            case A11yOp::Kind::Update:
                item["op"] = "update";
                break;
        }
        const A11yNode& n = op.node;
        item["role"] = to_string(n.role);
        item["name"] = n.name;
        if (!(n.state & kA11yPassword)) item["value"] = n.value;
        if (!n.shortcut.empty()) item["shortcut"] = n.shortcut;
        item["state"] = n.state;
        item["rect"] = n.rect;
        list.push_back(std::move(item));
    }
    return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace roomkey::app
