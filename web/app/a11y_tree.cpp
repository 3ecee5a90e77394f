// a11y_tree.cpp: see a11y_tree.hpp.
#include "app/a11y_tree.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

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

// Ids to positions (a node's id repeated: the last one, as a map's
// assignment kept it): an open-addressed table, flat and reused across
// frames. The diff runs every frame over every node, and a std::map per
// question was most of its cost.
constexpr std::size_t kNone = SIZE_MAX;

struct IdIndex {
    std::vector<std::size_t> slots;  // id, position, ...; id 0: empty (an id is never 0)
    std::size_t mask = 0;

    void build(const std::vector<A11yNode>& nodes) {
        std::size_t size = 16;
        while (size < nodes.size() * 2) size *= 2;
        slots.assign(2 * size, 0);
        mask = size - 1;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const std::size_t at = spot(nodes[i].id);
            slots[at] = nodes[i].id;
            slots[at + 1] = i;
        }
    }
    std::size_t spot(std::size_t id) const {
        std::size_t at = (id * 2654435761u) & mask;
        while (slots[2 * at] != 0 && slots[2 * at] != id) at = (at + 1) & mask;
        return 2 * at;
    }
    std::size_t find(std::size_t id) const {
        const std::size_t at = spot(id);
        return id == 0 || slots[at] != id ? kNone : slots[at + 1];
    }
};

struct DiffScratch {
    IdIndex old_ids, new_ids;
    using List = std::vector<std::size_t>;  // one type of list: one instantiation in the wasm
    List old_position;   // per old node: its place among its siblings
    List sibling_count;  // per old parent slot (0: the root; i + 1: old node i)
    List old_of;         // per new node: the old node kept in its place, or kNone
    List removed;        // per old node
    List group;          // new nodes by parent, each parent's in document order
    List group_start;    // per new parent slot
    List stays;          // per new node: kept where it was among its siblings
    List previous;       // per new node: the sibling before it (0: first)
    List positions, members;
};

}  // namespace

std::vector<A11yOp> diff_a11y_tree(const std::vector<A11yNode>& before, const std::vector<A11yNode>& after) {
    static DiffScratch x;
    x.old_ids.build(before);
    x.new_ids.build(after);
    const std::size_t nb = before.size(), na = after.size();
    // Parent slot of a node: 0 for the root, else its parent's position + 1.
    const auto slot = [](const IdIndex& ids, std::uint32_t parent) {
        const std::size_t p = parent == 0 ? kNone : ids.find(parent);
        return p == kNone ? std::size_t{0} : p + 1;
    };
    x.sibling_count.assign(nb + 1, 0);
    x.old_position.resize(nb);
    for (std::size_t i = 0; i < nb; ++i) x.old_position[i] = x.sibling_count[slot(x.old_ids, before[i].parent)]++;

    std::vector<A11yOp> ops;
    x.removed.assign(nb, 0);
    for (std::size_t i = 0; i < nb; ++i) {
        const A11yNode& node = before[i];
        const std::size_t n = x.new_ids.find(node.id);
        const bool gone = n == kNone || after[n].parent != node.parent || after[n].role != node.role;
        // A removed parent takes its children with it: one operation.
        const std::size_t p = node.parent == 0 ? kNone : x.old_ids.find(node.parent);
        const bool parent_removed = p != kNone && x.removed[p];
        // Kept, but its parent element went away: re-added below.
        if (gone || parent_removed) x.removed[i] = 1;
        if (gone && !parent_removed) {
            A11yOp op;
            op.kind = A11yOp::Kind::Remove;
            op.node.id = node.id;
            ops.push_back(op);
        }
    }

    // A node kept in place: same id, parent and role (the DOM element's tag
    // follows the role, so a role change is a new element), not re-added.
    x.old_of.assign(na, kNone);
    for (std::size_t i = 0; i < na; ++i) {
        const std::size_t o = x.old_ids.find(after[i].id);
        if (o != kNone && before[o].parent == after[i].parent && before[o].role == after[i].role && !x.removed[o]) {
            x.old_of[i] = o;
        }
    }

    // The new nodes grouped by parent (a counting sort: each parent's
    // children stay in document order).
    x.group_start.assign(na + 2, 0);
    for (std::size_t i = 0; i < na; ++i) ++x.group_start[slot(x.new_ids, after[i].parent) + 1];
    for (std::size_t s = 1; s < x.group_start.size(); ++s) x.group_start[s] += x.group_start[s - 1];
    x.group.resize(na);
    x.positions.assign(x.group_start.begin(), x.group_start.end() - 1);  // next free place per slot
    for (std::size_t i = 0; i < na; ++i) x.group[x.positions[slot(x.new_ids, after[i].parent)]++] = i;

    // Per parent, the kept siblings in their new order; those outside a
    // longest run that kept the old order move.
    x.stays.assign(na, 0);
    x.previous.resize(na);
    for (std::size_t s = 0; s + 1 < x.group_start.size(); ++s) {
        x.positions.clear();
        x.members.clear();
        for (std::size_t k = x.group_start[s]; k < x.group_start[s + 1]; ++k) {
            const std::size_t i = x.group[k];
            x.previous[i] = k == x.group_start[s] ? 0 : after[x.group[k - 1]].id;
            if (x.old_of[i] == kNone) continue;
            x.positions.push_back(x.old_position[x.old_of[i]]);
            x.members.push_back(i);
        }
        for (std::size_t k : longest_increasing(x.positions)) x.stays[x.members[k]] = 1;
    }

    // In document order: a parent's operations before its children's.
    for (std::size_t i = 0; i < na; ++i) {
        const A11yNode& node = after[i];
        const auto previous = static_cast<std::uint32_t>(x.previous[i]);
        if (x.old_of[i] == kNone) {
            A11yOp op;
            op.kind = A11yOp::Kind::Add;
            op.node = node;
            op.after = previous;
            ops.push_back(op);
            continue;
        }
        if (!x.stays[i]) {
            A11yOp op;
            op.kind = A11yOp::Kind::Move;
            op.node.id = node.id;
            op.node.parent = node.parent;
            op.after = previous;
            ops.push_back(op);
        }
        if (before[x.old_of[i]] != node) {
            A11yOp op;
            op.kind = A11yOp::Kind::Update;
            op.node = node;
            ops.push_back(op);
        }
    }
    return ops;
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
