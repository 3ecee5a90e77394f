// scopes.hpp: the scope catalog (spec 5.5) as data, scope-list parsing and
// formatting, aggregate expansion/compaction, and which scope each REST
// endpoint needs. The client and the sandbox both decide access here.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/endpoints.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/result.hpp"

namespace roomkey {

inline constexpr std::string_view kOfflineAccessScope = "offline_access";

struct ScopeInfo {
    std::string_view name;                   // "rooms.all:read"
    std::vector<std::string_view> includes;  // direct members of an aggregate; empty for a leaf
    std::string_view allows;                 // spec 5.5 "Allows" column
    bool aggregate() const { return !includes.empty(); }
};

// Every scope of spec 5.5, in the spec's order.
const std::vector<ScopeInfo>& scope_catalog();
// nullptr for names not in the catalog.
const ScopeInfo* find_scope(std::string_view name);
bool is_known_scope(std::string_view name);

// Ordered so that formatting is stable regardless of input order.
using ScopeSet = std::set<std::string>;

enum class ScopeError {
    empty,    // no scope name at all (-> 5001 scope_missing)
    unknown,  // names not in the catalog (-> 5002 scope_unknown)
};
std::string_view to_string(ScopeError error);
AuthorizationErrorCode to_authorization_error(ScopeError error);

struct ScopeListError {
    ScopeError kind;
    std::vector<std::string> unknown;  // the offending names, in input order, for `unknown`
};

// Splits a space-delimited list (RFC 6749 3.3). Runs of spaces and repeated
// names are tolerated; every name must be in the catalog.
Result<ScopeSet, ScopeListError> parse_scope_list(std::string_view space_delimited);

// Splits a space-delimited list without judging the names: for what the
// service says it granted, which may name scopes newer than our catalog
// (they are kept, shown, and simply never needed by an endpoint we know).
ScopeSet split_scope_list(std::string_view space_delimited);

// Space-delimited, catalog order (unknown names last, sorted); "" for an empty set.
std::string format_scope_list(const ScopeSet& scopes);

// The given scopes plus everything their aggregates include, transitively.
// Unknown names pass through unchanged.
ScopeSet expand(const ScopeSet& scopes);
// Only the leaf scopes (no aggregates) that `scopes` grants; unknown names kept.
ScopeSet leaf_scopes(const ScopeSet& scopes);
// The smallest set granting the same leaves, using aggregates wherever all of
// their leaves are granted ("rooms.all:read" + "rooms.all:write" -> "rooms.all:read_write").
ScopeSet compact(const ScopeSet& scopes);

// True when every leaf `scope` grants is granted by `granted`.
bool grants(const ScopeSet& granted, std::string_view scope);
// True when `requested` asks for nothing beyond `granted` (after expansion);
// the rule for narrowing scopes on refresh (spec 4.3).
bool is_subset_grant(const ScopeSet& requested, const ScopeSet& granted);

// False when the set is empty or holds only offline_access (spec 5.4.4).
bool gives_api_access(const ScopeSet& scopes);

// The leaf scope an endpoint needs (spec 5.5 "Allows"); every endpoint has one.
std::optional<std::string_view> required_scope(Endpoint endpoint);
// True when `granted` (an OAuth grant) lets the caller use `endpoint`.
bool grant_allows(const ScopeSet& granted, Endpoint endpoint);

}  // namespace roomkey
