// static_site.cpp: the file half of roomkey-helper (POSIX stat/realpath).
#include "helper/static_site.hpp"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "roomkey/http.hpp"

namespace roomkey::helper {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

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
    const std::string ext = dot == std::string_view::npos ? std::string() : lower(name.substr(dot + 1));
    if (ext == "html" || ext == "htm") return "text/html; charset=utf-8";
    if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
    if (ext == "wasm") return "application/wasm";  // required by WebAssembly.instantiateStreaming
    if (ext == "css") return "text/css; charset=utf-8";
    if (ext == "json" || ext == "map") return "application/json";
    if (ext == "webmanifest") return "application/manifest+json";
    if (ext == "svg") return "image/svg+xml";
    if (ext == "png") return "image/png";
    if (ext == "ico") return "image/x-icon";
    if (ext == "txt") return "text/plain; charset=utf-8";
    if (ext == "woff2") return "font/woff2";
    if (ext == "ttf") return "font/ttf";
    return "application/octet-stream";
}

bool is_hashed_asset(std::string_view name) {
    // Look for [.-]<8+ hex>. anywhere before the extension.
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] != '.' && name[i] != '-') continue;
        std::size_t j = i + 1;
        while (j < name.size() && is_hex(name[j])) ++j;
        if (j - i - 1 >= 8 && j < name.size() && name[j] == '.') return true;
    }
    return false;
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
            std::string params = lower(item.substr(semi + 1));
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
    const bool page = path == "/" || path == "/index.html" || path == "/callback";
    if (page) path = "/index.html";
    auto not_found = [&] {
        response.status = 404;
        response.set_content("not found\n", "text/plain; charset=utf-8");
        response.set_header("Cache-Control", "no-store");
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

    const std::string etag = "\"" + hex(body_info.size) + "-" + hex(body_info.mtime_ns) +
                             (encoding.empty() ? "" : "-" + encoding) + "\"";
    const auto slash = path.rfind('/');
    const std::string name = path.substr(slash + 1);
    // The page must be revalidated every time (a rebuild changes which assets
    // it loads); hashed assets never change; the rest revalidates via ETag.
    const char* cache = page ? "no-cache"
                        : is_hashed_asset(name) ? "public, max-age=31536000, immutable"
                                                : "no-cache";
    response.set_header("Cache-Control", cache);
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
