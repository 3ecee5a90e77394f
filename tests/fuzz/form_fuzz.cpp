// form_fuzz.cpp: property: form_decode never crashes on any bytes, and for
// the fields it decodes, form_decode(form_encode(fields)) == fields (the
// bodies we build are read back exactly as meant).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "roomkey/url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);

    auto fields = roomkey::form_decode(input);
    if (fields) {
        const std::string encoded = roomkey::form_encode(*fields);
        auto again = roomkey::form_decode(encoded);
        if (!again || *again != *fields) std::abort();
        for (const auto& [name, value] : *fields) {
            if (!roomkey::form_get(*fields, name)) std::abort();
            if (roomkey::form_count(*fields, name) == 0) std::abort();
            (void)value;
        }
    }

    // A single field whose name and value are the raw input survives a round trip.
    const roomkey::FormFields raw{{std::string(input), std::string(input)}};
    auto back = roomkey::form_decode(roomkey::form_encode(raw));
    if (!back || *back != raw) std::abort();
    return 0;
}
