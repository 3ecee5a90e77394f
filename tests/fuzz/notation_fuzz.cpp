// notation_fuzz.cpp: property: parse_parts never crashes on any bytes and never loses one: the top-level
// parts' source ranges are in order, non-empty, do not overlap and cover the body exactly; every container's
// children cover its inner range the same way; every field's span lies within its part; nesting is at most
// kMaxDepth. plain_text never crashes. message_tags.hpp answers as the parts say. What the composer builds
// from the bytes (a quote, a code block, an info box) parses back to that one part, or is refused.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/composer.hpp"
#include "roomkey/message_tags.hpp"
#include "roomkey/notation.hpp"

namespace {

using roomkey::notation::Part;
using roomkey::notation::PartKind;
using roomkey::notation::Span;

bool within(const Span& inner, const Span& outer) {
    return inner.empty() || (inner.begin >= outer.begin && inner.end <= outer.end && inner.begin <= inner.end);
}

bool is_container(PartKind kind) {
    return kind == PartKind::quote || kind == PartKind::info || kind == PartKind::service_event ||
           kind == PartKind::task;
}

// Checks the parts of `range` at nesting `level`; aborts on any broken rule.
void check(const std::vector<Part>& parts, Span range, int level) {
    if (level > roomkey::notation::kMaxDepth) std::abort();
    std::size_t cursor = range.begin;
    for (const Part& part : parts) {
        if (part.source.begin != cursor || part.source.end <= part.source.begin) std::abort();
        for (const Span* field : {&part.inner, &part.account_id, &part.name, &part.room_id, &part.message_id, &part.key,
                                  &part.file_id, &part.size}) {
            if (!within(*field, part.source)) std::abort();
        }
        if (is_container(part.kind)) {
            check(part.children, part.inner, level + 1);
        } else if (!part.children.empty()) {
            std::abort();
        }
        cursor = part.source.end;
    }
    if (cursor != range.end) std::abort();
}

bool any_of_kind(std::string_view body, const std::vector<Part>& parts, PartKind kind, std::string_view account) {
    for (const Part& part : parts) {
        if (part.kind == kind && (account.empty() || part.account_id.of(body) == account)) return true;
        if (any_of_kind(body, part.children, kind, account)) return true;
    }
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace roomkey;
    const std::string_view body(reinterpret_cast<const char*>(data), size);

    const std::vector<Part> parts = notation::parse_parts(body);
    check(parts, Span{0, body.size()}, 0);
    if (notation::depth(parts) > notation::kMaxDepth) std::abort();
    (void)notation::plain_text(
        body, parts, [](std::string_view id) { return id.size() % 2 ? std::string("Al") : std::string(); },
        [](notation::Phrase, const notation::PhraseValues& v) { return std::string(v.name) + std::string(v.text); });
    (void)notation::plain_text(body, parts, {}, {});

    // The mention rule is one source: the sandbox's count and the drawn chips agree.
    for (std::string_view account : {"1001", "1"}) {
        const bool drawn =
            any_of_kind(body, parts, PartKind::mention, account) || any_of_kind(body, parts, PartKind::reply, account);
        if (addresses_account(body, account) != drawn) std::abort();
    }
    if (addresses_everyone(body) != any_of_kind(body, parts, PartKind::to_all, {})) std::abort();

    // Builders: accepted output parses back to exactly the part asked for, holding the bytes given.
    if (auto quote = composer::quote("1002", 1700000000, body)) {
        const auto back = notation::parse_parts(*quote);
        if (back.empty() || back[0].kind != PartKind::quote || back[0].inner.of(*quote) != body) std::abort();
    }
    if (auto code = composer::code_block(body)) {
        const auto back = notation::parse_parts(*code);
        if (back.size() != 1 || back[0].kind != PartKind::code || back[0].inner.of(*code) != body) std::abort();
    }
    return 0;
}
