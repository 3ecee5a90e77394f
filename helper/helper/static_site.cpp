// static_site.cpp: the file half of roomkey-helper (POSIX stat/realpath).
#include "helper/static_site.hpp"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include "helper/route_policy.hpp"
#include "helper/routes.hpp"
#include "roomkey/http.hpp"

namespace roomkey::helper {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

struct FileInfo {
    bool exists = false;
    long long size = 0;
    long long mtime_ns = 0;
};

FileInfo regular_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    return FileInfo{true, static_cast<long long>(st.st_size),
                    static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
}

std::string hex(long long v) {
    std::ostringstream out;
    out << std::hex << v;
    return out.str();
}

// Rejects everything that could leave the web root or reveal files nobody
// meant to publish: "..", ".", hidden names, backslashes, NUL, empty segments.
bool safe_relative_path(std::string_view path) {
    if (path.empty() || path.front() != '/') return false;
    std::size_t start = 1;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view seg = path.substr(start, end - start);
        if (seg.empty() || seg.front() == '.') return false;
        for (char c : seg) {
            if (c == '\\' || c == '\0' || static_cast<unsigned char>(c) < 0x20) return false;
        }
        start = end + 1;
    }
    return true;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
    std::size_t start = 0;
    while (start <= if_none_match.size()) {
        const std::size_t end = std::min(if_none_match.find(',', start), if_none_match.size());
        std::string_view candidate = trim(if_none_match.substr(start, end - start));
        if (candidate == "*") return true;
        if (candidate.rfind("W/", 0) == 0) candidate.remove_prefix(2);  // weak comparison (RFC 9110 13.1.2)
        if (candidate == etag) return true;
        start = end + 1;
    }
    return false;
}

}  // namespace

std::string content_type_for(std::string_view path) {
    const auto slash = path.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto dot = name.rfind('.');
    const std::string ext = dot == std::string_view::npos ? std::string() : ascii_lower(name.substr(dot + 1));
    for (const auto& entry : kContentTypes) {
        if (entry.extension == ext) return std::string(entry.type);
    }
    return std::string(kDefaultContentType);
}

bool is_hashed_asset(std::string_view name) {
    // The pattern nginx's location uses too (route_policy.hpp).
    static const std::regex hashed{std::string(kHashedAssetPattern)};
    return std::regex_search(name.begin(), name.end(), hashed);
}

bool accepts_encoding(std::string_view accept_encoding, std::string_view coding) {
    std::optional<bool> direct;
    std::optional<bool> star;
    std::size_t start = 0;
    while (start <= accept_encoding.size()) {
        const std::size_t end = std::min(accept_encoding.find(',', start), accept_encoding.size());
        std::string_view item = trim(accept_encoding.substr(start, end - start));
        start = end + 1;
        if (item.empty()) continue;
        std::string_view name = item;
        bool acceptable = true;
        if (const auto semi = item.find(';'); semi != std::string_view::npos) {
            name = trim(item.substr(0, semi));
            std::string params = ascii_lower(item.substr(semi + 1));
            // "q=0", "q=0.0", "q=0.000" mean "not acceptable".
            if (const auto q = params.find("q="); q != std::string::npos) {
                const std::string value(trim(std::string_view(params).substr(q + 2)));
                acceptable = value.find_first_of("123456789") != std::string::npos;
            }
        }
        if (iequals(name, coding)) direct = acceptable;
        if (name == "*") star = acceptable;
    }
    if (direct) return *direct;
    return star.value_or(false);
}

Result<StaticSite, std::string> StaticSite::open(const std::string& web_root) {
    const std::string fix =
        " Build the web app first: ./scripts/run.sh does it, or `cmake --preset wasm && cmake --build --preset wasm`"
        " (or point --web-root at a built web/dist).";
    char resolved[PATH_MAX];
    if (web_root.empty() || ::realpath(web_root.c_str(), resolved) == nullptr) {
        return Err{"web root " + web_root + " does not exist." + fix};
    }
    std::string root(resolved);
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    if (!regular_file(root + "/index.html").exists) {
        return Err{"web root " + root + " has no index.html." + fix};
    }
    return StaticSite(root);
}

void StaticSite::serve(const httplib::Request& request, httplib::Response& response) const {
    std::string path = request.path;
    const bool page = is_page_path(path);
    if (page) path = std::string(kPageFile);
    auto not_found = [&] {
        response.status = 404;
        response.set_content("not found\n", "text/plain; charset=utf-8");
        response.set_header("Cache-Control", std::string(cache_control(RouteClass::refusal)));
    };
    if (!safe_relative_path(path)) return not_found();
    const std::string file = root_ + path;
    // A symlink inside the web root must not lead out of it.
    char resolved[PATH_MAX];
    if (::realpath(file.c_str(), resolved) == nullptr) return not_found();
    const std::string real(resolved);
    if (real.rfind(root_ + "/", 0) != 0) return not_found();
    const FileInfo plain = regular_file(real);
    if (!plain.exists) return not_found();

    // Pick the precompressed sibling the browser accepts, brotli first.
    const std::string accept = request.get_header_value("Accept-Encoding");
    std::string body_path = real;
    FileInfo body_info = plain;
    std::string encoding;
    bool has_variant = false;
    for (const char* coding : {"br", "gzip"}) {
        const std::string sibling = real + (std::string_view(coding) == "br" ? ".br" : ".gz");
        const FileInfo info = regular_file(sibling);
        if (!info.exists) continue;
        has_variant = true;
        if (encoding.empty() && accepts_encoding(accept, coding)) {
            encoding = coding;
            body_path = sibling;
            body_info = info;
        }
    }

    const std::string etag =
        "\"" + hex(body_info.size) + "-" + hex(body_info.mtime_ns) + (encoding.empty() ? "" : "-" + encoding) + "\"";
    const auto slash = path.rfind('/');
    const std::string name = path.substr(slash + 1);
    const RouteClass route = page                    ? RouteClass::page
                             : is_hashed_asset(name) ? RouteClass::hashed_asset
                                                     : RouteClass::asset;
    response.set_header("Cache-Control", std::string(cache_control(route)));
    response.set_header("ETag", etag);
    if (has_variant) response.set_header("Vary", "Accept-Encoding");
    if (etag_matches(request.get_header_value("If-None-Match"), etag)) {
        response.status = 304;
        return;
    }
    if (!encoding.empty()) response.set_header("Content-Encoding", encoding);
    response.status = 200;
    // A content provider with a known length: httplib sends it as is (it only
    // compresses set_content bodies and chunked providers), so a .br file is
    // never compressed twice.
    auto body = std::make_shared<std::string>(read_file(body_path));
    response.set_content_provider(body->size(), content_type_for(path),
                                  [body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                                      sink.write(body->data() + offset, length);
                                      return true;
                                  });
}

}  // namespace roomkey::helper
