// scopes.cpp: the scope catalog (spec 5.5) and the rules built on it.
#include "roomkey/scopes.hpp"

#include <algorithm>

#include "roomkey/endpoint_catalog.hpp"

namespace roomkey {

const std::vector<ScopeInfo>& scope_catalog() {
    // Spec 5.5, row by row, in the spec's order (format_scope_list relies on it).
    static const std::vector<ScopeInfo> catalog = {
        {"offline_access", {}, "Permanent API access (see 5.4)."},
        {"users.all:read",
         {"users.profile.me:read", "users.status.me:read", "users.tasks.me:read"},
         "Read information tied to the own account."},
        {"users.profile.me:read", {}, "Read own profile."},
        {"users.status.me:read", {}, "Read own unread/read counts."},
        {"users.tasks.me:read", {}, "Read own task list."},
        {"rooms.all:read_write",
         {"rooms.all:read", "rooms.all:write"},
         "Read and operate messages, tasks, files, description and member information of chat rooms."},
        {"rooms.all:read",
         {"rooms.info:read", "rooms.members:read", "rooms.messages:read", "rooms.tasks:read", "rooms.files:read"},
         "Read the same room data."},
        {"rooms.all:write",
         {"rooms:write", "rooms.info:write", "rooms.members:write", "rooms.messages:write", "rooms.tasks:write",
          "rooms.files:write"},
         "Operate the same room data."},
        {"rooms:write", {}, "Create chat rooms and delete joined rooms."},
        {"rooms.info:read", {}, "Read the list of joined rooms."},
        {"rooms.info:write", {}, "Update information of joined rooms."},
        {"rooms.members:read", {}, "Read members of joined rooms."},
        {"rooms.members:write", {}, "Add, remove and change permissions of members of joined rooms."},
        {"rooms.messages:read", {}, "Read messages of joined rooms."},
        {"rooms.messages:write", {}, "Post messages to joined rooms."},
        {"rooms.tasks:read", {}, "Read tasks of joined rooms."},
        {"rooms.tasks:write", {}, "Create tasks in joined rooms."},
        {"rooms.files:read", {}, "Read information of files uploaded to joined rooms."},
        {"rooms.files:write", {}, "Upload files to joined rooms."},
        {"contacts.all:read_write",
         {"contacts.all:read", "contacts.all:write"},
         "Read and operate own contacts and pending contact approval requests."},
        {"contacts.all:read", {}, "Read own contacts and pending contact approval requests."},
        {"contacts.all:write", {}, "Operate approval requests addressed to the caller."},
    };
    return catalog;
}

const ScopeInfo* find_scope(std::string_view name) {
    for (const auto& scope : scope_catalog()) {
        if (scope.name == name) return &scope;
    }
    return nullptr;
}

bool is_known_scope(std::string_view name) {
    return find_scope(name) != nullptr;
}

std::string_view to_string(ScopeError error) {
    switch (error) {
        case ScopeError::empty:
            return "empty";
        case ScopeError::unknown:
            return "unknown";
    }
    return "unknown";
}

AuthorizationErrorCode to_authorization_error(ScopeError error) {
    return error == ScopeError::empty ? AuthorizationErrorCode::scope_missing : AuthorizationErrorCode::scope_unknown;
}

namespace {

// Calls `each` with every name of a space-delimited list, in input order.
template <class Each>
void for_each_scope_name(std::string_view text, Each each) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        if (text[pos] == ' ') {
            ++pos;
            continue;
        }
        std::size_t end = text.find(' ', pos);
        if (end == std::string_view::npos) end = text.size();
        each(text.substr(pos, end - pos));
        pos = end;
    }
}

}  // namespace

Result<ScopeSet, ScopeListError> parse_scope_list(std::string_view text) {
    ScopeSet scopes;
    std::vector<std::string> unknown;
    for_each_scope_name(text, [&](std::string_view name) {
        if (!is_known_scope(name)) {
            if (std::find(unknown.begin(), unknown.end(), name) == unknown.end()) unknown.emplace_back(name);
            return;
        }
        scopes.emplace(name);
    });
    if (!unknown.empty()) return Err{ScopeListError{ScopeError::unknown, std::move(unknown)}};
    if (scopes.empty()) return Err{ScopeListError{ScopeError::empty, {}}};
    return scopes;
}

ScopeSet split_scope_list(std::string_view text) {
    ScopeSet scopes;
    for_each_scope_name(text, [&](std::string_view name) { scopes.emplace(name); });
    return scopes;
}

std::string format_scope_list(const ScopeSet& scopes) {
    std::string out;
    auto append = [&out](std::string_view name) {
        if (!out.empty()) out += ' ';
        out += name;
    };
    for (const auto& scope : scope_catalog()) {
        if (scopes.count(std::string(scope.name))) append(scope.name);
    }
    for (const auto& name : scopes) {  // std::set: already sorted
        if (!is_known_scope(name)) append(name);
    }
    return out;
}

namespace {

void add_closure(std::string_view name, ScopeSet& out) {
    if (!out.insert(std::string(name)).second) return;
    if (const ScopeInfo* scope = find_scope(name)) {
        for (auto member : scope->includes) add_closure(member, out);
    }
}

// Every leaf under `name` (the name itself for a leaf or an unknown name).
void add_leaves(std::string_view name, ScopeSet& out) {
    const ScopeInfo* scope = find_scope(name);
    if (!scope || !scope->aggregate()) {
        out.insert(std::string(name));
        return;
    }
    for (auto member : scope->includes) add_leaves(member, out);
}

bool all_leaves_in(std::string_view name, const ScopeSet& leaves) {
    ScopeSet needed;
    add_leaves(name, needed);
    return std::includes(leaves.begin(), leaves.end(), needed.begin(), needed.end());
}

bool is_included_by_another(std::string_view name) {
    for (const auto& scope : scope_catalog()) {
        for (auto member : scope.includes) {
            if (member == name) return true;
        }
    }
    return false;
}

// Top-down: a fully granted node is written as itself, otherwise its members are tried.
void compact_into(std::string_view name, const ScopeSet& leaves, ScopeSet& out) {
    if (all_leaves_in(name, leaves)) {
        out.insert(std::string(name));
        return;
    }
    if (const ScopeInfo* scope = find_scope(name)) {
        for (auto member : scope->includes) compact_into(member, leaves, out);
    }
}

}  // namespace

ScopeSet expand(const ScopeSet& scopes) {
    ScopeSet out;
    for (const auto& name : scopes) add_closure(name, out);
    return out;
}

ScopeSet leaf_scopes(const ScopeSet& scopes) {
    ScopeSet out;
    for (const auto& name : scopes) add_leaves(name, out);
    return out;
}

ScopeSet compact(const ScopeSet& scopes) {
    const ScopeSet leaves = leaf_scopes(scopes);
    ScopeSet out;
    for (const auto& scope : scope_catalog()) {
        if (!is_included_by_another(scope.name)) compact_into(scope.name, leaves, out);
    }
    for (const auto& name : leaves) {
        if (!is_known_scope(name)) out.insert(name);
    }
    return out;
}

bool grants(const ScopeSet& granted, std::string_view scope) {
    return all_leaves_in(scope, leaf_scopes(granted));
}

bool is_subset_grant(const ScopeSet& requested, const ScopeSet& granted) {
    const ScopeSet want = leaf_scopes(requested);
    const ScopeSet have = leaf_scopes(granted);
    return std::includes(have.begin(), have.end(), want.begin(), want.end());
}

bool gives_api_access(const ScopeSet& scopes) {
    for (const auto& name : scopes) {
        if (name != kOfflineAccessScope) return true;
    }
    return false;
}

std::optional<std::string_view> required_scope(Endpoint endpoint) {
    // The endpoint catalog holds each endpoint's scope (one table for all rules).
    const std::string_view scope = endpoint_info(endpoint).scope;
    if (scope.empty()) return std::nullopt;
    return scope;
}

bool grant_allows(const ScopeSet& granted, Endpoint endpoint) {
    auto needed = required_scope(endpoint);
    return needed.has_value() && grants(granted, *needed);
}

}  // namespace roomkey
