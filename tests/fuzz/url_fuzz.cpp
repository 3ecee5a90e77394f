// url_fuzz.cpp: property: parse_url never crashes on any bytes, and for every
// input it accepts, to_string(parse_url(x)) parses again to an equal Url
// (so a URL we check is the URL we send). Also: percent_decode inverts
// percent_encode on the raw input.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "roomkey/url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);

    auto url = roomkey::parse_url(input);
    if (url) {
        const std::string text = roomkey::to_string(*url);
        auto again = roomkey::parse_url(text);
        if (!again || *again != *url) std::abort();            // round trip
        if (roomkey::to_string(*again) != text) std::abort();  // serialising is stable
        (void)roomkey::origin_of(*url);
    }

    auto decoded = roomkey::percent_decode(roomkey::percent_encode(input));
    if (!decoded || *decoded != input) std::abort();
    return 0;
}
