// issued_links.hpp: the download links the service itself issued through
// this helper's API proxy (GET /rooms/{room_id}/files/{file_id}
// ?create_download_url=1), for POST /file-preview (Proxy::file_preview).
// The live service's links are on its file host, not on {base_url}'s
// origin: a link the service has just handed over is one it vouches for, so
// a preview may fetch exactly that URL, and no other (never an open proxy).
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

#include "roomkey/time.hpp"

namespace roomkey::helper {

// The service's download link is valid for 30 s (its RAML, GET
// /rooms/{room_id}/files/{file_id}, create_download_url: 「30秒間だけ
// ダウンロード可能なURLを生成します」).
inline constexpr std::chrono::seconds kIssuedLinkLifetime{30};
// More links than a screenful of previews asks for within their lifetime.
inline constexpr std::size_t kMaxIssuedLinks = 256;

// The helper's clock, where a caller gives no time of its own.
inline Instant wall_now() { return std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now()); }

class IssuedLinks {
public:
    // The body of a 200 answer to GET /rooms/{room_id}/files/{file_id}: its
    // https download_url, if any, is remembered as issued at `now`.
    void remember_from(std::string_view file_answer, Instant now);
    // `url` was issued less than kIssuedLinkLifetime before `now`.
    bool issued(const std::string& url, Instant now) const;

private:
    struct Link {
        std::string url;
        Instant at;
    };
    mutable std::mutex mutex_;
    std::deque<Link> links_;  // oldest first
};

}  // namespace roomkey::helper
